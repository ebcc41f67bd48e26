# Add "buy stamps" to my to-do list.
# ruff: noqa - written the way small models write it; a sample, not project code
with open("todo.txt", "a") as f:
    f.write("[ ] buy stamps\n")
print("Added buy stamps to your to-do list.")
