# How many tasks have I finished?
# ruff: noqa - written the way small models write it; a sample, not project code
lines = open("todo.txt").read().splitlines()
done = sum(1 for l in lines if l.startswith("[x]"))
print(f"You finished {done} of {len(lines)} tasks.")
