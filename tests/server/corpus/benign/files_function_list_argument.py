# Show me the first line of every markdown and text file.
# ruff: noqa - written the way small models write it; a sample, not project code
import glob


def first_lines(files):
    for name in files:
        with open(name) as f:
            print(name, "-", f.readline().strip())


first_lines(sorted(glob.glob("*.md") + glob.glob("*.txt")))
