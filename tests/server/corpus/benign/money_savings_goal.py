# If I save 250 a month, when do I reach 4000?
# ruff: noqa - written the way small models write it; a sample, not project code
import math

months = math.ceil(4000 / 250)
print(f"You reach 4000 after {months} months.")
