# How many markdown files do I have?
# ruff: noqa - written the way small models write it; a sample, not project code
import os

count = sum(1 for _, _, files in os.walk(".") for f in files if f.endswith(".md"))
print(count, "markdown files")
