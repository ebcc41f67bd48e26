# Count the words in all my text files, folders included.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

total = 0
for root, _, files in os.walk("."):
    for f in files:
        if f.endswith(".txt"):
            with open(os.path.join(root, f)) as fh:
                total += len(fh.read().split())
print(total, "words")
