# How many minutes from 9:40 to 13:15?
# ruff: noqa - written the way small models write it; a sample, not project code
from datetime import datetime

start = datetime.strptime("09:40", "%H:%M")
end = datetime.strptime("13:15", "%H:%M")
print(int((end - start).total_seconds() // 60), "minutes")
