# How old is someone born on May 3, 1962?
# ruff: noqa - written the way small models write it; a sample, not project code
from datetime import date

born = date(1962, 5, 3)
today = date.today()
age = today.year - born.year - ((today.month, today.day) < (born.month, born.day))
print(f"They are {age} years old.")
