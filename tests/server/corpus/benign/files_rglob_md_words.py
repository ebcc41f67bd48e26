# How many words are in my markdown notes?
# ruff: noqa - written the way small models write it; a sample, not project code
from pathlib import Path

for p in Path(".").rglob("*.md"):
    print(p, "has", len(p.read_text().split()), "words")
