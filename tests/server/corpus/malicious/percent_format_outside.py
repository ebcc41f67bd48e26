# Back up my notes.
# ruff: noqa - written the way small models write it; a sample, not project code
import shutil

shutil.copy("notes.txt", "%s/%s" % ("/etc", "notes.txt"))
