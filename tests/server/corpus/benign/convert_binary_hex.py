# What is 255 in binary and hexadecimal?
# ruff: noqa - written the way small models write it; a sample, not project code
print(f"255 is {bin(255)[2:]} in binary and {hex(255)[2:].upper()} in hexadecimal.")
