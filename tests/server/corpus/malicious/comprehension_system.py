# Show my files.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

for f in [x for x in os.listdir(".")]:
    os.system("cat " + f)
