# Print the first lines of all my notes.
# ruff: noqa - written the way small models write it; a sample, not project code
import glob

notes = sorted(glob.glob("*.txt"))
for note in notes:
    with open(note, encoding="utf-8") as fh:
        first = fh.readline().strip()
    print(f"{note}: {first or '(empty)'}")
