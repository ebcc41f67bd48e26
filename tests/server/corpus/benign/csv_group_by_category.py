# How much did I spend per category?
# ruff: noqa - written the way small models write it; a sample, not project code
import csv
from collections import defaultdict

totals = defaultdict(float)
with open("expenses.csv") as f:
    for row in csv.DictReader(f):
        totals[row["category"]] += float(row["amount"])
for category, amount in sorted(totals.items(), key=lambda kv: -kv[1]):
    print(f"{category}: {amount:.2f}")
