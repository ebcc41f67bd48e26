"""The possible string values of Python expressions: paths and commands followed through the code.

A value is a tuple of possible strings; a part known only at run time is ``HOLE``. Anything not followed
here is unknown (``()``), which the scanners treat as outside the sandbox.
"""

from __future__ import annotations

import ast
import builtins
import itertools
import pathlib
import posixpath
import re
import string
from collections.abc import Callable, Iterable, Sequence

from ..paths import HOLE, NAME
from .names import _Names
from .numeric import is_number_expression
from .rules import _DATE_NOW, _PATH_BUILDERS

MAX_VALUES = 32  # possible values tracked for one expression


def capped(values: Iterable[str]) -> tuple[str, ...]:
    """``values`` without repeats, or () (unknown) when there are more than :data:`MAX_VALUES`: a value past the
    cap is never dropped, it may be the one path that leaves the folder (33 names and ``/etc/passwd``)."""
    kept = tuple(dict.fromkeys(values))
    return kept if len(kept) <= MAX_VALUES else ()


def combinations(parts: Sequence[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """Every combination of the parts' possible values, or none (unknown) when there are more than
    :data:`MAX_VALUES`."""
    combos = list(itertools.islice(itertools.product(*parts), MAX_VALUES + 1))
    return combos if len(combos) <= MAX_VALUES else []


_CASE_METHODS = frozenset({"lower", "upper", "casefold", "swapcase", "title", "capitalize"})
# Pure methods of str whose result the scanner computes (the value changes: a mode, a path, a program name).
_STR_METHODS = frozenset(
    {
        "lower",
        "upper",
        "casefold",
        "swapcase",
        "title",
        "capitalize",
        "strip",
        "lstrip",
        "rstrip",
        "replace",
        "removeprefix",
        "removesuffix",
        "zfill",
        "center",
        "ljust",
        "rjust",
        "expandtabs",
    }
)


class _Scope(_Names):
    """What the Python scanner knows about names: their aliases and the possible string values of variables."""

    def __init__(self) -> None:
        super().__init__()
        self.env: dict[str, tuple[str, ...]] = {}
        self.volatile: set[str] = set()  # names changed where the scanner can't follow (global, exec): unknown
        self.path_names: set[str] = set()  # names bound to pathlib paths
        self.rebound: frozenset[str] = frozenset()  # names bound more than once in the block
        self.collections: set[str] = set()  # names last bound to a list, a listing, a comprehension...
        self.returned: dict[int, tuple[str, ...]] = {}  # id of a call of a function read at it -> its returns
        self.dicts: set[str] = set()  # names bound to a dict somewhere (their items are keys, not values)
        self.numbers: frozenset[str] = frozenset()  # names every binding gives a number (numeric.number_names)
        self.builtins_trusted = False  # the block binds no name of a builtin is_number reads (numeric)

    def is_number(self, node: ast.AST) -> bool:
        """Whether ``node`` is surely a number, whose text holds only digits, a sign, a dot or an exponent: a
        literal, a name every binding gives a number (a counter, a loop variable of ``range()``, see
        :func:`.numeric.number_names`), ``len(...)``, ``int(...)``, and arithmetic of those (``i + 1``)."""
        numbers = self.numbers - _BOUND_BEFORE - self.volatile
        return is_number_expression(node, numbers, lambda func: self.callee(func) if self.builtins_trusted else None)

    def values(self, node: ast.AST | None) -> tuple[str, ...]:
        """The possible string values of an expression; unknown parts are HOLE; () when nothing is known."""
        if node is None:
            return ()
        handler = getattr(self, f"values_{type(node).__name__}", None)
        result = handler(node) if handler else ()
        return capped(result)

    def items(self, node: ast.AST) -> tuple[str, ...]:
        """What iterating over ``node`` yields (see :func:`items_of`)."""
        return items_of(self.values(node), self.is_collection(node))

    def is_collection(self, node: ast.AST) -> bool:
        """Whether ``node`` is a collection (a list, tuple or set display, a comprehension, a listing, a name
        bound to one...) rather than a text, whose items are its characters."""
        if isinstance(
            node, (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
        ):
            return True
        if isinstance(node, ast.Name):
            return node.id in self.collections and node.id not in self.volatile
        if isinstance(node, ast.Subscript):
            return self.is_list_slice(node)
        if isinstance(node, ast.Call):
            func = self.callee(node.func)
            if func in _COLLECTION_CALLS:
                return True
            if func in _COLLECTION_WRAPPERS:
                return bool(node.args) and self.is_collection(node.args[0])
            return isinstance(node.func, ast.Attribute) and node.func.attr in _COLLECTION_METHODS
        return False

    def values_Constant(self, node: ast.Constant) -> tuple[str, ...]:
        return (node.value,) if isinstance(node.value, str) else ()

    def values_Name(self, node: ast.Name) -> tuple[str, ...]:
        return () if node.id in self.volatile else self.env.get(node.id, ())

    def values_JoinedStr(self, node: ast.JoinedStr) -> tuple[str, ...]:
        parts = [
            (self.formatted(v) if isinstance(v, ast.FormattedValue) else self.values(v))
            or ((NAME,) if isinstance(v, ast.FormattedValue) and self.slash_free(v) else (HOLE,))
            for v in node.values
        ]
        return _combine(parts, "".join)

    def formatted(self, node: ast.FormattedValue) -> tuple[str, ...]:
        """The values of one f-string field, its format spec applied: ``f"{'etc/passwd':/>11}"`` is
        "/etc/passwd" (a fill character of "/" or "." made a path leave the folder). A spec that is not a
        literal, or one that may add such characters to a listed name, makes the field unknown (HOLE)."""
        spec = node.format_spec
        if spec is not None and self.is_number(node.value) and self.slash_free(node):
            return (NAME,)  # f"{price:.2f}": a number's spec adds no "/" and no ".."
        values = self.values(node.value)
        if not values or spec is None:
            return values
        if not (isinstance(spec, ast.JoinedStr) and all(isinstance(v, ast.Constant) for v in spec.values)):
            return (HOLE,)
        text = "".join(str(v.value) for v in spec.values if isinstance(v, ast.Constant))  # all are, see above
        if all(NAME not in v and HOLE not in v for v in values) and node.conversion == -1:
            try:
                return tuple(format(v, text) for v in values)
            except (TypeError, ValueError):
                return (HOLE,)
        if any(c in text for c in _PATH_CHARACTERS + "."):
            return (HOLE,)
        return values

    def slash_free(self, node: ast.FormattedValue) -> bool:
        """Whether an f-string field can't hold ``/`` or ``..``: a number (``{n:03d}``, ``{len(x)}``) or a
        date or time of the standard library (``{date.today()}``)."""
        spec = node.format_spec
        value = node.value
        if isinstance(spec, ast.JoinedStr) and all(isinstance(v, ast.Constant) for v in spec.values):
            text = "".join(str(v.value) for v in spec.values if isinstance(v, ast.Constant))  # all are, see above
            # only of a number: an object of the block's own class may format "d" as any text (__format__)
            if (_NUMBER_SPEC.fullmatch(text) or _WIDTH_SPEC.fullmatch(text)) and node.conversion == -1:
                return self.is_number(value)
        if spec is not None:
            return False  # another spec ("c" makes 47 a "/"; a fill character can be one)
        if self.is_number(value):
            return True
        if isinstance(value, ast.Constant):
            return isinstance(value.value, (int, float)) and not isinstance(value.value, bool)
        if isinstance(value, ast.Call):
            name = self.trusted(value.func)
            if name in ("int", "len", "float") or name in _DATE_NOW:
                return True
            if (
                isinstance(value.func, ast.Attribute)
                and value.func.attr == "strftime"
                and isinstance(value.func.value, ast.Call)
                and self.trusted(value.func.value.func) in _DATE_NOW
                and value.args
            ):
                fmt = self.values(value.args[0])
                return len(fmt) == 1 and re.fullmatch(r"([^/%\\.]|%[YmdHMSjyIpfaAbBUWGuVz%])*", fmt[0]) is not None
        return False

    def values_BinOp(self, node: ast.BinOp) -> tuple[str, ...]:
        left, right = self.values(node.left), self.values(node.right)
        if not (left or right):
            return ()
        if isinstance(node.op, ast.Add):
            return _combine([left or (HOLE,), right or (HOLE,)], "".join)
        if isinstance(node.op, ast.Div):
            return _combine([left or (HOLE,), right or (HOLE,)], lambda p: posixpath.join(*p))
        if isinstance(node.op, ast.Mod) and left and not any(HOLE in t or NAME in t for t in left):
            return self.printf(left, node.right)  # '%s.txt' % name
        return ()

    def printf(self, templates: tuple[str, ...], right: ast.expr) -> tuple[str, ...]:
        """``template % args`` for literal templates: each ``%s`` filled with each value its argument may have
        (a run-time part stays HOLE); anything Python would not format is unknown."""
        if any(re.search(r"%[-#0 +\d.*hlL]*[c*(]", t.replace("%%", "")) for t in templates):
            return ()  # %c makes 47 a "/"; * widths and %(key)s mappings are not followed
        args = right.elts if isinstance(right, ast.Tuple) else [right]
        numbers = [self.is_number(a) for a in args]
        parts = [
            self.values(a) or ((NAME,) if _no_text(a) or number else (HOLE,))
            for a, number in zip(args, numbers, strict=True)
        ]
        said: list[str] = []
        for template in (_numbers_as_names(t, numbers) for t in templates):
            for combo in combinations(parts):
                try:
                    said.append(template % (combo if isinstance(right, ast.Tuple) else combo[0]))
                except (TypeError, ValueError, KeyError, OverflowError):
                    return ()
        return capped(said)

    def values_IfExp(self, node: ast.IfExp) -> tuple[str, ...]:
        """Either branch's values; a branch known only at run time is HOLE (never dropped: ``p if p else
        'a.txt'`` may be ``p``)."""
        return capped((self.values(node.body) or (HOLE,)) + (self.values(node.orelse) or (HOLE,)))

    def values_List(self, node: ast.List | ast.Tuple | ast.Set) -> tuple[str, ...]:
        """The values of the items: an item known only at run time is HOLE (``[input(), 'a.txt']`` may hold
        any path), so is a list, set or dict inside (it may change in place unseen: ``groups[0].append(x)``);
        a number holds no text."""
        return tuple(itertools.chain.from_iterable(self.item_values(e) for e in node.elts))

    def item_values(self, node: ast.expr) -> tuple[str, ...]:
        if isinstance(node, (ast.List, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.DictComp)):
            return (HOLE,)
        if isinstance(node, ast.Starred):
            return self.items(node.value) or (HOLE,)
        return self.values(node) or (() if _no_text(node) else (HOLE,))

    values_Tuple = values_Set = values_List

    def values_ListComp(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp) -> tuple[str, ...]:
        """What a comprehension yields (a dict comprehension: its keys), its loop variables bound to what their
        iterables yield; its conditions only filter. Outer values of those names are back afterwards."""
        saved = dict(self.env)
        try:
            for index, generator in enumerate(node.generators):
                items = self.loop_items(generator.target, generator.iter)
                if index == 0 and isinstance(node, ast.GeneratorExp):
                    for name in self.rebound:  # the rest runs later, when names bound again may have changed
                        self.env.pop(name, None)
                for name, values in items.items():
                    self.env.pop(name, None)
                    if values:
                        self.env[name] = values
            return self.values(node.key if isinstance(node, ast.DictComp) else node.elt)
        finally:
            self.env = saved

    values_SetComp = values_GeneratorExp = values_DictComp = values_ListComp

    def loop_items(self, target: ast.AST, iterable: ast.AST) -> dict[str, tuple[str, ...]]:
        """The values a loop (or comprehension) target's names get from what ``iterable`` yields, () for a name
        whose values are unknown; tuples from enumerate, zip and os.walk are followed."""
        if isinstance(target, ast.Name):
            return {target.id: self.items(iterable)}
        if not isinstance(target, (ast.Tuple, ast.List)):
            return {}
        func = self.callee(iterable.func) if isinstance(iterable, ast.Call) else None
        args = iterable.args if isinstance(iterable, ast.Call) else []
        items: list[tuple[str, ...]] = [()] * len(target.elts)
        if func == "enumerate" and args and len(items) == 2:
            items[1] = self.items(args[0])
        elif func == "zip":
            items = [self.items(a) for a in args[: len(items)]] + items[len(args) :]
        elif func == "os.walk" and len(items) == 3:
            top = self.values(args[0]) if args else (".",)
            items = [tuple(posixpath.join(t, NAME) for t in top), (NAME,), (NAME,)]
        found: dict[str, tuple[str, ...]] = {}
        for element, values in zip(target.elts, items, strict=True):  # one item per element, always
            if isinstance(element, ast.Name):
                found[element.id] = values
            else:
                found.update(dict.fromkeys(_names_in(element), ()))
        return found

    def values_Subscript(self, node: ast.Subscript) -> tuple[str, ...]:
        if self.qualname(node.value) == "os.environ" and self.values(node.slice) == ("HOME",):
            return ("~",)
        parts = self.splitext_parts(node.value)
        index = node.slice.value if isinstance(node.slice, ast.Constant) else None
        if parts is not None and index in (0, 1, -1, -2) and isinstance(index, int):
            return parts[index]
        number = (isinstance(index, int) and not isinstance(index, bool)) or self.is_number(node.slice)
        listed = isinstance(node.value, ast.Name) and node.value.id not in self.dicts
        if listed and number and self.is_collection(node.value):
            return self.items(node.value)  # files[0], files[i]: one of a list's items (a dict's: not followed)
        if isinstance(index, int) and not isinstance(index, bool):
            return self.split_part(node.value, index)
        if self.is_list_slice(node):
            return self.values(node.value)  # files[:3], os.listdir('.')[-2:]: some of a list's items
        if isinstance(node.slice, ast.Slice):
            return self.sliced(node.value, node.slice)
        return ()

    def is_list_slice(self, node: ast.AST) -> bool:
        """Whether ``node`` is a slice of a collection that is no dict (``files[:3]``, ``names[-2:]``,
        ``sorted(os.listdir('.'))[:n]``) with bounds that are absent, literal integers or numbers: it holds
        some of the collection's items and nothing else."""
        if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice)):
            return False
        if isinstance(node.value, ast.Name) and node.value.id in self.dicts:
            return False
        bounds = [b for b in (node.slice.lower, node.slice.upper, node.slice.step) if b is not None]
        unsigned = [b.operand if isinstance(b, ast.UnaryOp) and isinstance(b.op, ast.USub) else b for b in bounds]
        plain = all(
            (isinstance(b, ast.Name) and self.is_number(b)) or (isinstance(b, ast.Constant) and type(b.value) is int)
            for b in unsigned
        )
        return plain and self.is_collection(node.value)

    def split_part(self, node: ast.AST, index: int) -> tuple[str, ...]:
        """``x.split(sep)[i]`` (or ``rsplit``) of text values with a literal ``sep``: computed for known text; a
        part of a listed name may be empty, and "." or ".." unless ``sep`` holds a dot."""
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("split", "rsplit")
            and len(node.args) >= 1
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and node.args[0].value
        ):
            return ()
        sep = node.args[0].value
        limit = node.args[1].value if len(node.args) > 1 and isinstance(node.args[1], ast.Constant) else -1
        if not isinstance(limit, int):
            return ()
        said: list[str] = []
        for value in self.values(node.func.value) or (HOLE,):
            if HOLE in value or (NAME in value and "/" in value):
                said.append(HOLE)
            elif NAME in value:
                said += [NAME, "", *(() if "." in sep else (".", ".."))]
            else:
                pieces = getattr(value, node.func.attr)(sep, limit)
                if -len(pieces) <= index < len(pieces):
                    said.append(pieces[index])
        return capped(said)

    def sliced(self, node: ast.AST, part: ast.Slice) -> tuple[str, ...]:
        """``x[a:b]`` of text values with literal bounds: computed for known text; a piece of a listed name may
        be empty, "." or ".." ("...txt"[:-4])."""
        bounds: list[int | None] = []
        for bound in (part.lower, part.upper, part.step):
            if isinstance(bound, ast.UnaryOp) and isinstance(bound.op, ast.USub):
                bound = bound.operand if isinstance(bound.operand, ast.Constant) else bound
                negative = True
            else:
                negative = False
            value = bound.value if isinstance(bound, ast.Constant) else bound
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                return ()
            bounds.append(-value if negative and value is not None else value)
        if not isinstance(node, ast.Name) or node.id in self.collections:
            return ()  # a list's slice: its items, followed elsewhere
        said: list[str] = []
        for value in self.values(node):
            if HOLE in value or (NAME in value and "/" in value):
                said.append(HOLE)
            elif NAME in value:
                said += [NAME, "", ".", ".."]
            else:
                said.append(value[slice(*bounds)])
        return capped(said)

    def splitext_parts(self, node: ast.AST) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        """(roots, extensions) of ``os.path.splitext(x)``, or None for another expression. A listed name's root
        keeps it a listed name (Python ignores leading dots, so a root is never ".." and holds no "/"); its
        extension may be "", "." or a dot and a name; a run-time part stays one."""
        if not (isinstance(node, ast.Call) and self.callee(node.func) == "os.path.splitext" and len(node.args) == 1):
            return None
        roots: list[str] = []
        extensions: list[str] = []
        for value in self.values(node.args[0]) or (HOLE,):
            if HOLE in value:
                roots.append(value)
                extensions.append(HOLE)
            elif NAME in value:
                roots.append(value)
                extensions += ["", ".", "." + NAME]  # "docs" has none, "x." has "."
            else:
                root, extension = posixpath.splitext(value)
                roots.append(root)
                extensions.append(extension)
        return tuple(dict.fromkeys(roots)), tuple(dict.fromkeys(extensions))

    def values_Attribute(self, node: ast.Attribute) -> tuple[str, ...]:
        name = self.qualname(node)
        if name == "sys.executable":
            return ("python",)
        if name == "os.sep":
            return ("/",)
        if node.attr == "parent":
            return tuple(_parent(v) for v in self.values(node.value))
        if node.attr in ("name", "stem", "suffix"):
            return tuple(dict.fromkeys(p for v in self.values(node.value) for p in _path_part(v, node.attr)))
        if node.attr == "path":
            return self.values(node.value)
        return ()

    def callee(self, func: ast.AST) -> str | None:
        """The name of a called function whose result is trusted; a builtin by its own name (``sorted``)."""
        name = self.trusted(func)
        if name is None and isinstance(func, ast.Name) and func.id not in self.local_names:
            name = func.id
        return name

    def values_Call(self, node: ast.Call) -> tuple[str, ...]:
        if id(node) in self.returned:
            return self.returned[id(node)]
        if self.is_number(node):
            return (NAME,)  # max(week, 3), round(x / 2): a number's text holds no "/" and no ".."
        func = self.callee(node.func)
        args = [self.values(a) or (HOLE,) for a in node.args if not isinstance(a, ast.Starred)]
        if func in _PATH_BUILDERS:
            return _combine(args, lambda p: posixpath.join(*p)) if args else (".",)
        if func in ("pathlib.Path.home",):
            return ("~",)
        if func in ("pathlib.Path.cwd", "os.getcwd"):
            return (".",)
        if func in ("os.getenv", "os.environ.get") and args and args[0] == ("HOME",):
            return ("~",)
        if func == "os.path.expanduser" and node.args:
            return _home_too(self.values(node.args[0]))
        if func == "os.path.basename" and len(node.args) == 1:
            return tuple(dict.fromkeys(_last_part(v) for v in self.values(node.args[0]) or (HOLE,)))
        if func == "str" and len(node.args) == 1 and self.is_number(node.args[0]):
            return (NAME,)
        if func == "time.strftime" and node.args:
            fmt = self.values(node.args[0])
            plain = len(fmt) == 1 and HOLE not in fmt[0] and NAME not in fmt[0]
            return (NAME,) if plain and not any(c in fmt[0] for c in _PATH_CHARACTERS + ".\\") else ()
        if (
            func
            in (
                "str",
                "os.fspath",
                "os.path.abspath",
                "os.path.normpath",
                "os.path.realpath",
                "os.path.expandvars",
                "glob.glob",
                "glob.iglob",
                *_COLLECTION_WRAPPERS,
            )
            and node.args
        ):
            return self.values(node.args[0])
        if func == "filter" and len(node.args) == 2:
            return self.values(node.args[1])
        if (
            func in ("max", "min", "random.choice", "next")
            and node.args
            and not any(isinstance(a, ast.Starred) for a in node.args)
        ):
            # One item of its one iterable ("the longest of os.listdir('.')"; of a text, one character), or one
            # of its arguments; or the default when the iterable is empty (next's second argument, default=).
            defaults = [k.value for k in node.keywords if k.arg == "default"]
            if func == "next" and len(node.args) > 1:
                defaults.append(node.args[1])
            if any(k.arg is None for k in node.keywords):
                return ()  # **kwargs may hold a default
            extra = tuple(v for d in defaults if not _no_text(d) for v in (self.values(d) or (HOLE,)))  # not None
            if len(node.args) == 1 or func == "next":
                items = self.items(node.args[0])
                return capped(items + extra) if items else ()
            return capped(tuple(v for a in args for v in a) + extra)
        if func == "os.listdir":
            return (NAME,)
        if func in _DATE_NOW or func in _DATE_MAKERS:
            return (NAME,)  # a date, a time or a number: its text holds no "/" and no ".."
        if func == "os.scandir":
            return tuple(posixpath.join(b, NAME) for b in (self.values(node.args[0]) if node.args else (".",)))
        if isinstance(node.func, ast.Attribute):
            return self.method_values(node.func.attr, node.func.value, node.args)
        return ()

    def formatting(self, templates: tuple[str, ...], args: list[ast.expr]) -> tuple[str, ...]:
        """``template.format(*args)`` for literal templates and positional arguments; a replacement field with a
        format spec is computed only for known texts (a fill character can be "/")."""
        if any(isinstance(a, ast.Starred) for a in args):
            return ()
        numbers = [self.is_number(a) for a in args]
        parts = [
            self.values(a) or ((NAME,) if _no_text(a) or number else (HOLE,))
            for a, number in zip(args, numbers, strict=True)
        ]
        said: list[str] = []
        for template in (_number_fields_as_names(t, numbers) for t in templates):
            for combo in combinations(parts):
                if re.search(r"\{[^{}]*:", template) and any(HOLE in c or NAME in c for c in combo):
                    return ()
                try:
                    said.append(template.format(*combo))
                except (IndexError, KeyError, ValueError, AttributeError, TypeError):
                    return ()
        return capped(said)

    def method_values(self, method: str, receiver: ast.AST, args: list[ast.expr]) -> tuple[str, ...]:
        """Path and string methods: joinpath, glob, iterdir, resolve, str.join ..."""
        base = self.values(receiver)
        if not base:
            return ()
        arg_values = [self.values(a) or (HOLE,) for a in args]
        if method in ("joinpath", "glob", "rglob"):
            return _combine([base, *arg_values], lambda p: posixpath.join(*p))
        if method in ("iterdir", "scandir"):
            return tuple(posixpath.join(b, NAME) for b in base)
        if method in ("resolve", "absolute"):
            return base
        if method == "expanduser":
            return _home_too(base)
        if method == "with_suffix" and len(arg_values) == 1:
            return tuple(dict.fromkeys(p for b in base for s in arg_values[0] for p in _with_suffix(b, s)))
        if method == "with_name" and len(arg_values) == 1:
            return _combine([tuple(posixpath.dirname(b) for b in base), arg_values[0]], lambda p: posixpath.join(*p))
        if base == (NAME,) and method in ("isoformat", "date", "time", "timestamp") and not args:
            return (NAME,)  # of a date (or of a listed name, which has no such method)
        if base == (NAME,) and method == "strftime" and len(arg_values) == 1 and len(arg_values[0]) == 1:
            fmt = arg_values[0][0]
            return (NAME,) if not any(c in fmt for c in _PATH_CHARACTERS + ".\\") and HOLE not in fmt else ()
        if base == (NAME,) and method in ("zfill", "rjust", "ljust", "center") and _pads_with_alnum(args):
            return (NAME,)  # str(i).zfill(3): padding by letters or digits adds no "/" and no ".."
        if method in _STR_METHODS:
            # A string method changes the value ('W'.lower() is the mode 'w'): applied to every possible value
            # when its arguments are literals; with any other argument the result is unknown.
            literal = [a.value for a in args if isinstance(a, ast.Constant) and isinstance(a.value, (str, int))]
            if len(literal) != len(args):
                return ()
            if method == "replace" and base == (NAME,) and len(literal) >= 2 and _keeps_name(literal[1]):
                return (NAME,)
            if method not in _CASE_METHODS and any(HOLE in b or NAME in b for b in base):
                # A listed name or a run-time part may hold what the method acts on (" ..".strip() is "..",
                # "a".replace("a", "/") is "/"): only a change of case leaves such a value inside.
                return ()
            try:
                return tuple(getattr(str, method)(b, *literal) for b in base)
            except (TypeError, ValueError, OverflowError):
                return ()
        if method == "format" and not any(HOLE in b or NAME in b for b in base):
            return self.formatting(base, args)
        if method == "join" and len(args) == 1 and isinstance(args[0], (ast.List, ast.Tuple)):
            parts = [self.values(e) or (HOLE,) for e in args[0].elts]
            return capped(sep.join(p) for sep in base for p in combinations(parts))
        return ()


