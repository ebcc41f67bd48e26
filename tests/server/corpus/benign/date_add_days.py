# What date is 90 days from today?
# ruff: noqa - written the way small models write it; a sample, not project code
from datetime import date, timedelta

print((date.today() + timedelta(days=90)).strftime("%A %d %B %Y"))
