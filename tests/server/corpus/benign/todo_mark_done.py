# Mark the garage task as done.
# ruff: noqa - written the way small models write it; a sample, not project code
with open("todo.txt") as f:
    lines = f.readlines()
lines = [l.replace("[ ]", "[x]") if "garage" in l else l for l in lines]
with open("todo.txt", "w") as f:
    f.writelines(lines)
print("Marked the garage task as done.")
