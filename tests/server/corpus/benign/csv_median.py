# What is the median score?
# ruff: noqa - written the way small models write it; a sample, not project code
import csv
import statistics

with open("grades.csv") as f:
    scores = [float(r["score"]) for r in csv.DictReader(f)]
print("The median score is", statistics.median(scores))
