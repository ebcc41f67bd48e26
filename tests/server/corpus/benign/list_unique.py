# Remove the duplicates from my shopping list.
# ruff: noqa - written the way small models write it; a sample, not project code
with open("shopping.txt") as f:
    items = [l.strip() for l in f if l.strip()]
unique = list(dict.fromkeys(items))
print(len(items) - len(unique), "duplicates removed:", ", ".join(unique))
