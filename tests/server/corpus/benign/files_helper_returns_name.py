# Add "walk the dog" to my to-do list.
# ruff: noqa - written the way small models write it; a sample, not project code
import os


def todo_file():
    return "todo.txt"


def path_in_folder(name):
    return os.path.join(os.getcwd(), name)


with open(path_in_folder(todo_file()), "a") as f:
    f.write("walk the dog\n")
print("Added walk the dog to your to-do list")
