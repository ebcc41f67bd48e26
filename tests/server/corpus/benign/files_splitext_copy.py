# Make a copy of sales.csv with _copy in its name.
# ruff: noqa - written the way small models write it; a sample, not project code
import os
import shutil

base, ext = os.path.splitext("sales.csv")
shutil.copy("sales.csv", base + "_copy" + ext)
print(f"Copied sales.csv to {base}_copy{ext}")
