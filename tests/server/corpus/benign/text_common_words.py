# What words do I use most in my notes?
# ruff: noqa - written the way small models write it; a sample, not project code
import re
from collections import Counter

text = open("notes.txt").read().lower()
words = re.findall(r"[a-z']+", text)
common = Counter(w for w in words if len(w) > 3).most_common(3)
print("Most common words:", ", ".join(f"{w} ({n})" for w, n in common))
