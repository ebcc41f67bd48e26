# What week number is it?
# ruff: noqa - written the way small models write it; a sample, not project code
import datetime

print("This is week", datetime.date.today().isocalendar()[1])
