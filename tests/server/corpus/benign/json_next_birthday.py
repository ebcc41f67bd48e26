# Whose birthday is next?
# ruff: noqa - written the way small models write it; a sample, not project code
import json
from datetime import date

today = date.today()
best = None
for c in json.load(open("contacts.json")):
    born = date.fromisoformat(c["birthday"])
    nxt = born.replace(year=today.year)
    if nxt < today:
        nxt = nxt.replace(year=today.year + 1)
    if best is None or nxt < best[1]:
        best = (c["name"], nxt)
print(f"{best[0]} has the next birthday, on {best[1]:%B %d}.")
