# What is the average grade?
# ruff: noqa - written the way small models write it; a sample, not project code
import csv

with open("grades.csv") as f:
    scores = [int(row["score"]) for row in csv.DictReader(f)]
print(f"The average grade is {sum(scores) / len(scores):.1f}.")
