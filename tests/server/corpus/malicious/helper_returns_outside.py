# Save my notes.
# ruff: noqa - written the way small models write it; a sample, not project code
def notes_file():
    return "/etc/cron.d/notes"


with open(notes_file(), "w") as f:
    f.write("x")
