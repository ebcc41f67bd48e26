# Make a backup copy of my notes.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

for f in [x for x in os.listdir(".") if x == "notes.txt"]:
    with open(f) as src, open(f + ".bak", "w") as dst:
        dst.write(src.read())
print("Backup saved as notes.txt.bak")
