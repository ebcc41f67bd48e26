# range() shadowed: its "counter" is a path.
# ruff: noqa - written the way small models write it; a sample, not project code
range = lambda n: ["/etc/cron.d/x"]
for i in range(1):
    open(str(i), "w").write("owned")
