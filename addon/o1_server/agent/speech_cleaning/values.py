"""Python reprs and JSON as words: "['a', 'b']" -> "a and b", "usage(total=..., free=...)" -> "total 250
gigabytes, free 77.7 gigabytes", "datetime.date(2026, 12, 1)" -> "December 1, 2026". Rules: docs/server.md."""

from __future__ import annotations

import ast
import datetime
import json
import math
import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from babel.units import format_unit

from .language import join, locale_for, word

_T = TypeVar("_T")
MAX_ITEMS = 20  # a list said in full up to this many items (a word spelled out, a shopping list); longer: the
# first ones and "n more" (its rest is never silently dropped; long answers are read in parts, "read on")
MAX_LEAVES = 40  # a value with more scalars said than this (or nested deeper than 2) is not read at all
BYTE_FIELDS = frozenset({"total", "used", "free", "size", "bytes", "available", "avail", "st_size"})
_SIZE_FIELDS = frozenset({"size", "bytes", "st_size"})  # alone they name a byte count
_SPACE_FIELDS = frozenset({"total", "used", "free", "available", "avail"})  # two of them: a disk's usage
_UNITS = ("byte", "kilobyte", "megabyte", "gigabyte", "terabyte", "petabyte")
_START = re.compile(r"[\[{(]|(?<![\w.])(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*\(")
_CONTAINERS = {
    "set", "frozenset", "list", "tuple", "dict_keys", "dict_values", "dict_items", "deque", "Counter", "OrderedDict",
    "defaultdict",
}  # fmt: skip
# A defaultdict's repr names its factory as "<class 'int'>" (or "<function <lambda> at 0x...>"), not Python (and
# read as an HTML tag): see without_factories.
_FACTORY = re.compile(r"\bdefaultdict\(<[^()]*?>,\s*")


def without_factories(text: str) -> str:
    """``text`` with each defaultdict repr's factory left out ("defaultdict(<class 'int'>, {'a': 2})" ->
    "defaultdict({'a': 2})"), so that the rest is read as a dict."""
    return _FACTORY.sub("defaultdict(", text)


class NotSaid(Exception):
    """The value is not one to say (too big, not a literal, a tool call)."""


def say_bytes(count: int, language: str) -> str:
    """A byte count with its unit in words, 3 significant digits ("77.7 gigabytes", "77,7 Gigabyte")."""
    size, step = float(count), 0
    while step < len(_UNITS) - 1 and float(f"{size:.3g}") >= 1000:
        size, step = size / 1000, step + 1
    rounded = float(f"{size:.3g}")
    value: float | int = int(rounded) if rounded.is_integer() else rounded
    return str(format_unit(value, f"digital-{_UNITS[step]}", length="long", locale=locale_for(language)))


