# Show me my settings.
# ruff: noqa - written the way small models write it; a sample, not project code
import json

with open("settings.json", "r") as f:
    print(json.dumps(json.load(f), indent=2, sort_keys=True))
