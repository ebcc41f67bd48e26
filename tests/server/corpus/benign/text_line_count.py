# How many lines does my log have?
# ruff: noqa - written the way small models write it; a sample, not project code
with open("log.txt", "r") as f:
    print("The log has", len(f.readlines()), "lines.")
