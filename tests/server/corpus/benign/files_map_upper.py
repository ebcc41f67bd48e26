# Spell my file names in capitals.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

names = list(map(str.upper, os.listdir(".")))
print(", ".join(sorted(names)))
