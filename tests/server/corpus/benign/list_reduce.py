# Multiply 2, 3, 4 and 5 together.
# ruff: noqa - written the way small models write it; a sample, not project code
from functools import reduce
import operator

print(reduce(operator.mul, [2, 3, 4, 5]))
