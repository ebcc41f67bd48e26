# Over how many days does my log go?
# ruff: noqa - written the way small models write it; a sample, not project code
from datetime import datetime

with open("log.txt") as f:
    stamps = [datetime.strptime(line[:19], "%Y-%m-%d %H:%M:%S") for line in f if line.strip()]
print(f"The log covers {(max(stamps) - min(stamps)).days + 1} days.")
