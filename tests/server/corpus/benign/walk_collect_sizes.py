# How big is each file in my folder, subfolders too?
# ruff: noqa - written the way small models write it; a sample, not project code
import os

paths = []
for root, dirs, names in os.walk("."):
    for name in names:
        paths.append(os.path.join(root, name))
for p in paths:
    print(p, os.path.getsize(p), "bytes")
