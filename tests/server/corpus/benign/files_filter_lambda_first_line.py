# Give me the first line of each text file.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

txt = list(filter(lambda f: f.endswith(".txt"), os.listdir(".")))
for f in txt:
    with open(f) as fh:
        print(f, ":", fh.readline().strip())
