# Make a backup of my shopping list with today's date in the name.
# ruff: noqa - written the way small models write it; a sample, not project code
import datetime

name = "shopping_backup_" + datetime.datetime.now().strftime("%Y%m%d") + ".txt"
with open("shopping.txt") as src, open(name, "w") as dst:
    dst.write(src.read())
print("Backed up to", name)
