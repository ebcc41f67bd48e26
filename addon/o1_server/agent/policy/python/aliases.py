"""Pre-pass of the Python scanner: the collections whose changes it cannot follow.

The scanner follows a list, set or dict through its name (``names.append(x)``, ``+=``). A collection reached
another way changes unseen (``other = names``, ``names[0] = x``, ``list.append(names, x)``, ``add =
names.append``, ``min(names, names)``...): such a name *escapes* (:func:`escaped_names`) and its values are
unknown from the start, so a path made from it counts as outside the folder (fail closed). Only names bound to a
collection are checked: a text cannot change in place. The rules: docs/policy.md.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from .flow import _MUTATORS
from .names import _bound_names

# Builtins that read their arguments and keep no reference a caller could change them through.
_PURE_BUILTINS = frozenset(
    {
        "abs", "all", "any", "bool", "dict", "enumerate", "filter", "float", "format", "frozenset", "hash", "id",
        "int", "isinstance", "iter", "len", "list", "map", "max", "min", "next", "print", "range", "repr",
        "reversed", "round", "set", "sorted", "str", "sum", "tuple", "type", "zip",
    }
)  # fmt: skip
# Functions and methods that add to (or replace items of) a collection given as an argument.
_ADDERS = frozenset(
    {
        "append", "appendleft", "extend", "extendleft", "insert", "add", "update", "setdefault", "heappush",
        "heappushpop", "heapreplace", "insort", "insort_left", "insort_right", "iadd", "iconcat", "ior",
        "setitem", "setattr", "__setitem__", "__iadd__", "__ior__",
    }
)  # fmt: skip
# What makes a collection (syntactically): its name is checked for escapes.
_COLLECTION_MAKERS = frozenset(
    {
        "list", "set", "dict", "deque", "defaultdict", "Counter", "OrderedDict", "sorted", "listdir", "glob",
        "iglob", "split", "rsplit", "splitlines", "readlines", "copy", "fromkeys", "keys", "values", "items",
    }
)  # fmt: skip
# Methods and module functions that read a collection given to them and return something new (or nothing).
_READERS = frozenset(
    {
        "join", "dumps", "dump", "writerow", "writerows", "write", "writelines", "shuffle", "choice", "choices",
        "sample", "mean", "median", "mode", "multimode", "stdev", "pstdev", "variance", "pvariance", "fmean",
        "fsum", "prod", "nlargest", "nsmallest", "Counter", "chain", "islice", "groupby", "combinations",
        "permutations", "product", "bisect", "bisect_left", "bisect_right", "deepcopy", "pprint", "count", "index",
        "union", "intersection", "difference", "symmetric_difference", "issubset", "issuperset", "isdisjoint",
        "fromkeys", "accumulate", "starmap", "zip_longest", "pairwise", "quantiles", "most_common",
    }
)  # fmt: skip
_TYPES = frozenset({"list", "set", "dict", "deque", "frozenset", "collections", "OrderedDict", "defaultdict"})


def _makes_collection(node: ast.AST | None) -> bool:
    if isinstance(node, (ast.List, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.DictComp)):
        return True
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        return name in _COLLECTION_MAKERS
    return False


def _collection_names(tree: ast.AST) -> set[str]:
    """Names bound somewhere to a collection (an assignment, a walrus, an annotated assignment)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and _makes_collection(node.value):
            for target in node.targets:
                names |= _bound_names(target)
        elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)) and _makes_collection(node.value):
            names |= _bound_names(node.target)
    return names


