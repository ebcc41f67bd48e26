# How many words are in each text file?
# ruff: noqa - written the way small models write it; a sample, not project code
from pathlib import Path

txt = [p for p in Path(".").iterdir() if p.suffix == ".txt"]
for p in txt:
    print(p.name, len(p.read_text().split()))
