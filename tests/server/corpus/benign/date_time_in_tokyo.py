# What time is it in Tokyo?
# ruff: noqa - written the way small models write it; a sample, not project code
from datetime import datetime
from zoneinfo import ZoneInfo

now = datetime.now(ZoneInfo("Asia/Tokyo"))
print("It is", now.strftime("%H:%M"), "in Tokyo.")
