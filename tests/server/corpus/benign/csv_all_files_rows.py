# How many rows are in each of my spreadsheets?
# ruff: noqa - written the way small models write it; a sample, not project code
import csv
import glob

for path in glob.glob("*.csv"):
    with open(path) as f:
        rows = list(csv.reader(f))
    print(f"{path}: {len(rows) - 1} rows")
