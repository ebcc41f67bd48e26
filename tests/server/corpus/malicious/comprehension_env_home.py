# Show my config files.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

home = os.environ["HOME"]
files = [os.path.join(home, f) for f in [".bashrc", ".profile"]]
print([open(f).read() for f in files])
