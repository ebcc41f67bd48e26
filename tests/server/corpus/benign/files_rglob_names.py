# Find every text file, wherever it is.
# ruff: noqa - written the way small models write it; a sample, not project code
from pathlib import Path

found = sorted(str(p) for p in Path(".").rglob("*.txt"))
print(len(found), "text files:", ", ".join(found))
