# Make three page files, then read the first two back to me.
# ruff: noqa - written the way small models write it; a sample, not project code
for i in range(1, 4):
    with open(f"page_{i}.txt", "w") as f:
        f.write(f"Page {i}")
for i in range(1, 3):
    with open(f"page_{i}.txt") as f:
        print(f.read())
