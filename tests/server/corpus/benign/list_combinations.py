# How many ways can I pick 2 of my 5 friends?
# ruff: noqa - written the way small models write it; a sample, not project code
import itertools

friends = ["Ana", "Ben", "Cleo", "Dan", "Eve"]
pairs = list(itertools.combinations(friends, 2))
print(len(pairs), "ways, for example", " and ".join(pairs[0]))
