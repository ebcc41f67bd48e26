"""The standard-library imports a block forgot, added before the gate decides on it.

``print(len(os.listdir('.')))`` without ``import os`` would fail and cost a repair request (a whole LLM request);
:func:`add_missing_imports` adds the import when the use says which one it is, so the classifier, the audit log,
a confirmation and the sandbox all see the completed block. Only unambiguous standard-library uses are completed
(docs/architecture.md, "Repair").
"""

from __future__ import annotations

import ast

from pyflakes import checker as pyflakes_checker  # type: ignore[import-not-found,import-untyped,unused-ignore]
from pyflakes.messages import UndefinedName  # type: ignore[import-not-found,import-untyped,unused-ignore]

MODULES = frozenset(
    {
        "base64", "bisect", "calendar", "collections", "csv", "datetime", "decimal", "fractions", "functools",
        "glob", "hashlib", "heapq", "itertools", "json", "locale", "math", "operator", "os", "pathlib", "random",
        "re", "shutil", "statistics", "string", "textwrap", "time", "unicodedata", "uuid", "zoneinfo",
    }
)  # fmt: skip
"""Modules imported for a name used only as ``module.attribute``: the standard library's that blocks here use
(files, text, numbers, dates). Modules that reach the network or other processes (``subprocess``, ``socket``,
``urllib``) are never added: the model has to write those imports itself, and the classifier judges them."""

MEMBERS = {
    "timedelta": "datetime",
    "date": "datetime",
    "timezone": "datetime",
    "Path": "pathlib",
    "Counter": "collections",
    "defaultdict": "collections",
    "OrderedDict": "collections",
    "deque": "collections",
    "namedtuple": "collections",
    "Decimal": "decimal",
    "ROUND_HALF_UP": "decimal",
    "Fraction": "fractions",
    "ZoneInfo": "zoneinfo",
    "mean": "statistics",
    "median": "statistics",
    "mode": "statistics",
    "stdev": "statistics",
    "sqrt": "math",
    "floor": "math",
    "ceil": "math",
    "reduce": "functools",
}
"""Names imported from a module when the block uses them by name: ``from datetime import timedelta``. A member
is added only when it is called or its attribute is read (``date.today()``, ``timedelta(days=2)``), never for
a bare name: an undefined ``date`` in ``print(date)`` is the model's variable, not the class."""

DATETIME_CLASS = frozenset(
    {"now", "today", "strptime", "fromisoformat", "fromtimestamp", "combine", "utcnow", "fromordinal"}
)
"""Attributes that say ``datetime`` means the class (``datetime.now()``); the module has none of them."""
DATETIME_MODULE = frozenset({"date", "datetime", "timedelta", "time", "timezone", "tzinfo", "MINYEAR", "MAXYEAR"})
"""Attributes that say ``datetime`` means the module (``datetime.date.today()``)."""


class PreludeNames(pyflakes_checker.Checker):  # type: ignore[misc,unused-ignore]
    """pyflakes with the names the sandbox's prelude defines for every block (``sys``, ``o1_ha``)."""

    builtIns = pyflakes_checker.Checker.builtIns | {"sys", "o1_ha"}


def undefined_names(tree: ast.AST) -> set[str]:
    """The names pyflakes finds used and never defined in ``tree``, the prelude's aside. Raises RecursionError
    for a tree too deep for pyflakes."""
    return {m.message_args[0] for m in PreludeNames(tree, filename="<block>").messages if isinstance(m, UndefinedName)}


def bound_names(tree: ast.AST) -> set[str]:
    """Every name ``tree`` binds: assigned (or deleted), a parameter, a def or class, an import (``import os.path``
    binds ``os``)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.add(node.asname or node.name.split(".")[0])
    return names


def add_missing_imports(code: str) -> str | None:
    """``code`` (Python) with the import lines it lacks put first, or None when it lacks none or when any name
    it lacks cannot be imported unambiguously (see the module's docstring). Code that does not parse: None.

    The lines come before the code, one per import, in sorted order (``import os``, then
    ``from datetime import timedelta``). A block that does not compile or has a ``from __future__`` import is
    left as written.
    """
    try:
        tree = ast.parse(code, "<block>")
        compile(tree, "<block>", "exec")  # a block that does not compile is told as it was written
    except (SyntaxError, ValueError, RecursionError):
        return None
    if any(isinstance(node, ast.ImportFrom) and node.module == "__future__" for node in tree.body):
        return None  # must stay first, and the sandbox's prelude comes before any block anyway
    try:
        undefined = undefined_names(tree)
    except RecursionError:
        return None
    if not undefined:
        return None
    uses = _uses(tree, undefined)
    lines = []
    for name in sorted(undefined):
        line = _import_line(name, uses.get(name, []))
        if line is None:
            return None
        lines.append(line)
    imports = "\n".join(sorted(lines, key=lambda line: (line.startswith("from"), line)))
    return imports + "\n" + code


def _uses(tree: ast.AST, names: set[str]) -> dict[str, list[str | None]]:
    """How each of ``names`` is loaded: the attribute read on it (``"listdir"`` for ``os.listdir``), ``"()"`` when
    it is called, None when it is used bare (passed, printed, compared)."""
    parents: dict[int, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    found: dict[str, list[str | None]] = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Name) and node.id in names and isinstance(node.ctx, ast.Load)):
            continue
        parent = parents.get(id(node))
        if isinstance(parent, ast.Attribute) and parent.value is node:
            found.setdefault(node.id, []).append(parent.attr)
        elif isinstance(parent, ast.Call) and parent.func is node:
            found.setdefault(node.id, []).append("()")
        else:
            found.setdefault(node.id, []).append(None)
    return found


def _import_line(name: str, uses: list[str | None]) -> str | None:
    """The import that defines ``name`` as it is used (``uses`` from :func:`_uses`), or None when none does
    unambiguously."""
    if not uses or None in uses:
        return None
    attributes = {use for use in uses if use != "()"}
    if name == "datetime":
        if "()" in uses:
            return None
        if attributes <= DATETIME_CLASS:
            return "from datetime import datetime"
        if attributes <= DATETIME_MODULE:
            return "import datetime"
        return None
    if name in MODULES and "()" not in uses:
        return f"import {name}"
    if name in MEMBERS:
        return f"from {MEMBERS[name]} import {name}"
    return None
