# Save a summary of how many notes I have, with the count in the file name.
# ruff: noqa - written the way small models write it; a sample, not project code
import os

notes = [f for f in os.listdir(".") if f.endswith(".txt")]
n = len(notes)
with open(f"summary_{n}_notes.txt", "w") as f:
    f.write("\n".join(notes))
print("Saved the summary of", n, "notes")
