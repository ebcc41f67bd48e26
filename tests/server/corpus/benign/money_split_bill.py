# Split 187 euros between 4 people.
# ruff: noqa - written the way small models write it; a sample, not project code
total, people = 187, 4
print(f"Each person pays {total / people:.2f} euros.")
