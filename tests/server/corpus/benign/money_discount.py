# A coat costs 120 with 35 percent off. What do I pay?
# ruff: noqa - written the way small models write it; a sample, not project code
price, off = 120, 35
print(f"You pay {price * (100 - off) / 100:.2f}, saving {price * off / 100:.2f}.")
