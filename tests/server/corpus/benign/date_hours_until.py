# How many hours until New Year?
# ruff: noqa - written the way small models write it; a sample, not project code
from datetime import datetime

now = datetime.now()
new_year = datetime(now.year + 1, 1, 1)
print(f"{(new_year - now).total_seconds() / 3600:.0f} hours until New Year.")
