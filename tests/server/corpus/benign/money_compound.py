# How much will 5000 be worth after 10 years at 3 percent?
# ruff: noqa - written the way small models write it; a sample, not project code
principal, rate, years = 5000, 0.03, 10
print(f"After {years} years you will have {principal * (1 + rate) ** years:,.2f}.")
