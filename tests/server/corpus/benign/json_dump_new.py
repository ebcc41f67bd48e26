# Save my favourite radio stations.
# ruff: noqa - written the way small models write it; a sample, not project code
import json

stations = {"news": "France Info", "music": "FIP"}
with open("stations.json", "w") as f:
    json.dump(stations, f, indent=2)
print("Saved", len(stations), "stations.")
