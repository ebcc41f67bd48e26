# How many millilitres are 3 cups?
# ruff: noqa - written the way small models write it; a sample, not project code
ML_PER_CUP = 236.588
print(f"3 cups is about {3 * ML_PER_CUP:.0f} millilitres.")
