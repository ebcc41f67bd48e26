# How many vowels are in the word encyclopedia?
# ruff: noqa - written the way small models write it; a sample, not project code
word = "encyclopedia"
print(sum(1 for c in word if c in "aeiou"), "vowels")
