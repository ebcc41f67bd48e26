# What is in my docs folder?
# ruff: noqa - written the way small models write it; a sample, not project code
import os

for name in sorted(os.listdir("docs")):
    path = os.path.join("docs", name)
    print(name, os.path.getsize(path), "bytes")
