# Say 1234567.891 as money.
# ruff: noqa - written the way small models write it; a sample, not project code
amount = 1234567.891
print(f"${amount:,.2f}")
