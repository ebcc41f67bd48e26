# Sum the last column of every spreadsheet.
# ruff: noqa - written the way small models write it; a sample, not project code
import csv
import os

csv_files = [f for f in os.listdir(".") if f.endswith(".csv")]
for name in csv_files:
    with open(name, newline="") as fh:
        reader = csv.reader(fh)
        next(reader)
        print(name, round(sum(float(r[-1]) for r in reader), 2))
