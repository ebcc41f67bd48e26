"""A block that failed on a number written with a decimal comma, completed so that its ``float()`` calls read one.

Files from German, French, Spanish, Dutch or Italian spreadsheets write "18,4"; told the fix, the embedded model
applied it to one call of two and failed again until its repairs ran out. Like a missing import, the fix is the
server's: the gate runs the completed block once more as a block of its own (decided, audited, run like any
other). Only a value with one or two digits after its comma counts ("1,234" may be an English thousands group);
a number with its thousands grouped ("1.284,60", "1,284.60") is read without its group separator.
Rules and measurements: docs/architecture.md ("Repair"), benchmarks/README.md ("Eleventh round").
"""

from __future__ import annotations

import ast
import re

from .error_hints import error_line
from .missing_imports import bound_names

_FAILED = re.compile(r"could not convert string to float: '\s*-?\d+,\d{1,2}\s*'")
_GROUPED = {
    "dot": re.compile(r"could not convert string to float: '\s*-?\d{1,3}(?:\.\d{3})+[.,]\d{1,2}\s*'"),
    "comma": re.compile(r"could not convert string to float: '\s*-?\d{1,3}(?:(?:,\d{3})+\.\d{1,2}|(?:,\d{3}){2,})\s*'"),
}
"""A number with its thousands grouped: "1.284,60" from a German file (or "1.284.60" once the model swapped its
comma for a dot: eighth held-out set, now a dev set), "1,284.60" or "1,284,600" from an English one ("1,234"
alone may be a decimal comma: the model is asked)."""


def failed_on_decimal_comma(output: str) -> bool:
    """Whether the last error in a block's output is Python's for ``float()`` of a decimal-comma number."""
    error = error_line("python", output)
    return error.startswith("ValueError:") and _FAILED.search(error) is not None


def failed_on_grouping(output: str) -> str | None:
    """The thousands separator (``"dot"`` or ``"comma"``) of the number whose ``float()`` made the last error in
    a block's output, or None when it is another error."""
    error = error_line("python", output)
    if not error.startswith("ValueError:"):
        return None
    return next((kind for kind, pattern in _GROUPED.items() if pattern.search(error)), None)


class _Reading(ast.NodeTransformer):
    """``float(x)`` -> ``float(str(x).replace(',', '.'))`` for every call with one argument that is not a literal.
    With a ``grouping`` only a cell's text is read (``float(row[2])``, ``float(v.strip())``, a loop's name; not a
    number the code computed, ``float(total)``), the argument's own swaps of a comma undone: "dot" keeps the last
    of its separators as the decimal point (``(lambda s: float(s.replace('.', '', s.count('.') - 1)))(str(x)
    .replace(',', '.'))``: "1.284,60" and "1,284.60" are 1284.6), "comma" drops the commas (``float(str(x)
    .replace(',', ''))``)."""

    def __init__(self, grouping: str | None = None, computed: frozenset[str] = frozenset()) -> None:
        self.changed = 0
        self.grouping = grouping
        self.computed = computed  # names the code assigns: numbers it made, not cells it read

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if not (
            isinstance(node.func, ast.Name)
            and node.func.id == "float"
            and len(node.args) == 1
            and not node.keywords
            and not isinstance(node.args[0], (ast.Constant, ast.Starred))
        ):
            return node
        value = node.args[0]
        while self.grouping and _swap(value) is not None:  # row[2].replace(',', '.'): read the text as written
            value = _swap(value)  # type: ignore[assignment]
        if self.grouping and not _cell(value, self.computed):
            return node
        self.changed += 1
        text: ast.expr = ast.Call(ast.Name("str", ast.Load()), [value], [])
        if self.grouping == "dot":
            swapped = _replaced(text, ",", ".")
            last = "(lambda s: float(s.replace('.', '', s.count('.') - 1)))"
            return ast.copy_location(ast.Call(ast.parse(last, mode="eval").body, [swapped], []), node)
        old, new = (",", ".") if self.grouping is None else (",", "")
        return ast.copy_location(ast.Call(node.func, [_replaced(text, old, new)], []), node)


def _replaced(text: ast.expr, old: str, new: str) -> ast.expr:
    return ast.Call(ast.Attribute(text, "replace", ast.Load()), [ast.Constant(old), ast.Constant(new)], [])


def _cell(node: ast.expr, computed: frozenset[str]) -> bool:
    """Whether ``node`` reads a cell's text: a subscript (``row[2]``, ``r['Betrag']``), a method called on one
    (``v.strip()``), or a name the code does not assign (a loop's)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return _cell(node.func.value, computed)
    return isinstance(node, ast.Subscript) or (isinstance(node, ast.Name) and node.id not in computed)


def _swap(node: ast.expr) -> ast.expr | None:
    """The text a ``x.replace(',', '.')`` (or ``str(x)``) call reads, or None for another expression."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "str" and len(node.args) == 1:
        return node.args[0]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "replace"
        and [a.value for a in node.args if isinstance(a, ast.Constant)] in ([",", "."], [".", ""], [",", ""])
    ):
        return node.func.value
    return None


def with_decimal_commas(code: str, grouping: str | None = None) -> str | None:
    """``code`` with its ``float()`` calls reading a decimal comma (and thousands grouped with a ``grouping``
    "dot" or "comma", :func:`failed_on_grouping`), or None when it has none to change, does not parse, or binds
    the name ``float`` itself."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return None
    if "float" in bound_names(tree):
        return None
    computed = frozenset(  # names bound to what the code made (total = sum(...)), not to a cell (v = row[2])
        t.id
        for n in ast.walk(tree)
        if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))
        and (isinstance(n, ast.AugAssign) or n.value is None or not _cell(n.value, frozenset()))
        for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
        if isinstance(t, ast.Name)
    )
    reading = _Reading(grouping, computed)
    tree = reading.visit(tree)
    return ast.unparse(ast.fix_missing_locations(tree)) if reading.changed else None
