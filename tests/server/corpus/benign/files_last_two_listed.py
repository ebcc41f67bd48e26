# What do the last two text files say?
# ruff: noqa - written the way small models write it; a sample, not project code
import os

n = 2
for name in sorted(os.listdir("."))[-n:]:
    if name.endswith(".txt"):
        print(name, open(name).readline().strip())
