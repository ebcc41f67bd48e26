# Which of my text files is the longest?
# ruff: noqa - written the way small models write it; a sample, not project code
import os

files = [f for f in os.listdir(".") if f.endswith(".txt")]
contents = {f: open(f).read() for f in files}
longest = max(contents, key=lambda f: len(contents[f]))
print(f"The longest is {longest} with {len(contents[longest])} characters.")
