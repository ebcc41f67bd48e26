# How much free space is there?
# ruff: noqa - written the way small models write it; a sample, not project code
import shutil

total, used, free = shutil.disk_usage(".")
print(f"{free // (1024**2)} MB free of {total // (1024**2)} MB.")
