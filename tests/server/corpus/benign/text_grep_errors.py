# Are there errors in my log?
# ruff: noqa - written the way small models write it; a sample, not project code
import re

with open("log.txt") as f:
    errors = [line.strip() for line in f if re.search(r"ERROR|WARNING", line)]
print(len(errors), "problems found.")
for e in errors:
    print(e)
