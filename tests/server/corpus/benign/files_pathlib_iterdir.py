# List my files with their sizes.
# ruff: noqa - written the way small models write it; a sample, not project code
from pathlib import Path

for p in sorted(Path(".").iterdir()):
    if p.is_file():
        print(p.name, p.stat().st_size, "bytes")