_PATH_CHARACTERS = "/~$"  # one character of a text that, alone, makes a path leave the folder
# Constructors of dates and times: like _DATE_NOW, their text holds no "/" and no "..".
_DATE_MAKERS = frozenset(
    {
        "datetime.date",
        "datetime.datetime",
        "datetime.date.fromisoformat",
        "datetime.datetime.fromisoformat",
        "datetime.datetime.strptime",
        "datetime.date.fromtimestamp",
        "datetime.datetime.fromtimestamp",
    }
)
_COLLECTION_CALLS = frozenset(
    {"os.listdir", "os.scandir", "os.walk", "glob.glob", "glob.iglob", "map", "filter", "enumerate", "zip", "range"}
)
_COLLECTION_WRAPPERS = frozenset({"sorted", "list", "tuple", "set", "frozenset", "reversed", "iter"})  # of their arg
_COLLECTION_METHODS = frozenset(
    {"split", "rsplit", "splitlines", "readlines", "iterdir", "glob", "rglob", "keys", "values", "items"}
)


def _last_part(value: str) -> str:
    """``os.path.basename`` of a value: its last part, HOLE when a run-time part reaches into it."""
    last = value.rsplit("/", 1)[-1]
    return HOLE if HOLE in last else last


_BOUND_BEFORE = frozenset(dir(builtins)) | {"sys", "o1_ha", "_o1_values"}
"""Names that exist when a block starts: the builtins and the sandbox prelude's (sandbox/run.py)."""
_PRINTF_SPEC = re.compile(r"%(?:%|[-#0 +]*\d*(?:\.\d+)?[hlL]?([diouxXeEfFgGrsa]))")


