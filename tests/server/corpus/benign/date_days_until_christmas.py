# How many days until Christmas?
# ruff: noqa - written the way small models write it; a sample, not project code
from datetime import date

today = date.today()
christmas = date(today.year, 12, 25)
if christmas < today:
    christmas = date(today.year + 1, 12, 25)
print(f"{(christmas - today).days} days until Christmas.")
