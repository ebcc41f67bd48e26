# Save how long 125 minutes is, and how many lines my notes have, each in a file named after it.
# ruff: noqa - written the way small models write it; a sample, not project code
hours, minutes = divmod(125, 60)
with open(f"time_{hours}h{minutes:02d}.txt", "w") as f:
    f.write(f"{hours} hours and {minutes} minutes")
lines = sum(1 for _ in open("notes.txt"))
names = ["notes", "todo"]
for i in range(len(names)):
    with open(f"{names[i]}_{lines}.txt", "w") as f:
        f.write(str(lines))
print(hours, minutes, lines)
