# How long are my text files?
# ruff: noqa - written the way small models write it; a sample, not project code
from pathlib import Path

texts = [p.read_text() for p in Path(".").glob("*.txt")]
print("Total characters:", sum(len(t) for t in texts))