def _numbers_as_names(template: str, numbers: list[bool]) -> str:
    """``template`` with the numeric conversion (``%d``, ``%03d``, ``%.2f``) of each argument that is a number
    written ``%s``: filled with a listed-name part, as an f-string's number field is; the template unchanged when
    its conversions do not match the arguments one for one."""
    specs = [m for m in _PRINTF_SPEC.finditer(template) if m.group(0) != "%%"]
    if len(specs) != len(numbers):
        return template
    for spec, number in reversed(list(zip(specs, numbers, strict=True))):
        if number and spec.group(1) in "diouxXeEfFgG":
            template = template[: spec.start()] + "%s" + template[spec.end() :]
    return template


# A format spec that adds no character of its own (no fill) and that only a number takes (``03d``, ``.2f``);
# of an argument known to be a number, a spec without the type too (``>5``).
_NUMBER_SPEC = re.compile(r"[<>=^]?[+ -]?#?0?\d*[,_]?(\.\d+)?[bdoxXneEfFgG%]")
_WIDTH_SPEC = re.compile(r"[<>=^]?[+ -]?#?0?\d*[,_]?(\.\d+)?")


def _number_fields_as_names(template: str, numbers: list[bool]) -> str:
    """``template`` (of ``str.format``) with each field of a number argument that has a number's spec
    (``{:03d}``, ``{0:>4}``) written without it: filled with a listed-name part, as ``%03d`` is by
    :func:`_numbers_as_names`; the template unchanged when it can't be read or a field names a key."""
    try:
        fields = list(string.Formatter().parse(template))
    except ValueError:
        return template
    out: list[str] = []
    auto = 0
    for literal, field, spec, conversion in fields:
        out.append(literal.replace("{", "{{").replace("}", "}}"))
        if field is None:
            continue
        if field == "":
            index, auto = auto, auto + 1
        elif field.isdigit():
            index = int(field)
        else:
            return template
        number = index < len(numbers) and numbers[index] and not conversion
        if number and spec and (_NUMBER_SPEC.fullmatch(spec) or _WIDTH_SPEC.fullmatch(spec)):
            out.append(f"{{{index}}}")
        else:
            out.append(f"{{{index}{'!' + conversion if conversion else ''}{':' + spec if spec else ''}}}")
    return "".join(out)


