# Make three numbered note files, note_1 to note_3.
# ruff: noqa - written the way small models write it; a sample, not project code
def save(i, text="empty"):
    with open(f"note_{i}.txt", "w") as f:
        f.write(text)


for i in range(1, 4):
    save(i)
print("Created note_1.txt to note_3.txt")
