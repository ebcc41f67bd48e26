# Turn each text file into a markdown file with a title.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

made = []
for name in sorted(os.listdir(".")):
    if name.endswith(".txt"):
        root = os.path.splitext(name)[0]
        with open(name) as src, open(root.replace("_", "-") + "-page.md", "w") as dst:
            dst.write("# " + root + "\n\n" + src.read())
        made.append(root + "-page.md")
print("Made", len(made), "markdown files")
