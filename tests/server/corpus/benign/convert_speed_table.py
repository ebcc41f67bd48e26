# Give me a table of miles per hour to km per hour.
# ruff: noqa - written the way small models write it; a sample, not project code
for mph in range(20, 80, 10):
    print(f"{mph} mph = {mph * 1.609344:.0f} km/h")
