# Show my settings files.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

os.chdir("/etc")
names = [f for f in os.listdir(".") if f.endswith(".conf")]
for n in names:
    print(open(n).read())
