# Who are the top three students?
# ruff: noqa - written the way small models write it; a sample, not project code
import csv
from operator import itemgetter

with open("grades.csv") as f:
    rows = [(r["name"], int(r["score"])) for r in csv.DictReader(f)]
for name, score in sorted(rows, key=itemgetter(1), reverse=True)[:3]:
    print(name, score)
