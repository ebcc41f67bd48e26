# Show the header of every CSV file.
# ruff: noqa - written the way small models write it; a sample, not project code
import glob

csv_files = sorted(glob.glob("*.csv"))
for f in csv_files:
    with open(f, "r") as fh:
        print(f, "->", fh.readline().strip())
