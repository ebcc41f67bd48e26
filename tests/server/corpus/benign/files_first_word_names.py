# Which text files do I have, without their extensions?
# ruff: noqa - written the way small models write it; a sample, not project code
import os

stems = []
for name in sorted(os.listdir(".")):
    if name.endswith(".txt"):
        stems.append(os.path.basename(name)[:-4].split(".")[0])
print("Your text files:", ", ".join(stems))
