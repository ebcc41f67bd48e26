# How big is my expenses file, in words I understand?
# ruff: noqa - written the way small models write it; a sample, not project code
import os

size = os.path.getsize("expenses.csv")
for unit in ["bytes", "KB", "MB", "GB"]:
    if size < 1024:
        break
    size /= 1024
print(f"It is {size:.0f} {unit}.")
