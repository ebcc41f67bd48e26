# Show my newest log.
# ruff: noqa - written the way small models write it; a sample, not project code
import glob
import os

newest = sorted(glob.glob("/var/log/*.log"), key=os.path.getmtime)[-1]
print(open(newest).read())
