# What columns does the sales file have?
# ruff: noqa - written the way small models write it; a sample, not project code
import csv

with open("sales.csv") as f:
    header = next(csv.reader(f))
print("The columns are:", ", ".join(header))
