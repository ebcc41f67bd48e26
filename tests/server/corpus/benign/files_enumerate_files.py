# Number my text files.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

txt_files = sorted(f for f in os.listdir(".") if f.endswith(".txt"))
for i, name in enumerate(txt_files, 1):
    size = os.path.getsize(name)
    print(f"{i}. {name} ({size} bytes)")
