# Set the volume to 4 in my settings.
# ruff: noqa - written the way small models write it; a sample, not project code
import json

with open("settings.json") as f:
    config = json.load(f)
config["volume"] = 4
with open("settings.json", "w") as f:
    json.dump(config, f)
print("The volume is now 4.")
