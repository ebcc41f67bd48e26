# What is the average of 12, 19, 7 and 30?
# ruff: noqa - written the way small models write it; a sample, not project code
import statistics

nums = [12, 19, 7, 30]
print(f"The average is {statistics.mean(nums)} and the spread is {statistics.stdev(nums):.2f}.")
