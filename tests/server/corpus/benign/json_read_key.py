# Which city is in my settings?
# ruff: noqa - written the way small models write it; a sample, not project code
import json

with open("settings.json") as f:
    config = json.load(f)
print("Your city is", config["city"])
