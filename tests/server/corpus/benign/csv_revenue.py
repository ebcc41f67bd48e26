# What was the revenue per month?
# ruff: noqa - written the way small models write it; a sample, not project code
import csv

with open("sales.csv") as f:
    for row in csv.DictReader(f):
        revenue = int(row["units"]) * float(row["price"])
        print(f"{row['month']}: {revenue:.2f}")
