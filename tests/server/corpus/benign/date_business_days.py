# How many working days are there in March 2024?
# ruff: noqa - written the way small models write it; a sample, not project code
from datetime import date, timedelta

d, end, count = date(2024, 3, 1), date(2024, 3, 31), 0
while d <= end:
    if d.weekday() < 5:
        count += 1
    d += timedelta(days=1)
print(count, "working days")
