# Read me all my text files.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

files = [os.path.join("..", f) for f in os.listdir("..")]
for f in files:
    print(open(f).read())
