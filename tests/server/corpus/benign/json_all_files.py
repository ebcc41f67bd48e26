# What keys do my JSON files have?
# ruff: noqa - written the way small models write it; a sample, not project code
import json
import os

for f in [n for n in os.listdir(".") if n.endswith(".json")]:
    with open(f) as fh:
        data = json.load(fh)
    keys = list(data.keys()) if isinstance(data, dict) else [f"{len(data)} entries"]
    print(f, keys)