class _Uses:
    """Whether every use of a name is one the scanner follows (see :func:`escaped_names`)."""

    def __init__(self, tree: ast.AST, inlined: dict[str, ast.FunctionDef]) -> None:
        self.parents: dict[int, ast.AST] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                self.parents[id(child)] = node
        self.tree = tree
        self.inlined = inlined
        self.local = _bound_names(tree)
        self._params: dict[tuple[str, str], bool] = {}  # (function, parameter) -> its uses are followed

    def loads(self, name: str, within: Iterable[ast.AST]) -> list[ast.Name]:
        return [
            n
            for root in within
            for n in ast.walk(root)
            if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
        ]

    def followed(self, name: str, within: Iterable[ast.AST]) -> bool:
        """Whether each use of ``name`` in ``within`` leaves no other way to its collection."""
        return all(self.use_followed(n) for n in self.loads(name, within))

    def use_followed(self, node: ast.Name) -> bool:
        parent = self.parents.get(id(node))
        if isinstance(parent, (ast.For, ast.AsyncFor, ast.comprehension)):
            return parent.iter is node or self.tested(node)
        if isinstance(parent, ast.Attribute):  # names.method
            grand = self.parents.get(id(parent))
            called = isinstance(grand, ast.Call) and grand.func is parent
            if parent.attr.startswith("_"):
                return False
            return called or parent.attr not in _MUTATORS  # a bound adder taken as a value changes it unseen
        if isinstance(parent, ast.Subscript):
            return parent.value is not node or isinstance(parent.ctx, ast.Load)  # names[0] = x: unseen
        if isinstance(parent, ast.Call):
            return node is not parent.func and self.argument_followed(parent, node)
        if isinstance(parent, ast.keyword):
            grand = self.parents.get(id(parent))
            return isinstance(grand, ast.Call) and self.argument_followed(grand, node, parent.arg)
        if isinstance(parent, ast.Starred):  # *names: its items (texts), not the collection
            return True
        if isinstance(parent, ast.AugAssign):
            return parent.value is node  # x += names: the items; names += ...: followed by the scanner
        if isinstance(parent, (ast.BoolOp, ast.UnaryOp, ast.If, ast.While, ast.Assert, ast.IfExp)):
            return self.tested(node)  # if not names: ...; x = names or []: another name for it
        return isinstance(parent, (ast.Compare, ast.FormattedValue, ast.BinOp, ast.Expr, ast.Delete))

    def tested(self, node: ast.AST) -> bool:
        """Whether ``node`` is only tested for truth: the test of an ``if``, ``while``, ``assert``, conditional
        expression or comprehension filter, or under ``not``, through ``and``/``or`` that are themselves tested
        (``names or []`` as a value is the collection itself)."""
        parent = self.parents.get(id(node))
        if isinstance(parent, ast.UnaryOp):
            return isinstance(parent.op, ast.Not)
        if isinstance(parent, ast.BoolOp):
            return self.tested(parent)
        if isinstance(parent, (ast.If, ast.While, ast.Assert, ast.IfExp)):
            return parent.test is node
        return isinstance(parent, ast.comprehension) and node in parent.ifs

    def argument_followed(self, call: ast.Call, node: ast.Name, keyword: str | None = None) -> bool:
        """Whether ``call`` only reads its argument ``node`` and returns or keeps nothing that is it: a builtin
        of :data:`_PURE_BUILTINS` (``min``, ``max``, ``sum``, ``next`` given it alone: ``min(names, names)`` is it), a
        method or module function of :data:`_READERS`, or a function read at its calls whose parameter is only
        read. As a keyword argument it escapes (``dict(k=names)``, ``SimpleNamespace(l=names)``)."""
        func = call.func
        if isinstance(func, ast.Name) and func.id in self.inlined:
            return self.parameter_followed(self.inlined[func.id], call, node, keyword)
        if keyword is not None:
            return False
        if isinstance(func, ast.Name):
            if func.id in ("min", "max", "sum", "next", "iter", "getattr") and call.args != [node]:
                return False  # min(names, names), sum([], names), next(it, names): it may come back
            return func.id in _PURE_BUILTINS and func.id not in self.local
        if isinstance(func, ast.Attribute):
            if func.attr in ("extend", "update", "extendleft"):  # other.extend(names): a copy of its items
                return not (isinstance(func.value, ast.Name) and func.value.id in _TYPES)  # list.extend(names, x)
            return func.attr in _READERS
        return False

    def parameter_followed(
        self, function: ast.FunctionDef, call: ast.Call, node: ast.Name, keyword: str | None
    ) -> bool:
        positional = [*function.args.posonlyargs, *function.args.args]
        if keyword is not None:
            param = keyword
        else:
            index = next((i for i, a in enumerate(call.args) if a is node), None)
            if index is None or index >= len(positional):
                return False
            param = positional[index].arg
        key = (function.name, param)
        if key not in self._params:
            self._params[key] = False  # recursion: not followed until shown to be
            self._params[key] = self.followed(param, function.body)
        return self._params[key]


def escaped_names(tree: ast.AST, inlined: dict[str, ast.FunctionDef]) -> frozenset[str]:
    """The collections of ``tree`` (by name) that may change in a way the scanner does not see."""
    names = _collection_names(tree)
    if not names:
        return frozenset()
    uses = _Uses(tree, inlined)
    return frozenset(name for name in names if not uses.followed(name, [tree]))


def mutated_names(tree: ast.AST) -> frozenset[str]:
    """Names changed in place somewhere (``names.append(x)``, ``names += [...]``): code that runs later than it
    is read (a function body, a generator) may see more than they held then."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.attr in _MUTATORS
        ):
            found.add(node.func.value.id)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            found.add(node.target.id)
    return frozenset(found)


def lazy_generators(tree: ast.AST) -> frozenset[int]:
    """Ids of the generator expressions that may run later than where they stand: all but those given straight
    to a builtin that consumes them, a module's function or a method (``sum(... for n in names)``)."""
    lazy: set[int] = set()
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, ast.GeneratorExp):
                continue
            func = node.func if isinstance(node, ast.Call) and child in node.args else None
            consumed = (
                isinstance(func, ast.Name)
                and func.id in _PURE_BUILTINS - {"iter", "map", "filter", "zip", "enumerate", "reversed"}
            ) or (
                isinstance(func, ast.Attribute)
                and not (isinstance(func.value, ast.Name) and func.value.id == "itertools")
            )
            if not consumed:
                lazy.add(id(child))
    return frozenset(lazy)


_DICT_MAKERS = frozenset({"dict", "defaultdict", "Counter", "OrderedDict", "fromkeys", "load", "loads", "DictReader"})


def dict_names(tree: ast.AST) -> frozenset[str]:
    """Names bound somewhere to a dict (a display, a comprehension, ``dict(...)``, ``json.load``): their items
    are keys, so ``d[0]`` is not one of the values the scanner knows for ``d``."""
    names: set[str] = set()
    for node in ast.walk(tree):
        value: ast.expr | None = None
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            value, targets = node.value, list(node.targets)
        elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)):
            value, targets = node.value, [node.target]
        func = value.func if isinstance(value, ast.Call) else None
        called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if isinstance(value, (ast.Dict, ast.DictComp)) or called in _DICT_MAKERS:
            for target in targets:
                names |= _bound_names(target)
    return frozenset(names)
