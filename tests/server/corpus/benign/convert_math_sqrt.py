# What is the diagonal of a 3 by 4 metre room?
# ruff: noqa - written the way small models write it; a sample, not project code
import math

print(f"The diagonal is {math.hypot(3, 4):.1f} metres, and the area is {3 * 4} square metres.")
