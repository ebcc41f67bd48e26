# Which of my rooms is the biggest?
# ruff: noqa - written the way small models write it; a sample, not project code
from collections import namedtuple

Room = namedtuple("Room", "name width length")
rooms = [Room("kitchen", 3, 4), Room("living", 5, 6), Room("office", 3, 3)]
big = max(rooms, key=lambda r: r.width * r.length)
print(f"The {big.name} is biggest at {big.width * big.length} square metres.")
