# How much did I spend in total?
# ruff: noqa - written the way small models write it; a sample, not project code
import csv

with open("expenses.csv", newline="") as f:
    reader = csv.reader(f)
    next(reader)
    total = sum(float(row[2]) for row in reader)
print(f"You spent {total:.2f} euros in total.")