class _Sayer:
    """Turns one parsed value (a JSON value or a Python literal's AST) into words in one language."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.leaves = 0
        self.sizes = False  # the fields being said are byte counts (see :meth:`fields`)

    def fields(self, names: list[str], say: Callable[[], str]) -> str:
        """``say()`` with byte-count fields said as bytes when ``names`` are those of a size: a ``size`` or
        ``st_size`` field, or two of total, used, free, available (``shutil.disk_usage``); not a ``total`` among
        other counts ({'items': 3, 'total': 45} was "total 45 bytes")."""
        keys = {n.lower() for n in names}
        saved, self.sizes = self.sizes, bool(keys & _SIZE_FIELDS) or len(keys & _SPACE_FIELDS) >= 2
        try:
            return say()
        finally:
            self.sizes = saved

    def scalar(self, value: object, field: str = "") -> str:
        self.leaves += 1
        if self.leaves > MAX_LEAVES:
            raise NotSaid
        if value is None:
            return word(self.language, "none")
        if isinstance(value, bool):
            return word(self.language, "yes" if value else "no")
        if isinstance(value, int) and self.sizes and field.lower() in BYTE_FIELDS and value >= 0:
            return say_bytes(value, self.language)
        if isinstance(value, float) and not math.isfinite(value):
            raise NotSaid
        if isinstance(value, (int, float, str)):
            return str(value) if not isinstance(value, str) else value.strip()
        raise NotSaid

    def items(self, values: Sequence[_T], say: Callable[[_T], str]) -> str:
        """The items of a list, each said by ``say``: all of them up to :data:`MAX_ITEMS`, else the first ones
        and "n more" (only those said count towards :data:`MAX_LEAVES`)."""
        if len(values) <= MAX_ITEMS:
            return join([say(v) for v in values], self.language)
        more = word(self.language, "more").format(len(values) - MAX_ITEMS + 1)
        return join([*(say(v) for v in values[: MAX_ITEMS - 1]), more], self.language)

    def pairs(self, pairs: list[tuple[str, str]]) -> str:
        said = [f"{key.replace('_', ' ')} {value}" for key, value in pairs]
        return ", ".join(said) if said else word(self.language, "none")

    def duration(self, fields: dict[str, object]) -> str:
        """A ``datetime.timedelta`` repr's fields as "3 days, 2 hours and 5.5 seconds" (Babel's unit names)."""
        days, seconds, micro = (fields.pop(k, 0) for k in ("days", "seconds", "microseconds"))
        if fields or not all(isinstance(v, int) and v >= 0 for v in (days, seconds, micro)):
            raise NotSaid
        assert isinstance(days, int) and isinstance(seconds, int) and isinstance(micro, int)
        exact = f"{seconds % 60 + micro / 1_000_000:.6f}".rstrip("0").rstrip(".")
        amounts = (("day", days), ("hour", seconds // 3600), ("minute", seconds // 60 % 60))
        said = [self.unit(amount, name) for name, amount in amounts if amount]
        if exact != "0" or not said:
            said.append(self.unit(float(exact) if "." in exact else int(exact), "second"))
        return join(said, self.language)

    def unit(self, amount: float, name: str) -> str:
        locale = locale_for(self.language)  # up to 6 decimals: microseconds are said, never rounded away
        return str(format_unit(amount, f"duration-{name}", length="long", format="#,##0.######", locale=locale))

    # ------------------------------------------------------------ JSON
    def json(self, value: object, depth: int = 0) -> str:
        if depth > 2:
            raise NotSaid
        if isinstance(value, dict):
            if _is_tool_call(value):
                raise NotSaid
            return self.pairs([(str(k), self.json(v, depth + 1)) for k, v in value.items()])
        if isinstance(value, list):
            return self.items(value, lambda v: self.json(v, depth + 1))
        return self.scalar(value)

    # ------------------------------------------------------------ Python literals
    def node(self, node: ast.expr, depth: int = 0, field: str = "") -> str:
        if depth > 2:
            raise NotSaid
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return self.items(node.elts, lambda e: self.node(e, depth + 1))
        if isinstance(node, ast.Dict):
            if any(k is None for k in node.keys):
                raise NotSaid
            keys = [self.node(k, depth + 1) for k in node.keys if k is not None]
            return self.fields(
                keys,
                lambda: self.pairs([(k, self.node(v, depth + 1, k)) for k, v in zip(keys, node.values, strict=True)]),
            )
        if isinstance(node, ast.Call):
            return self.call(node, depth)
        return self.scalar(ast.literal_eval(node), field)

    def call(self, node: ast.Call, depth: int) -> str:
        name = ast.unparse(node.func)
        short = name.rsplit(".", 1)[-1]
        args = [ast.literal_eval(a) for a in node.args if not isinstance(a, ast.Starred)] if short in _DATES else []
        # Dates and times become ISO text, said later in the language by dates_for_speech.
        if short == "date" and len(args) == 3 and not node.keywords:
            return datetime.date(*args).isoformat()
        if short == "datetime" and 3 <= len(args) <= 7:
            return datetime.datetime(*args[:6]).isoformat(" ", "minutes")
        if short == "time" and 1 <= len(args) <= 4:
            return datetime.time(*args[:2]).isoformat("minutes")
        if short == "timedelta" and len(node.args) <= 3:
            fields = dict(zip(("days", "seconds", "microseconds"), map(ast.literal_eval, node.args), strict=False))
            return self.duration(fields | {str(k.arg): ast.literal_eval(k.value) for k in node.keywords})
        if short == "Decimal" and len(node.args) == 1 and not node.keywords:
            return self.scalar(str(ast.literal_eval(node.args[0])))
        if short == "OrderedDict" and len(node.args) == 1 and isinstance(node.args[0], ast.List):
            pairs = node.args[0].elts  # OrderedDict([('a', 1), ('b', 2)]): its items, said as a dict's
            if all(isinstance(p, ast.Tuple) and len(p.elts) == 2 for p in pairs):
                keys: list[ast.expr | None] = [p.elts[0] for p in pairs if isinstance(p, ast.Tuple)]
                return self.node(ast.Dict(keys, [p.elts[1] for p in pairs if isinstance(p, ast.Tuple)]), depth)
        if short in _CONTAINERS and len(node.args) <= 1 and not node.keywords:
            return self.node(node.args[0], depth) if node.args else word(self.language, "none")
        if (short in _NUMPY_SCALARS or short in _PATHS) and len(node.args) == 1 and not node.keywords:
            return self.node(node.args[0], depth)  # np.float64(3.5) (NumPy 2's repr), PosixPath('notes.txt')
        if short == "array" and len(node.args) == 1 and all(k.arg == "dtype" for k in node.keywords):
            return self.node(node.args[0], depth)  # NumPy's array([1, 2, 3], dtype=int8)
        if short == "Fraction" and len(node.args) == 2 and not node.keywords:
            numerator, denominator = (ast.literal_eval(a) for a in node.args)
            if isinstance(numerator, int) and isinstance(denominator, int):
                self.leaves += 1
                return f"{numerator}/{denominator}"
        if node.keywords and not node.args and all(k.arg for k in node.keywords):
            return self.fields(
                [str(k.arg) for k in node.keywords],
                lambda: self.pairs([(str(k.arg), self.node(k.value, depth + 1, str(k.arg))) for k in node.keywords]),
            )
        raise NotSaid


_DATES = {"date", "datetime", "time"}
_NUMPY_SCALARS = {
    *(f"float{bits}" for bits in (16, 32, 64, 128)),
    *(f"{kind}{bits}" for kind in ("int", "uint") for bits in (8, 16, 32, 64)),
    *("bool_", "str_", "longdouble", "intc", "intp"),
}  # NumPy 2 writes its scalars' reprs as np.float64(3.5)
_PATHS = {"Path", "PosixPath", "PurePath", "PurePosixPath", "WindowsPath", "PureWindowsPath"}


def _is_tool_call(value: object) -> bool:
    return isinstance(value, dict) and (
        {"name", "arguments"} <= value.keys()
        or "function" in value
        or "tool_calls" in value
        or {"type", "function"} <= value.keys()
    )


def _closing(text: str, start: int, limit: int = 20_000) -> int:
    """The index after the bracket closing the one at ``start`` (quotes respected), or -1."""
    stack: list[str] = []
    quote = ""
    pairs = {"(": ")", "[": "]", "{": "}"}
    i = start
    while i < min(len(text), start + limit):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in pairs:
            stack.append(pairs[ch])
        elif ch in ")]}":
            if not stack or stack.pop() != ch:
                return -1
            if not stack:
                return i + 1
        elif ch == "\n" and stack and stack[-1] == ")":
            return -1  # a parenthesis left open to the end of the line: prose
        i += 1
    return -1


def values_for_speech(text: str, language: str = "en") -> str:
    """Each JSON value and Python repr in ``text`` replaced by its words, or by nothing when it is too big to
    say or is tool-call text (raw JSON is never read out); ordinary brackets ("(see above)") are left alone.
    A bare tuple "(1, 2)" counts as a value when it is a whole line or holds only numbers, one with decimals."""
    out: list[str] = []
    i = 0
    decoder = json.JSONDecoder()
    while (match := _START.search(text, i)) is not None:
        start = match.start()
        out.append(text[i:start])
        said, end = _value_at(text, start, match.group(0), language, decoder)
        if said is None:
            out.append(text[start : match.end()])
            i = match.end()
        else:
            out.append(f" {said} " if said else " ")
            i = end
    out.append(text[i:])
    return "".join(out)


_NUMBER_ITEM = r"\s*-?\d+(?:\.\d+)?\s*"
_NUMBERS_TUPLE = re.compile(rf"\({_NUMBER_ITEM}(?:,{_NUMBER_ITEM})+,?\s*\)")


def _numbers_tuple(segment: str) -> bool:
    """Whether ``segment`` is a tuple of two or more plain numbers, one with decimals ("(52.52, 13.405)"): a value
    wherever it stands. Left in brackets, a comma-decimal language heard "(52,52, 13,405)"; "(1, 2)" in prose
    stays as it is."""
    return _NUMBERS_TUPLE.fullmatch(segment) is not None and "." in segment


def _value_at(text: str, start: int, opener: str, language: str, decoder: json.JSONDecoder) -> tuple[str | None, int]:
    """(words, end) for the value starting at ``start``; words "" to drop it, None when it is not a value."""
    ch = text[start]
    if ch in "{[":
        try:
            value, end = decoder.raw_decode(text, start)
        except ValueError:
            value, end = None, -1
        if end > start and isinstance(value, (dict, list)):
            try:
                return _Sayer(language).json(value), end
            except NotSaid:
                return "", end
        if ch == "{" and re.match(r'\{\s*"', text[start:]):
            nl = text.find("\n", start)  # unterminated JSON (cut off, or a tool call mid-stream): the line goes
            return "", len(text) if nl < 0 else nl
    end = _closing(text, start + len(opener) - 1)
    if end < 0:
        return None, -1
    segment = text[start:end]
    if ch == "(":
        line_start, line_end = text.rfind("\n", 0, start) + 1, text.find("\n", end)
        whole_line = (
            text[line_start:start].strip() == "" and text[end : len(text) if line_end < 0 else line_end].strip() == ""
        )
        if not whole_line and not _numbers_tuple(segment):
            return None, -1
    try:
        tree = ast.parse(segment.strip(), mode="eval").body
        if ch == "(" and not isinstance(tree, ast.Tuple):
            return None, -1
        if ch not in "([{" and not isinstance(tree, ast.Call):
            return None, -1
        return _Sayer(language).node(tree), end
    except (SyntaxError, ValueError, TypeError, NotSaid, RecursionError, MemoryError):
        return None, -1
