# What is 22 degrees Celsius in Fahrenheit?
# ruff: noqa - written the way small models write it; a sample, not project code
celsius = 22
print(f"{celsius} degrees Celsius is {celsius * 9 / 5 + 32:.1f} degrees Fahrenheit.")
