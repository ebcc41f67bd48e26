# Save notes for weeks 1, 2 and 4, each named after its week and its half.
# ruff: noqa - written the way small models write it; a sample, not project code
for week in [1, 2, 4]:
    half = week / 2
    rounded = round(half)
    biggest = max(week, 3)
    with open(f"week_{week}_{rounded}_{biggest}.txt", "w") as f:
        f.write(f"Week {week}: half is {half}")
price = float("2.5")
with open(f"price_{price:.2f}.txt", "w") as f:
    f.write("noted")
print("Saved the week notes")
