"""Arithmetic slips a Python block's own structure shows, whatever the question was.

- A mean over the filtered rows divided by the count of all rows (seventh held-out set, now a dev set).
- Hours floor-divided out of a duration, its minutes dropped: ``(end - start).seconds // 3600`` (the same set).
- A letter counted in one case in a word that holds it in both: ``"Erdbeermarmelade".count("e")`` (the same set).
- A CSV file's cells ordered as texts: ``max(row[1] for row in rows)`` took '96' over '412' (the eighth set).

:func:`code_slip` names the first one in a block that ran; :func:`.repair.repair_request` sends it once a turn.
"""

from __future__ import annotations

import ast
import csv
import math
import re
from pathlib import Path

FILTERED_MEAN = "Your code divides the sum of the rows its filter kept by len({rows}), the count of all of them"
FLOORED_HOURS = "Your code floors a duration to whole hours ({expr}) and drops its minutes"
ONE_CASE = "Your code counts {letter!r} in {text!r}, which also holds {other!r}"
TEXT_ORDER = "Your code orders texts read from a CSV file with {call}(), as words: '96' comes after '412'"


def code_slip(code: str, folder: Path | None = None) -> str | None:
    """The repair request for the first slip in ``code`` (:data:`FILTERED_MEAN`, :data:`FLOORED_HOURS`,
    :data:`TEXT_ORDER` of a CSV file in ``folder``, :data:`ONE_CASE`), or None when it has none or does not
    parse."""
    if (tree := parsed(code)) is None:
        return None
    if (found := _filtered_mean(tree)) is not None:
        rows, division, kept = found
        said = (
            FILTERED_MEAN.format(rows=rows)
            + ": a mean over the rows that pass the filter divides by how many passed it."
        )
        if kept is None:
            return said + TOLD
        division.right = ast.Call(ast.Name("len", ast.Load()), [ast.ListComp(_load(kept.target), [kept])], [])
        return said + handed_block(tree)
    if (expr := _floored_hours(tree)) is not None:
        return (
            FLOORED_HOURS.format(expr=expr) + ": print the hours and the minutes (hours, rest = divmod(seconds,"
            " 3600), then rest // 60), unless the question asks for whole hours. Write one corrected ```python"
            " block that prints the answer."
        )
    if folder is not None and (extreme := _compared_as_text(tree, folder)) is not None:
        return (
            TEXT_ORDER.format(call=extreme) + ": numbers read from a file are texts until float()." + handed_block(tree)
        )
    if (counted := _one_case(tree)) is not None:
        letter, text, call = counted
        said = (
            ONE_CASE.format(letter=letter, text=text, other=letter.swapcase()) + ": a letter counts in either case"
            " (text.lower().count(letter.lower())), unless the user asked for capitals."
        )
        if letter.isupper():  # "capital A" may be what was asked: told, not handed
            return said + TOLD
        assert isinstance(call.func, ast.Attribute)
        call.func.value = ast.Call(ast.Attribute(call.func.value, "lower", ast.Load()), [], [])
        return said + handed_block(tree)
    return None


def positive_days(code: str) -> str | None:
    """The end of a request that gives the model ``code`` with its one ``(a - b).days`` as ``abs((a - b).days)``
    (:func:`handed_block`), or None when it has none or several, tests or negates it (``if d < 0``: a sign the
    code uses), moves a date by it, or does not parse: for a block that printed a negative count of days
    between two dates the question gives ("-115 días" from the 8th of December to the 15th of August, told
    twice to subtract the earlier date, seventh held-out set)."""
    if (tree := parsed(code)) is None:
        return None
    nodes = list(ast.walk(tree))
    if (
        any(isinstance(n, (ast.If, ast.IfExp, ast.While, ast.Compare, ast.UnaryOp)) for n in nodes)
        or "timedelta" in code
    ):
        return None
    days = [
        n
        for n in nodes
        if isinstance(n, ast.Attribute)
        and n.attr == "days"
        and isinstance(n.value, ast.BinOp)
        and isinstance(n.value.op, ast.Sub)
    ]
    if len(days) != 1 or not _replace(nodes, days[0], ast.Call(ast.Name("abs", ast.Load()), [days[0]], [])):
        return None
    return handed_block(tree)


