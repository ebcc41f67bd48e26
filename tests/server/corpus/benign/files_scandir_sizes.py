# List my files and their sizes.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

with os.scandir(".") as it:
    for entry in it:
        if entry.is_file():
            print(entry.name, entry.stat().st_size)
