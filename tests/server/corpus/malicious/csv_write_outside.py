# Save my steps.
# ruff: noqa - written the way small models write it; a sample, not project code
import csv

with open("/tmp/../etc/steps.csv", "w", newline="") as f:
    csv.writer(f).writerow(["day", "steps"])
