"""A block that failed on a number written with a decimal comma, completed so that its ``float()`` calls read one.

Files from German, French, Spanish, Dutch or Italian spreadsheets write "18,4"; told the fix, the embedded model
applied it to one call of two and failed again until its repairs ran out. Like a missing import, the fix is the
server's: the gate runs the completed block once more as a block of its own (decided, audited, run like any
other). Only a value with one or two digits after its comma counts ("1,234" may be an English thousands group).
Rules and measurements: docs/architecture.md ("Repair"), benchmarks/README.md ("Eleventh round").
"""

from __future__ import annotations

import ast
import re

from .error_hints import error_line
from .missing_imports import bound_names

_FAILED = re.compile(r"could not convert string to float: '\s*-?\d+,\d{1,2}\s*'")


def failed_on_decimal_comma(output: str) -> bool:
    """Whether the last error in a block's output is Python's for ``float()`` of a decimal-comma number."""
    error = error_line("python", output)
    return error.startswith("ValueError:") and _FAILED.search(error) is not None


class _Reading(ast.NodeTransformer):
    """``float(x)`` -> ``float(str(x).replace(',', '.'))`` for every call with one argument that is not a literal."""

    def __init__(self) -> None:
        self.changed = 0

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
        self.changed += 1
        text = ast.Call(ast.Name("str", ast.Load()), [node.args[0]], [])
        swapped = ast.Call(ast.Attribute(text, "replace", ast.Load()), [ast.Constant(","), ast.Constant(".")], [])
        return ast.copy_location(ast.Call(node.func, [swapped], []), node)


def with_decimal_commas(code: str) -> str | None:
    """``code`` with its ``float()`` calls reading a decimal comma, or None when it has none to change, does not
    parse, or binds the name ``float`` itself."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return None
    if "float" in bound_names(tree):
        return None
    reading = _Reading()
    tree = reading.visit(tree)
    return ast.unparse(ast.fix_missing_locations(tree)) if reading.changed else None