def _pads_with_alnum(args: list[ast.expr]) -> bool:
    """Whether the arguments of ``zfill``/``rjust``/``ljust``/``center`` are a literal width and, if any, a
    literal fill character that is a letter or a digit."""
    if not 1 <= len(args) <= 2 or not all(isinstance(a, ast.Constant) for a in args):
        return False
    width, *fill = (a.value for a in args if isinstance(a, ast.Constant))
    return isinstance(width, int) and all(isinstance(f, str) and len(f) == 1 and f.isalnum() for f in fill)


def _no_text(node: ast.expr) -> bool:
    """Whether ``node`` is a literal that holds no text (a number, True, None; -1)."""
    if isinstance(node, ast.UnaryOp):
        node = node.operand
    return isinstance(node, ast.Constant) and not isinstance(node.value, str)


def _path_part(value: str, part: str) -> tuple[str, ...]:
    """pathlib's ``name``, ``stem`` or ``suffix`` of a path value: computed for known text (``Path('.').name`` is
    "", ``Path('...txt').stem`` is ".."); of a last part holding a listed name, the name itself, any stem a name
    can have (that name, ".", "..") or any suffix ("", a dot and a name); unknown stays unknown."""
    last = value.rstrip("/").rsplit("/", 1)[-1]
    if HOLE in last:
        return (HOLE,)
    if NAME not in last:
        return (str(getattr(pathlib.PurePosixPath(value), part)),)
    if part == "name":
        return (last,)
    return (NAME, ".", "..") if part == "stem" else ("", "." + NAME)


