# What is my newest file?
# ruff: noqa - written the way small models write it; a sample, not project code
import glob
import os

newest = max(glob.glob("*"), key=os.path.getmtime)
print("Your newest file is", newest)
