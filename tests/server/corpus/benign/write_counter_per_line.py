# Put each line of my shopping list into its own numbered file.
# ruff: noqa - written the way small models write it; a sample, not project code
count = 0
with open("shopping.txt") as f:
    for line in f:
        count += 1
        with open("item_%d.txt" % count, "w") as out:
            out.write(line)
print("Wrote", count, "files")
