# What day of the week was July 14, 1989?
# ruff: noqa - written the way small models write it; a sample, not project code
import datetime

d = datetime.date(1989, 7, 14)
print(d.strftime("%A"))
