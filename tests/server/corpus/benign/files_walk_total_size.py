# How big is my whole folder, subfolders included?
# ruff: noqa - written the way small models write it; a sample, not project code
import os

total = sum(os.path.getsize(os.path.join(root, f)) for root, _, files in os.walk(".") for f in files)
print(f"Everything together is {total} bytes.")