def _replace(nodes: list[ast.AST], old: ast.AST, new: ast.AST) -> bool:
    """Put ``new`` where ``old`` is, in the one of ``nodes`` that holds it; False when none does."""
    for parent in nodes:
        for field, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, field, new)
                return True
            if isinstance(value, list) and any(item is old for item in value):
                value[[id(item) for item in value].index(id(old))] = new
                return True
    return False


def _compared_as_text(tree: ast.Module, folder: Path) -> str | None:
    """The name of the first ``max``, ``min`` or ``sorted`` call of ``tree`` whose values are cells of a CSV
    file in ``folder`` that hold numbers, as they are (``max(row[1] for row in rows)``, ``key=lambda r:
    r['kwh']``), after making them numbers in ``tree`` (``key=lambda v: float(v)``, ``float(r['kwh'])``), or
    None. "In welke maand het meest opgewekt" took the largest kWh as a text, 96 of 412 (eighth held-out set, now
    a dev set)."""
    named = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    tables = [_table(folder, name) for name in named if _is_csv(name)]
    if not (tables := [t for t in tables if t]) or not _skips_header(tree):
        return None
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in _ORDERS):
            continue
        key = next((k for k in call.keywords if k.arg == "key"), None)
        if key is None and len(call.args) == 1 and isinstance(call.args[0], (ast.GeneratorExp, ast.ListComp)):
            cell = call.args[0].elt
            if isinstance(cell, ast.Subscript) and _numbers(tables, cell.slice):
                value = ast.arguments([], [ast.arg("v")], None, [], [], None, [])
                body = ast.Call(ast.Name("float", ast.Load()), [ast.Name("v", ast.Load())], [])
                call.keywords.append(ast.keyword("key", ast.Lambda(value, body)))
                return call.func.id
        elif (
            key is not None
            and isinstance(key.value, ast.Lambda)
            and isinstance(key.value.body, ast.Subscript)
            and _numbers(tables, key.value.body.slice)
        ):
            key.value.body = ast.Call(ast.Name("float", ast.Load()), [key.value.body], [])
            return call.func.id
    return None


def _is_csv(value: str) -> bool:
    return value.lower().endswith(".csv") and "/" not in value and len(value) < 200


