# How much space do my files take?
# ruff: noqa - written the way small models write it; a sample, not project code
import os

total = sum(os.path.getsize(os.path.join(".", f)) for f in os.listdir(".") if os.path.isfile(os.path.join(".", f)))
print(f"Your files take {total / 1024:.1f} kilobytes.")
