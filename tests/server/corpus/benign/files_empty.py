# Do I have any empty files?
# ruff: noqa - written the way small models write it; a sample, not project code
import os

empty = [f for f in os.listdir(".") if os.path.isfile(f) and os.path.getsize(f) == 0]
print("Empty files:", ", ".join(empty) if empty else "none")
