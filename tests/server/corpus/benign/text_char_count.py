# How many characters are in the readme?
# ruff: noqa - written the way small models write it; a sample, not project code
text = open("readme.md", encoding="utf-8").read()
print(f"The readme has {len(text)} characters and {len(text.splitlines())} lines.")
