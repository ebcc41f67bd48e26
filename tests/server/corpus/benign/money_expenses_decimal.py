# What are my grocery costs exactly?
# ruff: noqa - written the way small models write it; a sample, not project code
import csv
from decimal import Decimal

with open("expenses.csv") as f:
    total = sum((Decimal(r["amount"]) for r in csv.DictReader(f) if r["category"] == "groceries"), Decimal(0))
print(f"Groceries cost {total} euros.")
