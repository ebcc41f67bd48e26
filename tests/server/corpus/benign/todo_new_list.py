# Start a packing list with socks, charger and passport.
# ruff: noqa - written the way small models write it; a sample, not project code
items = ["socks", "charger", "passport"]
with open("packing.txt", "w") as f:
    for item in items:
        f.write(item + "\n")
print("Your packing list has", len(items), "items.")
