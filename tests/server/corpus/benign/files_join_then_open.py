# Print every text file in my folder.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

folder = "."
txt_files = [os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".txt")]
for path in txt_files:
    with open(path, "r") as fh:
        print(path, len(fh.read()), "characters")
