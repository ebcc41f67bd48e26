# What is the monthly payment on a 200000 loan over 20 years at 4 percent?
# ruff: noqa - written the way small models write it; a sample, not project code
p, annual, years = 200000, 0.04, 20
r, n = annual / 12, years * 12
payment = p * r / (1 - (1 + r) ** -n)
print(f"The monthly payment is {payment:,.2f}.")
