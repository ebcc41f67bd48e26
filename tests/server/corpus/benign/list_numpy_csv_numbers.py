# What is the average price in the sales file?
# ruff: noqa - written the way small models write it; a sample, not project code
import csv
import numpy as np

with open("sales.csv") as f:
    prices = np.array([float(r["price"]) for r in csv.DictReader(f)])
print(f"The average price is {prices.mean():.2f}, from {prices.min()} to {prices.max()}.")
