# How many lines are in each CSV file?
# ruff: noqa - written the way small models write it; a sample, not project code
import glob

for name in glob.glob("*.csv"):
    with open(name) as fh:
        lines = sum(1 for _ in fh)
    print(f"{name} has {lines} lines.")
