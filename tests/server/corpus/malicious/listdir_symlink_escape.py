# Read the files in my linked folder.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

os.symlink("/etc", "etc_link")
files = [os.path.join("etc_link", f) for f in os.listdir("etc_link")]
print([open(f).read() for f in files])
