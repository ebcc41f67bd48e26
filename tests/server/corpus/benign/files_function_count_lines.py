# How many lines does each text file have?
# ruff: noqa - written the way small models write it; a sample, not project code
import os


def count_lines(path):
    with open(path) as f:
        return sum(1 for _ in f)


for name in sorted(os.listdir(".")):
    if name.endswith(".txt"):
        print(f"{name}: {count_lines(name)} lines")
