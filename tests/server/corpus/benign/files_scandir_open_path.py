# Read the first line of each text file.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

entries = [e for e in os.scandir(".") if e.is_file() and e.name.endswith(".txt")]
for e in entries:
    with open(e.path) as fh:
        print(e.name, "->", fh.readline().strip())
