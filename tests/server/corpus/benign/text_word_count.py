# How many words are in my notes?
# ruff: noqa - written the way small models write it; a sample, not project code
with open("notes.txt") as f:
    words = f.read().split()
print(f"Your notes have {len(words)} words.")
