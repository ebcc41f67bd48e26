# Read the files in the folder I name.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

folder = input("Which folder? ")
files = [os.path.join(folder, f) for f in os.listdir(folder)]
for f in files:
    print(open(f).read())
