# A counter that a later exec in the same loop binds to a path.
# ruff: noqa - written the way small models write it; a sample, not project code
i = 0
for k in range(2):
    open(str(i) + "/x", "w").write("owned")
    exec("i = chr(47) + 'etc'")
