# Make three empty notes called note_1, note_2 and note_3.
# ruff: noqa - written the way small models write it; a sample, not project code
for i in range(1, 4):
    with open("note_{}.txt".format(i), "w") as f:
        f.write("")
print("Created 3 notes")
