"""Names that hold only numbers wherever the block binds them: counters, loop variables of ``range()``.

A number's text holds only digits, a sign, a dot and an exponent, so ``f'note_{i}.txt'`` names a file in the
folder when ``i`` is one. :func:`number_names` finds such names for the whole block at once; the scanner's
:meth:`~.values._Scope.is_number` then reads them.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

from .names import bindings, methods

_ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)
_NUMBER_CALLS = frozenset({"len", "int", "float"})  # builtins whose result is always an exact int or float
_OF_NUMBERS = frozenset({"abs", "round", "min", "max"})  # builtins whose result is a number when given numbers
_ITEM_CALLS = frozenset({"range", "reversed", "enumerate", "divmod", "sum"}) | _NUMBER_CALLS | _OF_NUMBERS

# Names through which code may call a function the block defines without the block showing the call.
_DYNAMIC = frozenset({"exec", "eval", "compile", "globals", "locals", "vars", "getattr", "__import__", "__builtins__"})
Binding = Callable[[frozenset[str]], bool]  # whether a binding gives a number when the names given hold numbers


def number_names(tree: ast.AST, exclude: frozenset[str]) -> frozenset[str]:
    """The names of ``tree`` that every binding gives a number: ``i = 0``, ``i += 1``, ``n = len(x)``,
    ``for i in range(3)`` (or ``reversed(range(3))``), ``for i, x in enumerate(...)``, the parameter of a
    function every call of which passes a number there (:func:`_parameters`).

    Any other binding anywhere in the block (another parameter, an import, ``with ... as i``, a tuple target the
    module does not follow) makes the name not a number. Sound by induction over the run: no name in the result
    exists before the block (``exclude`` holds the builtins and the prelude's names), so each is read only
    after one of its bindings, and each binding computes a number from numbers. A builtin call counts only when
    the block binds no name of :data:`_ITEM_CALLS` and has no star import (either could replace it)."""
    trusted = builtins_trusted(tree)
    given: dict[str, list[Binding]] = {}
    followed: set[int] = set()
    for name, target, binding in [*_followed_bindings(tree, trusted), *_parameters(tree, trusted)]:
        given.setdefault(name, []).append(binding)
        followed.add(id(target))
    for name, node in bindings(tree):
        if id(node) not in followed:
            given.setdefault(name, []).append(lambda _names: False)
    names = frozenset(given) - exclude
    while True:  # the largest set whose every binding gives a number from numbers
        kept = frozenset(n for n in names if all(binding(names) for binding in given[n]))
        if kept == names:
            return names
        names = kept


def builtins_trusted(tree: ast.AST) -> bool:
    """Whether the plain names of the builtins this module reads (``range``, ``len``...) are the builtins in
    ``tree``: it binds none of them in any way (``def range``, ``import x as len``, a parameter, a ``case``) and
    has no star import."""
    if any(isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names) for n in ast.walk(tree)):
        return False
    return not (_ITEM_CALLS & {name for name, _ in bindings(tree)})


def is_number_expression(node: ast.AST, names: frozenset[str], builtin: Callable[[ast.expr], str | None]) -> bool:
    """Whether ``node`` surely computes a number when ``names`` hold numbers: a literal, one of ``names``,
    ``len(x)``, ``int(x)``, ``float(x)``, ``abs``/``round``/``min``/``max`` of numbers, and ``+ - * / // % **``
    of those. ``builtin`` names the builtin a call's function is (None: not surely one)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return is_number_expression(node.operand, names, builtin)
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.Name):
        return node.id in names
    if isinstance(node, ast.BinOp) and isinstance(node.op, _ARITHMETIC):
        return is_number_expression(node.left, names, builtin) and is_number_expression(node.right, names, builtin)
    if not isinstance(node, ast.Call) or node.keywords or not node.args:
        return False
    func = builtin(node.func)
    if func in _NUMBER_CALLS:
        return len(node.args) == 1 and not isinstance(node.args[0], ast.Starred)
    if func in ("abs", "round") and len(node.args) > 2 - (func == "abs"):
        return False
    if func == "sum" and len(node.args) == 1 and isinstance(node.args[0], (ast.GeneratorExp, ast.ListComp)):
        return is_number_expression(node.args[0].elt, names, builtin)  # sum(len(x) for x in rows)
    return func in _OF_NUMBERS and all(is_number_expression(a, names, builtin) for a in node.args)


def plain_builtin(trusted: bool) -> Callable[[ast.expr], str | None]:
    """The builtin a function expression names by its plain name, when ``trusted`` (see :func:`number_names`)."""
    return lambda func: func.id if trusted and isinstance(func, ast.Name) else None


