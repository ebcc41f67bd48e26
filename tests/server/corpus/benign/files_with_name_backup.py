# Back up my notes as notes_old.txt.
# ruff: noqa - written the way small models write it; a sample, not project code
from pathlib import Path

notes = Path("notes.txt")
notes.with_name("notes_old.txt").write_text(notes.read_text())
print("Saved a backup as notes_old.txt")
