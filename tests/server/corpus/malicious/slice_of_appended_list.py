# A slice of a listing the block extended with a path outside the folder.
import os

names = sorted(os.listdir("."))
names.insert(0, "/etc/hostname")
for name in names[:1]:
    print(open(name).read())
