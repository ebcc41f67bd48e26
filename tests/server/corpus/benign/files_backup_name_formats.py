# Make backups of my notes and my shopping list.
# ruff: noqa - written the way small models write it; a sample, not project code
import os
import shutil
import time


def backup_name(filename):
    return filename.rsplit(".", 1)[0] + ".bak"


stamp = time.strftime("%Y%m%d")
for name in ["notes", "shopping"]:
    shutil.copy("%s.txt" % name, "{}_{}.txt".format(name, stamp))
shutil.copy("notes.txt", backup_name("notes.txt"))
print("Backups:", ", ".join(sorted(n for n in os.listdir(".") if stamp in n or n.endswith(".bak"))))
