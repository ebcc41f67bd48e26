# Add a 15 euro cinema expense for today.
# ruff: noqa - written the way small models write it; a sample, not project code
import csv
from datetime import date

with open("expenses.csv", "a", newline="") as f:
    csv.writer(f).writerow([date.today().isoformat(), "leisure", "15.00"])
print("Added the cinema expense.")
