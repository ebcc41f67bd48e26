# Pick a random dinner idea.
# ruff: noqa - written the way small models write it; a sample, not project code
import random

ideas = ["pasta", "curry", "soup", "tacos"]
print("Tonight:", random.choice(ideas))
