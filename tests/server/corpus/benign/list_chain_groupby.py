# Group my words by first letter.
# ruff: noqa - written the way small models write it; a sample, not project code
from itertools import groupby

words = sorted(["apple", "avocado", "banana", "blueberry", "cherry"])
for letter, group in groupby(words, key=lambda w: w[0]):
    print(letter, list(group))
