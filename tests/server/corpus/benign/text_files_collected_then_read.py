# Read me all my text files.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

files = []
for f in os.listdir("."):
    if f.endswith(".txt"):
        files.append(f)
for f in sorted(files):
    with open(f) as fh:
        print(f, ":", fh.read().strip())
