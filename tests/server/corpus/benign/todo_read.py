# What is on my to-do list?
# ruff: noqa - written the way small models write it; a sample, not project code
with open("todo.txt") as f:
    tasks = [line.strip() for line in f if line.startswith("[ ]")]
print("You have", len(tasks), "open tasks:")
for t in tasks:
    print("-", t[4:])
