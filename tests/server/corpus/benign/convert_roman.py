# Write 1994 in roman numerals.
# ruff: noqa - written the way small models write it; a sample, not project code
values = [
    (1000, "M"),
    (900, "CM"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
]
n, out = 1994, ""
for v, s in values:
    while n >= v:
        out += s
        n -= v
print(out)
