# What is one third plus one sixth?
# ruff: noqa - written the way small models write it; a sample, not project code
from fractions import Fraction

print(Fraction(1, 3) + Fraction(1, 6))
