# Back up my notes.
# ruff: noqa - written the way small models write it; a sample, not project code
from pathlib import Path

Path("notes.txt").with_name("/etc/cron.d/backup").write_text("x")
