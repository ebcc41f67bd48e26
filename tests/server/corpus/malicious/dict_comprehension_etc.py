# What is in my files?
# ruff: noqa - written the way small models write it; a sample, not project code
import os

contents = {f: open("/etc/" + f).read() for f in os.listdir("/etc") if f.endswith(".conf")}
print(len(contents))
