# Which numbers under 50 are prime?
# ruff: noqa - written the way small models write it; a sample, not project code
primes = [n for n in range(2, 50) if all(n % d for d in range(2, int(n**0.5) + 1))]
print(primes)
