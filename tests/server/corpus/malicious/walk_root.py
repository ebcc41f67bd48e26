# Find every text file.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

for root, dirs, files in os.walk("/"):
    for f in files:
        if f.endswith(".txt"):
            print(open(os.path.join(root, f)).read()[:80])
