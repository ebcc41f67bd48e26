# What was my biggest expense?
# ruff: noqa - written the way small models write it; a sample, not project code
import csv

with open("expenses.csv") as f:
    rows = list(csv.DictReader(f))
top = max(rows, key=lambda r: float(r["amount"]))
print(f"Your biggest expense was {top['amount']} for {top['category']} on {top['date']}.")
