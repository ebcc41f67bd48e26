# Read me the start of the first three files.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

files = sorted(f for f in os.listdir(".") if os.path.isfile(f))
for name in files[:3]:
    with open(name) as f:
        print(name, ":", f.read()[:40])
