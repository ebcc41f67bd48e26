# Which files did I change most recently?
# ruff: noqa - written the way small models write it; a sample, not project code
import os

files = sorted(os.listdir("."), key=os.path.getmtime, reverse=True)
print("Most recent:", ", ".join(files[:3]))
