# Read my files.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

files = [chr(47) + "etc" + chr(47) + f for f in os.listdir(".")]
for f in files:
    print(open(f).read())
