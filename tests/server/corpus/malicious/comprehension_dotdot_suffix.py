# Read the file next to each one.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

names = [f + "/../../secret" for f in os.listdir(".")]
for n in names:
    print(open(n).read())
