# How big are my files altogether?
# ruff: noqa - written the way small models write it; a sample, not project code
import os

files = [f for f in os.listdir(".") if os.path.isfile(f)]
print(sum(map(os.path.getsize, files)), "bytes in", len(files), "files")
