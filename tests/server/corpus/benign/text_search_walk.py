# Which files mention the fence?
# ruff: noqa - written the way small models write it; a sample, not project code
import os

for root, dirs, files in os.walk("."):
    for name in files:
        path = os.path.join(root, name)
        with open(path, errors="ignore") as fh:
            if "fence" in fh.read():
                print(path)
