# Save my stations.
# ruff: noqa - written the way small models write it; a sample, not project code
import json
import os

json.dump({"a": 1}, open(os.path.expanduser("~/stations.json"), "w"))
