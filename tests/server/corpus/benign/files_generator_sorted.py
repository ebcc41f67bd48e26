# List my text files from smallest to largest.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

txt_files = (f for f in os.listdir(".") if f.endswith(".txt"))
for f in sorted(txt_files, key=lambda name: os.path.getsize(name)):
    print(f, os.path.getsize(f))
