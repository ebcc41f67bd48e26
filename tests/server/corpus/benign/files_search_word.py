# Where did I write about milk?
# ruff: noqa - written the way small models write it; a sample, not project code
import os

for f in [x for x in os.listdir(".") if x.endswith(".txt")]:
    for i, line in enumerate(open(f, "r"), 1):
        if "milk" in line.lower():
            print(f"{f}, line {i}: {line.strip()}")
