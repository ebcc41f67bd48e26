# List my files.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

files = list(filter(os.path.isfile, map(lambda f: os.path.join("/root", f), os.listdir("/root"))))
print(files)
