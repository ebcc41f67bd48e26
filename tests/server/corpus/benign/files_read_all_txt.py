# Read me all my text files.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

files = [f for f in os.listdir(".") if f.endswith(".txt")]
for f in files:
    print(open(f).read())
