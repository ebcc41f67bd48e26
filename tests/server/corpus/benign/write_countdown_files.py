# Make a countdown: files 3, 2 and 1 saying how many days are left.
# ruff: noqa - written the way small models write it; a sample, not project code
n = 0
for day in reversed(range(1, 4)):
    n = n + 1
    with open(f"countdown_{day}.txt", "w") as f:
        f.write(f"{day} days left ({n})")
print("Made", n, "countdown files")