def _with_suffix(value: str, suffix: str) -> tuple[str, ...]:
    """``Path(value).with_suffix(suffix)``: computed for known text; for a listed name, each stem it can have
    with ``suffix`` (``with_suffix('')`` of "...x" is "..")."""
    if HOLE in value or HOLE in suffix:
        return (HOLE,)
    if NAME not in value and NAME not in suffix:
        try:
            return (str(pathlib.PurePosixPath(value).with_suffix(suffix)),)
        except ValueError:  # an invalid suffix: Python raises, nothing is written
            return ()
    folder = posixpath.dirname(value.rstrip("/"))
    return tuple(posixpath.join(folder, stem + suffix) for stem in _path_part(value, "stem"))


def _home_too(values: tuple[str, ...]) -> tuple[str, ...]:
    """What ``expanduser`` may give: a value that starts with a listed name or a run-time part (after "./") may
    start with "~" (a file named "~" in the folder expands to a home folder)."""
    tops = [re.sub(r"^(?:\./+)+", "", v) for v in values]  # pathlib drops "./": Path('./~') is Path('~')
    more = tuple("~" + v[1:] for v in tops if v[:1] in (NAME, HOLE))
    return capped(values + more)


def _keeps_name(new: object) -> bool:
    """Whether ``name.replace(old, new)`` of a listed name is still one: ``new`` holds no character that leaves the
    folder and something besides dots (".txt.txt".replace(".txt", ".") is ".."; a result that holds ``new``
    once is never ".." then, and one that holds it never is the name unchanged)."""
    return isinstance(new, str) and not any(c in new for c in _PATH_CHARACTERS + "\\") and new.strip(".") != ""


