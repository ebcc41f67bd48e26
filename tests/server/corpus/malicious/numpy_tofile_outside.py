# Save my numbers.
# ruff: noqa - written the way small models write it; a sample, not project code
import numpy as np

np.arange(10).tofile("/tmp/../etc/numbers.bin")
