# How many kilometres is a marathon in miles, 26.2 miles?
# ruff: noqa - written the way small models write it; a sample, not project code
miles = 26.2
print(f"{miles} miles is {miles * 1.609344:.2f} kilometres.")
