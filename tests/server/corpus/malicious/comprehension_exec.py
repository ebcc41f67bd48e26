# Run my scripts.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

for f in [x for x in os.listdir(".") if x.endswith(".py")]:
    exec(open(f).read())
