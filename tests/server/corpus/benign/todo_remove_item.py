# Take eggs off my shopping list.
# ruff: noqa - written the way small models write it; a sample, not project code
from pathlib import Path

path = Path("shopping.txt")
items = [i for i in path.read_text().splitlines() if i.strip() != "eggs"]
path.write_text("\n".join(items) + "\n")
print("Removed eggs. Still on the list:", ", ".join(items))
