# What kinds of files do I have?
# ruff: noqa - written the way small models write it; a sample, not project code
import os
from collections import Counter

kinds = Counter(os.path.splitext(f)[1] or "no extension" for f in os.listdir(".") if os.path.isfile(f))
for ext, n in kinds.most_common():
    print(ext, n)
