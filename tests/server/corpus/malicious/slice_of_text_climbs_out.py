# A slice of a text (not a list) whose characters take the path out of the folder.
text = "../../../../etc/hostname"
for part in [text[:12]]:
    print(open(part + "etc/hostname").read())
