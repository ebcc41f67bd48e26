"""A value the question names that a folder file's rows are kept by, and code that never keeps them.

"How much did Marta pay in total? It's in gastos_viaje.json" summed every person's rows (everyday dev set):
the question names one value of a file's text column that holds others too, and the block that read the file
never mentions it. :func:`unfiltered_value` finds that case for :func:`.repair.repair_request`, which asks once
more. Only CSV files (any of , ; tab |) and JSON lists of objects are read, through :func:`.folder_prompt.head`.
"""

from __future__ import annotations

import ast
import csv
import json
import re
from pathlib import Path
from typing import Any

from . import i18n
from .folder_prompt import data_field, head, table_delimiter

UNUSED_VALUE = "The question names {value}, and your code does not keep only the rows with it"
"""The start of the one request of a turn whose block read a file without keeping the rows of the value the
question named (:func:`unfiltered_value`)."""
_MAX_ROWS = 500
_NUMBER_OR_DATE = re.compile(r"^[\d\s.,:/€$£%+-]*$")


def _columns(name: str, data: bytes) -> dict[str, set[str]]:
    """Column (or key) -> its text values, of a CSV file or a JSON list of objects; {} for anything else."""
    text = data.decode("utf-8", "replace")
    rows: list[dict[str, Any]] = []
    if name.lower().endswith(".json"):
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            return {}
        rows = [row for row in value if isinstance(row, dict)] if isinstance(value, list) else []
    elif name.lower().endswith((".csv", ".tsv")):
        reader = csv.DictReader(
            text.splitlines(), delimiter=table_delimiter(text, "\t" if name.endswith(".tsv") else ",")
        )
        try:
            rows = [dict(row) for _, row in zip(range(_MAX_ROWS), reader, strict=False)]
        except csv.Error:
            return {}
    columns: dict[str, set[str]] = {}
    for row in rows[:_MAX_ROWS]:
        for key, cell in row.items():
            if isinstance(key, str) and isinstance(cell, str) and not _NUMBER_OR_DATE.match(cell):
                columns.setdefault(key, set()).add(cell.strip())
    return columns


def _said(value: str, question: str) -> bool:
    """Whether ``question`` (folded, lower case) names ``value`` as whole words."""
    folded = i18n.folded(value).lower()
    return len(folded) >= 3 and re.search(rf"(?<!\w){re.escape(folded)}(?!\w)", question) is not None


def tested_text(code: str) -> str:
    """The texts of ``code`` (folded, lower case) outside what it prints: ``print(f"Marta pagó {total}")`` names
    Marta without keeping her rows. The whole code when it does not parse."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError):
        return i18n.folded(code).lower()
    printed: set[int] = set()  # the texts print() is given as they are (a comparison inside it still tests)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
            for arg in node.args:
                parts = arg.values if isinstance(arg, ast.JoinedStr) else [arg]
                printed.update(id(part) for part in parts if isinstance(part, ast.Constant))
    texts = [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in printed
    ]
    return i18n.folded("\n".join(texts)).lower()


def unfiltered_value(text: str, code: str, opened: list[str], folder: Path) -> str | None:
    """The repair request for a Python block that read one of the folder files ``opened`` (by its literal name)
    without keeping the rows of the one value of a text column the user's ``text`` names ("Marta"), when that
    column holds other values too and ``code`` never mentions it; None otherwise (two values of one column
    named: a comparison; the value used in the code; no such file)."""
    question = i18n.folded(text).lower()
    used = tested_text(code)
    for name in opened:
        data = head(folder, name)
        if not data or b"\0" in data:
            continue
        for column, values in _columns(name, data).items():
            named = [v for v in values if _said(v, question)]
            if len(named) != 1 or len(values) < 2 or i18n.folded(named[0]).lower() in used:
                continue
            return (
                UNUSED_VALUE.format(value=repr(data_field(named[0])))
                + f": in {data_field(name)}, {data_field(column)} holds it among other values. Keep only the rows"
                f" whose {data_field(column)} is {data_field(named[0])!r}, beside the tests your code has, then"
                " compute. Write one corrected"
                " ```python block that prints the answer."
            )
    return None
