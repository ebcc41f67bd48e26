# Read everything in my docs folder.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

for name in sorted(os.listdir("docs")):
    with open(os.path.join("docs", name)) as fh:
        print(f"--- {name} ---")
        print(fh.read())
