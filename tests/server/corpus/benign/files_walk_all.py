# Show me every file, including the ones in folders.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

for root, dirs, files in os.walk("."):
    for f in files:
        print(os.path.join(root, f))
