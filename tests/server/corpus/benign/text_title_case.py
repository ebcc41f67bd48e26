# Make my shopping list look nice.
# ruff: noqa - written the way small models write it; a sample, not project code
import string

with open("shopping.txt") as f:
    items = [string.capwords(line.strip()) for line in f if line.strip()]
print(", ".join(items))
