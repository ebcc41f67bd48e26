# Give me the first 10 Fibonacci numbers.
# ruff: noqa - written the way small models write it; a sample, not project code
a, b, out = 0, 1, []
for _ in range(10):
    out.append(a)
    a, b = b, a + b
print(out)
