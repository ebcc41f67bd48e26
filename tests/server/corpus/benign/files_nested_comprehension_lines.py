# How many lines mention milk in all my files?
# ruff: noqa - written the way small models write it; a sample, not project code
import glob

lines = [line for f in glob.glob("*.txt") for line in open(f) if "milk" in line.lower()]
print(len(lines), "lines mention milk.")
