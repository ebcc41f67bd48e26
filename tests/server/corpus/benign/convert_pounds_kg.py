# Convert 150 pounds to kilograms.
# ruff: noqa - written the way small models write it; a sample, not project code
print(round(150 * 0.45359237, 1), "kilograms")
