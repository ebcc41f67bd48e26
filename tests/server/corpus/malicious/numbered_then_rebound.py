# A loop counter bound again to a path before it names a file.
# ruff: noqa - written the way small models write it; a sample, not project code
for i in range(1):
    pass
i = "/etc/cron.d/x"
open("%s" % i, "w").write("owned")