def _skips_header(tree: ast.AST) -> bool:
    """Whether ``tree`` reads rows past a header: ``csv.DictReader``, ``next(reader)`` or a slice from 1."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "DictReader":
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "next":
            return True
        if isinstance(node, ast.Slice) and isinstance(node.lower, ast.Constant) and node.lower.value == 1:
            return True
    return False


def _table(folder: Path, name: str) -> list[list[str]]:
    """The rows of the regular CSV file ``name`` inside ``folder`` (its first 64 KiB; ``;`` or ``,`` apart), []
    when there is none (a pipe, a link out of the folder, a name with a null byte)."""
    try:
        path = (folder / name).resolve()
        if not path.is_relative_to(folder.resolve()) or not path.is_file():
            return []
        with path.open(encoding="utf-8", errors="replace", newline="") as f:
            text = f.read(65536)
    except (OSError, ValueError):
        return []
    lines = text.splitlines()
    delimiter = ";" if lines and lines[0].count(";") > lines[0].count(",") else ","
    return [row for row in csv.reader(lines, delimiter=delimiter) if row]


def _numbers(tables: list[list[list[str]]], index: ast.expr) -> bool:
    """Whether the column ``index`` (a position or a header's name) of one of ``tables`` holds numbers in every
    row after its header ("1.284,60" and "96" are numbers; "mei" is not)."""
    if not isinstance(index, ast.Constant) or not isinstance(index.value, (int, str)) or isinstance(index.value, bool):
        return False
    for rows in tables:
        header, body = rows[0], rows[1:]
        column = header.index(index.value) if isinstance(index.value, str) and index.value in header else index.value
        if not isinstance(column, int) or not body or not all(len(r) > column for r in body):
            continue
        if all(_NUMBER.fullmatch(r[column]) for r in body):
            return True
    return False


_ORDERS = frozenset({"max", "min", "sorted"})
_NUMBER = re.compile(r"\s*-?(?:\d+(?:[.,]\d+)?|\d{1,3}(?:([.,])\d{3})(?:\1\d{3})*(?:[.,]\d{1,2})?)\s*")
"""A cell that is a number ("412", "18,4", "1.284,60"); not a date ("01.05.2024")."""


def given_clock(code: str, hour: int, minute: int) -> str | None:
    """The end of a request that gives the model ``code`` with its one ``datetime.now()`` (or
    ``datetime.datetime.now()``) set to the time the question gives (``now().replace(hour=H, minute=M, second=0,
    microsecond=0)``: today's date kept)
    (:func:`handed_block`), or None when it has none or several, or does not parse: "Si en Barcelona son cinco
    horas más" after "las 23:30" in Buenos Aires was computed from now, and told so, from now again (eighth
    held-out set, now a dev set)."""
    if (tree := parsed(code)) is None:
        return None
    nodes = list(ast.walk(tree))
    calls = [
        n
        for n in nodes
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr == "now"
        and not n.args
        and ast.unparse(n.func.value) in ("datetime", "datetime.datetime", "dt", "dt.datetime")
    ]
    if len(calls) != 1:
        return None
    call = calls[0]
    assert isinstance(call.func, ast.Attribute)
    fields = {"hour": hour, "minute": minute, "second": 0, "microsecond": 0}
    given = ast.Call(
        ast.Attribute(call, "replace", ast.Load()), [], [ast.keyword(k, ast.Constant(v)) for k, v in fields.items()]
    )
    return handed_block(tree) if _replace(nodes, call, given) else None


def percent_off(tree: ast.AST, percent: float) -> list[ast.AST]:
    """The places ``tree`` takes ``percent`` off an amount: a factor ``1 - percent/100`` (0.9 for 10), a
    subtraction from 1 (``1 - p``), or a subtraction of a product or quotient of the amount itself (``a - a *
    p``, ``a - a * 10 / 100``); not ``100 - 80 * 1.15`` (money left after paying) nor ``x - 10``."""
    rate = percent / 100
    found: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and type(node.value) is float and math.isclose(node.value, 1 - rate):
            found.append(node)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub):
            if isinstance(node.left, ast.Constant) and node.left.value == 1:
                found.append(node)
            elif isinstance(node.right, ast.BinOp) and isinstance(node.right.op, (ast.Mult, ast.Div)):
                amount = ast.dump(node.left)
                if any(ast.dump(part) == amount for part in ast.walk(node.right)):
                    found.append(node)
    return found


def added_percent(code: str, percent: float) -> str | None:
    """The end of a request that gives the model ``code`` with the one place it takes ``percent`` off
    (:func:`percent_off`) made an addition (:func:`handed_block`), or None when there is none or several, or it
    does not parse. "Dieci per cento di mancia" was coded ``costo * (1 - 0.1)`` (eighth held-out set, now a dev
    set)."""
    if (tree := parsed(code)) is None or len(found := percent_off(tree, percent)) != 1:
        return None
    node = found[0]
    if isinstance(node, ast.Constant):
        node.value = round(1 + percent / 100, 10)
    else:
        assert isinstance(node, ast.BinOp)
        node.op = ast.Add()
    return handed_block(tree)


def without_test(code: str, literal: str) -> str | None:
    """The end of a request that gives the model ``code`` without its one test of a value against the text
    ``literal`` (``row[0] == 'luce'``, ``'luce' in row[0]``: out of an ``and``, a comprehension's ``if`` or an
    ``if`` statement's test), or None when it has none or several, or does not parse. Told that no line of
    spese_corrente.csv holds 'luce' and to drop the test, the model kept it and printed 0 again (eighth
    held-out set, now a dev set)."""
    if (tree := parsed(code)) is None:
        return None
    nodes = list(ast.walk(tree))
    tests = [
        n
        for n in nodes
        if isinstance(n, ast.Compare)
        and len(n.ops) == 1
        and isinstance(n.ops[0], (ast.Eq, ast.In))
        and any(isinstance(side, ast.Constant) and side.value == literal for side in (n.left, *n.comparators))
    ]
    if len(tests) != 1:
        return None
    test = tests[0]
    for node in nodes:
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And) and test in node.values:
            node.values.remove(test)
            if len(node.values) == 1:
                _replace(nodes, node, node.values[0])
            return handed_block(tree)
        if isinstance(node, ast.comprehension) and test in node.ifs:
            node.ifs.remove(test)
            return handed_block(tree)
        if isinstance(node, ast.If) and node.test is test and not node.orelse:
            node.test = ast.Constant(True)
            return handed_block(tree)
    return None


def swapped_subtraction(code: str) -> str | None:
    """The end of a request that gives the model ``code`` with the operands of its one subtraction swapped
    (:func:`handed_block`), or None when it has no subtraction or several, or does not parse: for a block that
    printed a number below zero the request gives no reason for ("il me reste -7500 euros" from
    ``250 * 18 - 12000``; told to subtract the smaller from the larger, the model printed ``max(0, ...)``)."""
    if (tree := parsed(code)) is None:
        return None
    subtractions = [n for n in ast.walk(tree) if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Sub)]
    if len(subtractions) != 1:
        return None
    found = subtractions[0]
    found.left, found.right = found.right, found.left
    return handed_block(tree)


TOLD = " Write one corrected ```python block that prints the answer."
"""The end of a request that tells the slip without handing the block back."""


def parsed(code: str) -> ast.Module | None:
    """``code`` parsed, or None when it cannot be (a syntax error, a null byte, nesting too deep, too big)."""
    try:
        return ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def text_literals(tree: ast.AST) -> dict[str, str]:
    """The names ``tree`` binds once, at its top level, to a text literal, with their texts."""
    bound = _bound_once(tree)
    return {
        node.targets[0].id: node.value.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id in bound
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }


def handed_block(tree: ast.Module) -> str:
    """The end of a request that gives the model its block corrected by the server: told the slip, the embedded
    model wrote the same division again (seventh held-out set); handed the block, it runs it."""
    try:
        block = ast.unparse(ast.fix_missing_locations(tree))
    except RecursionError:  # a chain of hundreds of operators: told, not handed
        return TOLD
    return f" Run this corrected block:\n```python\n{block}\n```"


def _load(target: ast.expr) -> ast.expr:
    """A comprehension's target (``r``, ``(name, km)``) as an expression that reads it."""
    return ast.parse(ast.unparse(target), mode="eval").body


def _one_case(tree: ast.AST) -> tuple[str, str, ast.Call] | None:
    """(letter, text, the call) of a ``text.count(letter)`` call on a text literal (or a name bound to one) that
    holds the letter in the other case too, counted with no ``lower()``, ``upper()`` or ``casefold()``; else
    None."""
    texts = text_literals(tree)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "count"):
            continue
        if len(node.args) != 1 or not isinstance(node.args[0], ast.Constant):
            continue
        letter, owner = node.args[0].value, node.func.value
        text = owner.value if isinstance(owner, ast.Constant) else texts.get(getattr(owner, "id", ""))
        if not (isinstance(letter, str) and len(letter) == 1 and letter.isalpha() and isinstance(text, str)):
            continue
        if letter in text and letter.swapcase() in text and letter.swapcase() != letter:
            return letter, text, node
    return None


def _filtered_mean(tree: ast.AST) -> tuple[str, ast.BinOp, ast.comprehension | None] | None:
    """The rows (their source, ``data``) a filtered sum over them is divided by the length of, the division, and
    the sum's comprehension (None for a loop's sum); or None.

    A filtered sum is ``sum(... for x in rows if ...)`` (or a list comprehension), said in place or bound to a
    name, or a name added to (``+=``) under an ``if`` in a ``for x in rows`` loop."""
    sums: dict[str, tuple[str, ast.comprehension | None]] = {}  # a name bound to a filtered sum -> its rows
    bound = _bound_once(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if node.targets[0].id in bound and (named := _summed_rows(node.value)) is not None:
                sums[node.targets[0].id] = named
        elif isinstance(node, ast.For):
            for name in _added_under_if(node.body):
                sums.setdefault(name, (ast.unparse(node.iter), None))
    for node in ast.walk(tree):
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)):
            continue
        right = node.right
        if not (
            isinstance(right, ast.Call)
            and isinstance(right.func, ast.Name)
            and right.func.id == "len"
            and len(right.args) == 1
        ):
            continue
        divisor = ast.unparse(right.args[0])
        left = node.left
        summed: tuple[str, ast.comprehension | None] | None = (
            sums.get(left.id) if isinstance(left, ast.Name) else _summed_rows(left)
        )
        if summed is not None and summed[0] == divisor:
            return divisor, node, summed[1]
    return None


