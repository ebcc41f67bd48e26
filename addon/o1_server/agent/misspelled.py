"""Names a block misspells, written as the name it defines, before the gate decides on it.

``highs = [...]`` then ``sum(hights)``: the block fails, and told "did you mean 'highs'?" a small model wrote the
same code again, three times (natural dev set, ``dn-average-high``). :func:`with_names_spelled` writes each
undefined name that one name the block binds plainly misspells (:func:`close_name`, the rule of Python's own
NameError suggestion) as that name; the completed block is then decided, audited and run like any other
(docs/architecture.md, "Repair").
"""

from __future__ import annotations

import ast
import builtins
import difflib
import sys

from . import i18n
from .missing_imports import bound_names, undefined_names

CUTOFF = 0.8
"""difflib's ratio a misspelling needs with the name it stands for ("hights" and "highs": 0.91)."""
_KNOWN = frozenset(dir(builtins)) | sys.stdlib_module_names | {"o1_ha"}


def close_name(tree: ast.AST, name: str) -> str | None:
    """The name ``tree`` defines that ``name`` most likely misspells ("durée" for "duree": accents and case
    aside, or difflib's closest at :data:`CUTOFF`); None when none is close."""
    defined = bound_names(tree)
    defined.discard(name)
    same = [d for d in sorted(defined) if i18n.folded(d) == i18n.folded(name)]
    if same:
        return same[0]
    close = difflib.get_close_matches(name, sorted(defined), n=1, cutoff=CUTOFF)
    return close[0] if close else None


def with_names_spelled(code: str) -> str | None:
    """``code`` (Python) with each name it uses and never defines written as the one name it defines that the
    name misspells; None when it has none to change, does not parse, or a misspelled name is a builtin, a
    standard module or the prelude's helper (missing imports are :mod:`.missing_imports`' business). Only
    names are changed (where the parser places them), never an attribute (``x.hights``), a keyword argument or
    a text."""
    try:
        tree = ast.parse(code)
        undefined = undefined_names(tree)
    except (SyntaxError, ValueError, RecursionError):
        return None
    fixes = {name: fix for name in sorted(undefined - _KNOWN) if (fix := close_name(tree, name)) is not None}
    if not fixes:
        return None
    lines = [line.encode("utf-8") for line in code.splitlines(keepends=True)]
    uses = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in fixes]
    for node in sorted(uses, key=lambda n: (n.lineno, n.col_offset), reverse=True):  # offsets: UTF-8 bytes
        line = lines[node.lineno - 1]
        if node.end_col_offset is None or line[node.col_offset : node.end_col_offset] != node.id.encode("utf-8"):
            return None  # a position that is not the name's (never seen): nothing is changed
        fixed = fixes[node.id].encode("utf-8")
        lines[node.lineno - 1] = line[: node.col_offset] + fixed + line[node.end_col_offset :]
    spelled = b"".join(lines).decode("utf-8")
    return spelled if spelled != code else None
