# What did I spend in total according to expenses.csv?
# ruff: noqa - written the way small models write it; a sample, not project code
import csv


def total_amount(filename, column="amount"):
    total = 0.0
    with open(filename, newline="") as f:
        for row in csv.DictReader(f):
            total += float(row[column])
    return total


def main():
    print(f"You spent {total_amount('expenses.csv'):.2f} in total.")


main()
