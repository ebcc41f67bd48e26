# Split my shopping list into one file per item.
# ruff: noqa - written the way small models write it; a sample, not project code
items = ["milk", "bread", "eggs"]
for n, item in enumerate(items):
    with open("item_" + str(n + 1) + ".txt", "w") as f:
        f.write(item)
print("Wrote", len(items), "files")
