"""The values a conversation's Python blocks leave behind, carried into its later blocks as literals.

Every block runs in a new process, but models write follow-ups as in a notebook ("and for four people?" ->
``print(total_cost / 4)``). At exit the box reports its top-level names whose values are plain JSON
(helpers/o1_values.py; the sandbox splits the report off the output), :func:`reported` keeps what is valid of
it, and :func:`with_carried` writes assignments of those values before a block that uses them without
defining them, so the classifier, the audit log and the sandbox all see the literals (docs/architecture.md).
"""

from __future__ import annotations

import ast
import builtins
import json
import keyword
import sys
from collections.abc import Mapping
from typing import Any

from .missing_imports import undefined_names

MAX_REPORT_CHARS = 20_000
MAX_NAMES = 32
MAX_NAME_CHARS = 64
MAX_VALUE_CHARS = 2000
"""Longest value carried, as JSON: a list of a folder's names, a sum, a short text; not a whole file."""
MAX_DEPTH = 6
"""Deepest nesting of lists and dicts carried (Python's parser refuses a literal nested about 200 deep)."""
_RESERVED = frozenset(dir(builtins)) | sys.stdlib_module_names | {"o1_ha"}
"""Never carried: a builtin, a standard module (a report naming ``os`` would turn a later block's ``os.listdir``,
whose import missing_imports.py adds, into a text's attribute) or the prelude's helper."""


def reported(report: str | None) -> dict[str, Any] | None:
    """The values in the box's report (``ExecResult.report``, JSON text), :func:`accepted`; None when there is no
    report (a killed block) or it is not JSON of at most :data:`MAX_REPORT_CHARS`."""
    if report is None or len(report) > MAX_REPORT_CHARS:
        return None
    try:
        values = json.loads(report)
    except (ValueError, RecursionError):
        return None
    return accepted(values)


def accepted(values: Any) -> dict[str, Any]:
    """The carried values in ``values`` (a report, or a saved conversation's): names that are identifiers, not
    keywords, builtins, standard modules, private or the prelude's (:data:`_RESERVED`), each with a JSON value
    of at most :data:`MAX_VALUE_CHARS` nested at most :data:`MAX_DEPTH` deep; at most :data:`MAX_NAMES`.
    Anything else is dropped."""
    kept: dict[str, Any] = {}
    if not isinstance(values, dict):
        return kept
    for name, value in values.items():
        if len(kept) >= MAX_NAMES:
            break
        if not _name_ok(name):
            continue
        try:
            text = json.dumps(value, allow_nan=False)
        except (TypeError, ValueError, RecursionError):
            continue
        if len(text) <= MAX_VALUE_CHARS and _depth(value) <= MAX_DEPTH:
            kept[name] = value
    return kept


def _name_ok(name: Any) -> bool:
    return (
        isinstance(name, str)
        and len(name) <= MAX_NAME_CHARS
        and name.isidentifier()
        and name.isascii()
        and not keyword.iskeyword(name)
        and not name.startswith("_")
        and name not in _RESERVED
    )


def with_carried(code: str, values: Mapping[str, Any]) -> str | None:
    """``code`` (Python) with one first line assigning the carried ``values`` it reads but never defines
    (``total_cost = 116.45; files = ['a.txt']``), or None when it needs none or does not parse. A name the block
    calls is not carried (no carried value can be called: ``mean([1, 2])`` wants ``statistics.mean``, whose
    import missing_imports.py adds)."""
    if not values:
        return None
    try:
        tree = ast.parse(code, "<block>")
        undefined = undefined_names(tree)
    except (SyntaxError, ValueError, RecursionError):
        return None
    called = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    needed = sorted((undefined - called) & values.keys())
    if not needed:
        return None
    return "; ".join(f"{name} = {values[name]!r}" for name in needed) + "\n" + code


def merged(values: dict[str, Any], reported: Mapping[str, Any]) -> None:
    """Add a block's ``reported`` values to the conversation's ``values``, in place: a name set again moves to
    the end, and the oldest names go past :data:`MAX_NAMES` (what the last blocks computed is what follow-ups
    read)."""
    for name, value in reported.items():
        values.pop(name, None)
        values[name] = value
    for name in list(values)[: max(0, len(values) - MAX_NAMES)]:
        del values[name]


def _depth(value: Any) -> int:
    """How deep lists and dicts nest in ``value`` (a number or a text: 0), counted up to MAX_DEPTH + 1."""
    stack, deepest = [(value, 0)], 0
    while stack and deepest <= MAX_DEPTH:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        stack.extend((child, depth + 1) for child in children)
    return deepest
