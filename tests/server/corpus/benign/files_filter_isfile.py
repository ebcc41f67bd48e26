# List only the files, not the folders.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

files = list(filter(os.path.isfile, os.listdir(".")))
print(", ".join(sorted(files)))
