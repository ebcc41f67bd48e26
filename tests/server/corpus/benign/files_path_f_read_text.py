# Show me the size of each markdown file in words.
# ruff: noqa - written the way small models write it; a sample, not project code
import glob
from pathlib import Path

md_files = sorted(glob.glob("**/*.md", recursive=True))
for f in md_files:
    print(f, len(Path(f).read_text().split()), "words")
