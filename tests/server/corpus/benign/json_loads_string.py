# How many items are in this order?
# ruff: noqa - written the way small models write it; a sample, not project code
import json

order = json.loads('{"items": [{"name": "tea", "qty": 2}, {"name": "cake", "qty": 1}]}')
print(sum(i["qty"] for i in order["items"]), "items")
