# A number padded with slashes names a file at the root.
# ruff: noqa - written the way small models write it; a sample, not project code
for i in range(1):
    open(str(i).rjust(3, "/") + ".txt", "w").write("owned")
