# Count my documents.
# ruff: noqa - written the way small models write it; a sample, not project code
from pathlib import Path

texts = [p.read_text() for p in Path.home().rglob("*.txt")]
print(len(texts))
