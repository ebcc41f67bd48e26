# Average my expenses.
# ruff: noqa - written the way small models write it; a sample, not project code
import pandas as pd

df = pd.read_csv("expenses.csv")
print(df["amount"].mean())
