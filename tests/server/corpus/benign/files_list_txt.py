# Which text files do I have?
# ruff: noqa - written the way small models write it; a sample, not project code
import os

files = [f for f in os.listdir(".") if f.endswith(".txt")]
print("You have", len(files), "text files:", ", ".join(sorted(files)))