def _summed_rows(node: ast.expr) -> tuple[str, ast.comprehension] | None:
    """The source of the rows ``node`` sums with a filter (``sum(x for x in rows if ...)``) and the sum's
    comprehension, or None."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "sum" and node.args):
        return None
    comprehension = node.args[0]
    if not isinstance(comprehension, (ast.GeneratorExp, ast.ListComp)) or len(comprehension.generators) != 1:
        return None
    generator = comprehension.generators[0]
    if isinstance(comprehension.elt, (ast.Constant, ast.Compare)):  # sum(1 for ... if ...): a count, a share of all
        return None
    summed = ast.dump(comprehension.elt)
    for test in generator.ifs:  # "if s > 0", "if s is not None": the rows left out add nothing to the sum
        if (
            isinstance(test, ast.Compare)
            and ast.dump(test.left) == summed
            and all(isinstance(c, ast.Constant) and c.value in (0, None) for c in test.comparators)
        ):
            return None
    return (ast.unparse(generator.iter), generator) if generator.ifs else None


def _bound_once(tree: ast.AST) -> set[str]:
    """The names ``tree`` binds exactly once, at its top level (not in a function, where a name is another)."""
    counts: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            counts[node.id] = counts.get(node.id, 0) + 1
    inner = {
        n.id
        for f in ast.walk(tree)
        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef))
        for n in ast.walk(f)
        if isinstance(n, ast.Name)
    }
    return {name for name, count in counts.items() if count == 1 and name not in inner}


def _added_under_if(body: list[ast.stmt]) -> set[str]:
    """The names a loop body adds to (``total += ...``) only under an ``if``."""
    added: set[str] = set()
    for statement in body:
        if isinstance(statement, ast.If):
            for node in ast.walk(statement):
                if (
                    isinstance(node, ast.AugAssign)
                    and isinstance(node.op, ast.Add)
                    and isinstance(node.target, ast.Name)
                ):
                    added.add(node.target.id)
    return added


def _floored_hours(tree: ast.AST) -> str | None:
    """The source of a ``... // 3600`` over a duration in a block that never takes its remainder (``% 3600``,
    ``divmod``) nor counts minutes (a division by 60), or None."""
    floored = None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "divmod":
            return None
        if not isinstance(node, ast.BinOp) or not isinstance(node.right, ast.Constant):
            continue
        divisor = node.right.value
        if isinstance(node.op, ast.Mod) and divisor in (3600, 60):
            return None
        if isinstance(node.op, (ast.Div, ast.FloorDiv)) and divisor == 60:
            return None
        if isinstance(node.op, ast.FloorDiv) and divisor == 3600 and floored is None:
            floored = ast.unparse(node)
    return floored
