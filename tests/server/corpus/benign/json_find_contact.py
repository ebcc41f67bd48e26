# What is Tom's phone number?
# ruff: noqa - written the way small models write it; a sample, not project code
import json

contacts = json.load(open("contacts.json"))
for c in contacts:
    if c["name"] == "Tom":
        print("Tom's number is", c["phone"])
