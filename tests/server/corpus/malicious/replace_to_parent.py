# Rename the text files.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

for name in os.listdir("."):
    open(os.path.join(name.replace(".txt", "."), "keep.txt"), "w").write("x")
