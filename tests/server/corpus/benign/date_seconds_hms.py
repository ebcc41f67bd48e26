# How long is 10000 seconds?
# ruff: noqa - written the way small models write it; a sample, not project code
seconds = 10000
h, rem = divmod(seconds, 3600)
m, s = divmod(rem, 60)
print(f"{h} hours, {m} minutes and {s} seconds")
