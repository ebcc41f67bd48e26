# Read me the first text file, if there is one.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

files = sorted(f for f in os.listdir(".") if f.endswith(".txt"))
if not files:
    print("There are no text files.")
elif files and len(files) > 0:
    print(files[0], "has", len(open(files[0]).read().splitlines()), "lines")
