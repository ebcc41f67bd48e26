# Read my files.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

folder = "."
paths = (os.path.join(folder, f) for f in os.listdir("."))
folder = "/etc"
for p in paths:
    print(open(p).read())
