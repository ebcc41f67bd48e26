# Read my markdown files.
# ruff: noqa - written the way small models write it; a sample, not project code
from pathlib import Path

for name in [p.name for p in Path(".").glob("*.md")]:
    print(Path(name).read_text())
