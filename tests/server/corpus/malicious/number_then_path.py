# A name assigned a number, then a path, names a file.
# ruff: noqa - written the way small models write it; a sample, not project code
n = 5
n = "/etc/cron.d/x"
open(f"{n}", "w").write("owned")