def items_of(values: tuple[str, ...], collection: bool) -> tuple[str, ...]:
    """What iterating over something with these ``values`` yields: the values, for a ``collection`` (the items
    of a list, the names of a listing); for anything else (a text, or what may be one) also its characters that
    take a path elsewhere ("a/" yields "/": min('a/') + 'etc/passwd' is /etc/passwd); other single characters
    are plain names inside the folder."""
    if collection:
        return values
    extra = {c for v in values if NAME not in v and HOLE not in v for c in v if c in _PATH_CHARACTERS}
    return values + tuple(sorted(extra - set(values)))


def _parent(path: str) -> str:
    """``Path(path).parent`` as the folder it names: the parent of the working folder is "..", outside it."""
    trimmed = path.rstrip("/") or "/"
    if trimmed in (".", "") or posixpath.basename(trimmed) == "..":
        return posixpath.join(trimmed, "..") if trimmed not in (".", "") else ".."
    return posixpath.dirname(trimmed) or "."


def _names_in(node: ast.AST) -> list[str]:
    """The names a (nested) assignment target binds."""
    return [n.id for n in ast.walk(node) if isinstance(n, ast.Name)]


def _combine(parts: Sequence[tuple[str, ...]], join: Callable[[list[str]], str]) -> tuple[str, ...]:
    """All combinations of the parts' possible values, joined; () (unknown) when there are more than MAX_VALUES."""
    return capped(join(list(c)) for c in combinations(parts))
