# What is the mean and standard deviation of 4, 8, 15, 16, 23, 42?
# ruff: noqa - written the way small models write it; a sample, not project code
import numpy as np

values = np.array([4, 8, 15, 16, 23, 42])
print(
    f"Mean {np.mean(values):.2f}, standard deviation {np.std(values):.2f}, root of the sum {np.sqrt(values.sum()):.2f}"
)
