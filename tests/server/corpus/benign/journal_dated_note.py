# Start today's journal entry: walked the dog.
# ruff: noqa - written the way small models write it; a sample, not project code
from datetime import date

today = date.today()
fname = f"journal_{today:%Y_%m_%d}.txt"
with open(fname, "a") as f:
    f.write("Walked the dog\n")
print("Saved to", fname)
