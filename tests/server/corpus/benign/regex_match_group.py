# What numbers are in my notes?
# ruff: noqa - written the way small models write it; a sample, not project code
import re

with open("notes.txt") as f:
    text = f.read()
numbers = [m.group(0) for m in re.finditer(r"\d+", text)]
first = re.search(r"(\d+)", text)
print("Numbers:", numbers, "first:", first.group(1) if first else None)
