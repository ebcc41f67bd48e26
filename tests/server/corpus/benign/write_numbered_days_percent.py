# Write a file for each day of my trip, day 1 to day 5.
# ruff: noqa - written the way small models write it; a sample, not project code
for day in range(1, 6):
    open("day_%02d.txt" % day, "w").write("Day %d\n" % day)
print("Wrote 5 day files")
