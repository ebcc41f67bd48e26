"""Mixin of the Python scanner: a function the block defines and only ever calls by name is read at each call,
its parameters bound to what that call passes, and what it returns is the call's value.

``def count_lines(path)`` then ``count_lines('notes.txt')``: read where it is defined, ``path`` was unknown and the
``open`` counted as outside the sandbox. It holds only where every run of the body is a call the scanner sees:
the name bound once, no decorator, not a method, not ``async``, not a generator, and every other use a call
without ``*``/``**``. A recursive call, a call past :data:`MAX_CALL_READS` reads and a function never called
read the body with unknown parameters (fail closed). The rules: docs/policy.md.
"""

from __future__ import annotations

import ast

from .base import _ScannerBase
from .names import _bound_names, methods
from .values import _no_text

MAX_CALL_READS = 16
"""Bodies read at calls per block (a call inside an inlined body is read again: the count bounds the work)."""


def inlined_functions(tree: ast.AST, counts: dict[str, int]) -> dict[str, ast.FunctionDef]:
    """The functions of ``tree`` read at their calls, by name (see the module's docstring); ``counts``: how many
    places bind each name (``names._bind_counts``)."""
    in_class = methods(tree)
    found = {
        node.name: node
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef)
        and not node.decorator_list
        and counts.get(node.name) == 1
        and id(node) not in in_class
        and not _generates(node)
    }
    if not found:
        return {}
    calls = {
        id(node.func)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and not any(isinstance(a, ast.Starred) for a in node.args)
        and all(k.arg is not None for k in node.keywords)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in found and id(node) not in calls:
            found.pop(node.id)
    return found


def _generates(function: ast.FunctionDef) -> bool:
    """Whether ``function`` is a generator: its body runs when it is iterated, later than its call."""
    todo: list[ast.AST] = list(function.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))
    return False


