# Make an index of my files with their sizes.
# ruff: noqa - written the way small models write it; a sample, not project code
import json
import os

index = {f: os.path.getsize(f) for f in os.listdir(".") if os.path.isfile(f)}
with open("index.json", "w") as out:
    json.dump(index, out, indent=1)
print("Indexed", len(index), "files.")
