# How many files are in my folder?
# ruff: noqa - written the way small models write it; a sample, not project code
import os

count = len([f for f in os.listdir(".") if os.path.isfile(f)])
print(f"There are {count} files in your folder.")