def scoped_names(tree: ast.AST) -> frozenset[str]:
    """Names bound inside a function, lambda, class or comprehension, or by a ``match`` pattern: at a call, what
    they hold there is not what a function defined elsewhere sees under that name (``[save() for base in
    ['docs']]``: ``save`` reads the global ``base``), so a function read at its call does not see them."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            for part in [node.args] if isinstance(node, ast.Lambda) else []:
                names |= _bound_names(part)
            for child in [node.body] if isinstance(node, ast.Lambda) else node.body:
                names |= _bound_names(child)
            if not isinstance(node, (ast.Lambda, ast.ClassDef)):
                names |= _bound_names(node.args)
        elif isinstance(node, ast.comprehension):
            names |= _bound_names(node.target)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            names.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names.add(node.rest)
    return frozenset(names)


class _Functions(_ScannerBase):
    """Functions read at their calls."""

    inlined: dict[str, ast.FunctionDef]  # set by the scanner: inlined_functions(tree)
    reading: list[str]  # the inlined functions whose body is being read, innermost last
    read: set[str]  # inlined functions whose body was read at least once
    unknown_read: set[str]  # inlined functions whose body was read with unknown parameters
    call_reads: int  # bodies read at calls so far
    hidden: frozenset[str]  # names a function read at its call does not see (scoped_names)
    returning: list[list[tuple[str, ...]] | None]  # per function body being read: what its returns give
    early: set[int]  # calls visited before the call they stand in (read_arguments_first), skipped once after

    def is_inlined(self, node: ast.AST) -> bool:
        """Whether ``node`` is a def whose body is read at its calls instead of here."""
        return isinstance(node, ast.FunctionDef) and self.inlined.get(node.name) is node

    def read_call(self, node: ast.Call) -> None:
        """At a call of an inlined function: read its body with the values the call passes."""
        function = self.inlined.get(node.func.id) if isinstance(node.func, ast.Name) else None
        if function is None:
            return
        self.scope.returned.pop(id(node), None)  # an earlier read's returns were that read's (another context)
        if function.name in self.reading or self.call_reads >= MAX_CALL_READS:
            self.read_unknown(function)
            return
        self.call_reads += 1
        known, collections, given = self.arguments(function, node)
        self.reading.append(function.name)
        self.returning.append([])
        done = len(self.mutations)
        try:
            self.read_body(function, known, collections)
        finally:
            self.reading.pop()
            returned = self.returning.pop()
        if returned is not None and returned and all(returned):
            self.scope.returned[id(node)] = tuple(dict.fromkeys(v for r in returned for v in r))
        for name, added in self.mutations[done:]:  # what the body added to a parameter, its argument holds
            if name in given:
                self.mutations.append((given[name], added))
                self.add_values(given[name], added)

    def read_arguments_first(self, node: ast.Call) -> None:
        """Visit the calls of functions read at their calls that stand in ``node``'s arguments before ``node`` is
        judged: what they return is the argument's value (``open(todo_file(), 'a')``). Not inside a lambda or a
        comprehension of the arguments (their names are bound there)."""
        if not self.inlined:
            return
        todo: list[ast.AST] = [*node.args, *(k.value for k in node.keywords)]
        while todo:
            child = todo.pop()
            if isinstance(child, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                continue
            if isinstance(child, ast.Call) and isinstance(child.func, ast.Name) and child.func.id in self.inlined:
                self.visit(child)
                self.early.add(id(child))
                continue
            todo.extend(ast.iter_child_nodes(child))

    def visit_Return(self, node: ast.Return) -> None:
        """What a function read at its call returns (a text's values; None and numbers hold none): the values of
        that call (``open(path_for('notes'))``); one return with unknown values makes the call's unknown."""
        self.generic_visit(node)
        frame = self.returning[-1] if self.returning else None
        if frame is not None and node.value is not None and not _no_text(node.value):
            frame.append(self.scope.values(node.value))

    def read_unknown(self, function: ast.FunctionDef) -> None:
        """Read ``function``'s body once with its parameters unknown."""
        if function.name not in self.unknown_read:
            self.unknown_read.add(function.name)
            self.returning.append(None)  # what it returns here is no call's value
            try:
                self.read_body(function, {}, set())
            finally:
                self.returning.pop()

    def read_uncalled(self) -> None:
        """After the block: the inlined functions no call read are read with unknown parameters."""
        for function in list(self.inlined.values()):
            if function.name not in self.read:
                self.read_unknown(function)

    def read_body(self, function: ast.FunctionDef, known: dict[str, tuple[str, ...]], collections: set[str]) -> None:
        """Read ``function``'s body now, its parameters holding ``known`` (those in ``collections`` hold a
        collection; the others are not one, whatever an outer name of theirs is)."""
        self.read.add(function.name)
        params = {a.arg for a in ast.walk(function.args) if isinstance(a, ast.arg)}
        before = set(self.scope.collections)
        self.scope.collections = (self.scope.collections - params) | collections
        try:
            self.deferred(params, list(function.body), known, later=False, hidden=self.hidden - params)
        finally:
            self.scope.collections = before

    def constant_name(self, node: ast.expr | None) -> bool:
        """Whether a default is a name bound once, never changed in place and not one a call site may shadow
        (``DATA = 'data.json'`` then ``def lookup(name, path=DATA)``): it holds at the call what it held then."""
        return (
            isinstance(node, ast.Name)
            and self.bind_counts.get(node.id) == 1
            and node.id not in self.mutated
            and node.id not in self.hidden
            and node.id not in self.scope.volatile
        )

    def arguments(
        self, function: ast.FunctionDef, call: ast.Call
    ) -> tuple[dict[str, tuple[str, ...]], set[str], dict[str, str]]:
        """The values each parameter gets from ``call`` (a parameter left to a constant default gets that), the
        parameters given a collection (a list, a listing...), and those given a name (``add(names, x)``: lst ->
        names; what the body adds to the parameter, that name holds)."""
        given: dict[str, ast.expr] = {}
        positional = [*function.args.posonlyargs, *function.args.args]
        for param, arg in zip(positional, call.args, strict=False):
            given[param.arg] = arg
        keyword = {a.arg for a in [*function.args.args, *function.args.kwonlyargs]}
        for kw in call.keywords:
            if kw.arg in keyword:
                given[kw.arg] = kw.value
        defaults = zip(reversed(positional), reversed(function.args.defaults), strict=False)
        kw_defaults = zip(function.args.kwonlyargs, function.args.kw_defaults, strict=True)
        for param, default in [*defaults, *kw_defaults]:
            if param.arg not in given and (isinstance(default, ast.Constant) or self.constant_name(default)):
                given[param.arg] = default  # type: ignore[assignment]  # not None: checked just above
        known = {name: self.scope.values(value) for name, value in given.items()}
        collections = {name for name, value in given.items() if self.scope.is_collection(value)}
        return known, collections, {name: v.id for name, v in given.items() if isinstance(v, ast.Name)}
