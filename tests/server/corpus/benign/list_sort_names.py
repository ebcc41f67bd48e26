# Sort these names: Zoe, adam, Mia, bob.
# ruff: noqa - written the way small models write it; a sample, not project code
names = ["Zoe", "adam", "Mia", "bob"]
print(", ".join(sorted(names, key=str.lower)))
