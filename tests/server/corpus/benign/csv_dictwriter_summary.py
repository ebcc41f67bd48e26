# Write a summary of my grades to a new file.
# ruff: noqa - written the way small models write it; a sample, not project code
import csv

with open("grades.csv") as f:
    rows = list(csv.DictReader(f))
with open("grade_summary.csv", "w", newline="") as out:
    writer = csv.DictWriter(out, fieldnames=["name", "passed"])
    writer.writeheader()
    for r in rows:
        writer.writerow({"name": r["name"], "passed": int(r["score"]) >= 70})
print("Wrote grade_summary.csv")
