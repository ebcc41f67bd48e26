# What is my biggest file?
# ruff: noqa - written the way small models write it; a sample, not project code
import os

sizes = {f: os.path.getsize(f) for f in os.listdir(".") if os.path.isfile(f)}
biggest = max(sizes, key=sizes.get)
print(f"The biggest file is {biggest} with {sizes[biggest]} bytes.")
