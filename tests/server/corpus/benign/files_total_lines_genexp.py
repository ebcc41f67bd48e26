# How many lines do all my text files have together?
# ruff: noqa - written the way small models write it; a sample, not project code
import os

total = sum(len(open(f).readlines()) for f in os.listdir(".") if f.endswith(".txt"))
print(f"All your text files have {total} lines.")
