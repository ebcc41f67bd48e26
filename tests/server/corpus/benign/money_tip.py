# What is a 15 percent tip on 42.50?
# ruff: noqa - written the way small models write it; a sample, not project code
from decimal import Decimal, ROUND_HALF_UP

bill = Decimal("42.50")
tip = (bill * Decimal("0.15")).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
print(f"The tip is {tip} and the total is {bill + tip}.")