def _followed_bindings(tree: ast.AST, trusted: bool) -> Iterator[tuple[str, ast.Name, Binding]]:
    """The bindings this module reads: (name, its target node, whether it gives a number)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                yield from _pairs(target, node.value, trusted)
        elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
            yield from _pairs(node.target, node.value, trusted)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            yield node.target.id, node.target, _step(node, trusted)
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            yield from _loop_pairs(node.target, node.iter, trusted)


def _parameters(tree: ast.AST, trusted: bool) -> Iterator[tuple[str, ast.AST, Binding]]:
    """The positional parameters of a function the block only calls by its name (``def save(i)`` then
    ``save(n)``): a number when every call passes one there, or leaves it to a number default. Only for a
    ``def`` outside a class, with no decorator, bound once, whose name is used nowhere but as the called
    function of calls with neither ``*`` nor keywords, in a block with no way to call it unseen (exec, eval,
    getattr, globals...)."""
    nodes = list(ast.walk(tree))  # one walk: every function below looks up its uses and calls here
    uses: dict[str, list[ast.Name]] = {}
    for node in nodes:
        if isinstance(node, ast.Name):
            uses.setdefault(node.id, []).append(node)
    if not trusted or _DYNAMIC & uses.keys():
        return
    in_class = methods(tree)
    calls_of: dict[int, ast.Call] = {id(n.func): n for n in nodes if isinstance(n, ast.Call)}
    bound: dict[str, list[ast.AST]] = {}
    for name, node in bindings(tree):
        bound.setdefault(name, []).append(node)
    changed = {x for n in nodes if isinstance(n, (ast.Global, ast.Nonlocal)) for x in n.names}
    for function in nodes:
        if (
            not isinstance(function, ast.FunctionDef)
            or function.decorator_list
            or id(function) in in_class
            or function.name in changed
            or bound.get(function.name) != [function]
        ):
            continue
        named = uses.get(function.name, [])
        calls = [calls_of[id(u)] for u in named if id(u) in calls_of]
        if not calls or len(calls) != len(named) or any(_starred_or_keyword(c) for c in calls):
            continue
        params = [*function.args.posonlyargs, *function.args.args]
        defaults = dict(zip(reversed(params), reversed(function.args.defaults), strict=False))
        for index, param in enumerate(params):
            given = [c.args[index] if index < len(c.args) else defaults.get(param) for c in calls]
            yield param.arg, param, _all_numbers(given, trusted)


def _all_numbers(given: list[ast.expr | None], trusted: bool) -> Binding:
    """Whether every expression ``given`` (None: none given) is a number."""
    return lambda names: all(g is not None and _number(g, names, trusted) for g in given)


def _starred_or_keyword(call: ast.Call) -> bool:
    return bool(call.keywords) or any(isinstance(a, ast.Starred) for a in call.args)


def _pairs(target: ast.AST, value: ast.expr, trusted: bool) -> Iterator[tuple[str, ast.Name, Binding]]:
    """``i = value`` and ``i, j = a, b`` (the same number of items, none starred)."""
    if isinstance(target, ast.Name):
        yield target.id, target, lambda names: _number(value, names, trusted)
    elif isinstance(target, (ast.Tuple, ast.List)) and _divmod(target, value, trusted):  # h, m = divmod(t, 60)
        args = value.args  # type: ignore[attr-defined]  # a call, see _divmod
        for item in target.elts:
            if isinstance(item, ast.Name):  # all are, see _divmod
                yield item.id, item, lambda names: all(_number(a, names, trusted) for a in args)
    elif (
        isinstance(target, (ast.Tuple, ast.List))
        and isinstance(value, (ast.Tuple, ast.List))
        and len(target.elts) == len(value.elts)
        and not any(isinstance(e, ast.Starred) for e in (*target.elts, *value.elts))
    ):
        for item_target, item_value in zip(target.elts, value.elts, strict=True):
            yield from _pairs(item_target, item_value, trusted)


def _loop_pairs(target: ast.AST, iterable: ast.expr, trusted: bool) -> Iterator[tuple[str, ast.Name, Binding]]:
    """``for i in range(...)``, ``for i in reversed(range(...))``, ``for i in [1, 2, 3]``, ``for i, x in
    enumerate(...)``."""
    func = _builtin(iterable) if trusted else None
    if func == "reversed" and isinstance(iterable, ast.Call) and len(iterable.args) == 1:
        func = "range" if _builtin(iterable.args[0]) == "range" else None
    if isinstance(target, ast.Name) and func == "range":
        yield target.id, target, lambda _names: True
    elif isinstance(target, ast.Name) and isinstance(iterable, (ast.List, ast.Tuple, ast.Set)) and iterable.elts:
        items = iterable.elts  # for i in [1, 2, 3]
        yield target.id, target, lambda names: all(_number(e, names, trusted) for e in items)
    elif isinstance(target, (ast.Tuple, ast.List)) and target.elts and func == "enumerate":
        count = target.elts[0]
        if isinstance(count, ast.Name):
            yield count.id, count, lambda _names: True


def _divmod(target: ast.AST, value: ast.expr, trusted: bool) -> bool:
    """``a, b = divmod(x, y)``: two plain names given the builtin's two numbers (read as ``divmod(x, y)``)."""
    return (
        trusted
        and isinstance(target, (ast.Tuple, ast.List))
        and len(target.elts) == 2
        and all(isinstance(e, ast.Name) for e in target.elts)
        and _builtin(value) == "divmod"
        and isinstance(value, ast.Call)
        and len(value.args) == 2
        and not value.keywords
        and not any(isinstance(a, ast.Starred) for a in value.args)
    )


def _step(node: ast.AugAssign, trusted: bool) -> Binding:
    """``i += 1``: a number when the step is one (``i`` itself is one by the induction of :func:`number_names`)."""
    arithmetic = isinstance(node.op, _ARITHMETIC)
    return lambda names: arithmetic and _number(node.value, names, trusted)


def _number(value: ast.expr, names: frozenset[str], trusted: bool) -> bool:
    return is_number_expression(value, names, plain_builtin(trusted))


def _builtin(node: ast.AST) -> str | None:
    """The builtin a call calls by its plain name (``range(3)`` -> "range"), else None."""
    return node.func.id if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) else None
