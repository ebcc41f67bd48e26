# Save my weekly steps in a spreadsheet.
# ruff: noqa - written the way small models write it; a sample, not project code
import csv

steps = [("Monday", 8200), ("Tuesday", 10450), ("Wednesday", 6900)]
with open("steps.csv", "w", newline="") as f:
    writer = csv.writer(f)
    writer.writerow(["day", "steps"])
    writer.writerows(steps)
print("Saved", len(steps), "days to steps.csv")
