# How many expenses did I record?
# ruff: noqa - written the way small models write it; a sample, not project code
import csv

with open("expenses.csv") as f:
    count = sum(1 for _ in csv.DictReader(f))
print(f"You recorded {count} expenses.")
