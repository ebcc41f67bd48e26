"""Mixin of the Python scanner: bindings, branches, loops and function bodies, so names keep known values.

Part of :class:`.scanner._PythonScanner`; it uses the scanner's state and the other mixins' methods. What is
bound on only some paths becomes unknown (see docs/policy.md).
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterable

from ..paths import HOLE
from .base import _ScannerBase
from .names import _bound_names
from .values import _combine, capped

# What the scanner knows at one point: the values of names, the names assigned, the names holding a collection.
_State = tuple[dict[str, tuple[str, ...]], frozenset[str], frozenset[str]]

# Methods that add to a list, set, deque or dict in place.
_MUTATORS = frozenset({"append", "appendleft", "extend", "extendleft", "insert", "add", "update", "setdefault"})


class _Flow(_ScannerBase):
    """Function and class bodies, branches, ``try``, ``match``, assignments, loops and comprehensions."""

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        """A function's body runs later, when outer names may hold other values: inside it a name bound more
        than once in the block, or a parameter, is unknown. Its own bindings don't leak out."""
        for decorator in getattr(node, "decorator_list", []):
            self.visit(decorator)
        self.visit(node.args)
        returns = getattr(node, "returns", None)
        if returns is not None:
            self.visit(returns)
        if self.is_inlined(node):
            return  # read at its calls (.functions)
        params = {a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)}
        body: list[ast.AST] = list(node.body) if isinstance(node.body, list) else [node.body]
        self.returning.append(None)  # its returns are not the values of any call
        before = set(self.scope.collections)
        self.scope.collections -= params  # a parameter is no outer list of that name (``lambda files: files[1:]``)
        try:
            self.deferred(params, body, self.lambda_values.pop(id(node), {}))
        finally:
            self.returning.pop()
            self.scope.collections = before

    visit_AsyncFunctionDef = visit_Lambda = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        """A class body runs now, in its own namespace: its bindings don't leak out."""
        for child in [*node.decorator_list, *node.bases, *node.keywords]:
            self.visit(child)
        saved = self.save()
        self.nested += 1
        try:
            for statement in node.body:
                self.visit(statement)
        finally:
            self.nested -= 1
            self.restore(saved)

    def deferred(
        self,
        params: set[str],
        body: list[ast.AST],
        known: dict[str, tuple[str, ...]] | None = None,
        later: bool = True,
        hidden: frozenset[str] = frozenset(),
    ) -> None:
        """Visit code that runs later (function, lambda, generator): outer values that may change are unknown.
        ``known``: parameters whose values are known (a lambda given to sorted/map gets the listed items).
        ``later`` False: the body runs now (a function read at its call), so a collection changed in place keeps
        what it holds now. ``hidden``: names the body cannot see (the caller's own, see .functions)."""
        saved = self.save()
        changing = {n for n, count in self.bind_counts.items() if count > 1} | (self.mutated if later else set())
        for name in params | changing | hidden:
            self.scope.env.pop(name, None)
        for name, values in (known or {}).items():
            if values:
                self.scope.env[name] = values
        self.nested += 1
        done = len(self.mutations)
        try:
            for statement in body:
                self.visit(statement)
        finally:
            self.nested -= 1
            self.restore(saved)
            for name, added in self.mutations[done:]:  # the body may run: what it adds to outer names is theirs
                self.add_values(name, added)

    def save(self) -> _State:
        """The current values of names, what is assigned and which names hold a collection (to restore or join
        later)."""
        return dict(self.scope.env), frozenset(self.assigned), frozenset(self.scope.collections)

    def restore(self, saved: _State) -> None:
        self.scope.env = dict(saved[0])
        self.assigned = set(saved[1])
        self.scope.collections = set(saved[2])

    def join(self, start: _State, *ends: _State) -> None:
        """After branches: a name keeps values only if every branch knows them (their union); a name first
        bound in some branch keeps what those branches know. A name holds a collection only if it does after
        every branch (``s = 'a/b'`` then ``if x: s = [...]``: ``s[1:]`` may be the text's "/b")."""
        env: dict[str, tuple[str, ...]] = {}
        names = set().union(*(e[0] for e in ends))
        for name in names:
            known = [e[0].get(name) for e in ends if name in e[0] or name in start[1] or name in e[1]]
            if known and all(v is not None for v in known):
                merged = capped(itertools.chain.from_iterable(v for v in known if v is not None))  # all are known
                if merged or not any(known):
                    env[name] = merged
        self.scope.env = env
        self.assigned = set().union(*(e[1] for e in ends))
        self.scope.collections = set.intersection(*(set(e[2]) for e in ends))

    def forget(self, nodes: Iterable[ast.AST], only_assigned: bool = True) -> None:
        """Make names bound anywhere in ``nodes`` unknown (those bound before, or all)."""
        for name in set().union(*(_bound_names(n) for n in nodes)):
            if not only_assigned or name in self.assigned:
                self.scope.env.pop(name, None)

    def visit_If(self, node: ast.If) -> None:
        self.visit(node.test)
        start = self.save()
        for statement in node.body:
            self.visit(statement)
        after_body = self.save()
        self.restore(start)
        for statement in node.orelse:
            self.visit(statement)
        self.join(start, after_body, self.save())

    def visit_Try(self, node: ast.Try | ast.TryStar) -> None:
        """Any statement of the body may raise: handlers and what follows can't rely on its bindings."""
        for statement in node.body:
            self.visit(statement)
        for handler in node.handlers:
            self.forget([*node.body, *node.handlers], only_assigned=False)
            self.visit(handler)
        for statement in node.orelse:
            self.visit(statement)
        self.forget([*node.body, *node.handlers, *node.orelse], only_assigned=False)
        for statement in node.finalbody:
            self.visit(statement)

    visit_TryStar = visit_Try

    def visit_Match(self, node: ast.Match) -> None:
        self.visit(node.subject)
        start = self.save()
        ends = [start]
        for case in node.cases:
            self.restore(start)
            self.forget([case.pattern], only_assigned=False)
            self.visit(case.pattern)
            if case.guard is not None:
                self.visit(case.guard)
            for statement in case.body:
                self.visit(statement)
            ends.append(self.save())
        self.join(start, *ends)

    def visit_Global(self, node: ast.Global | ast.Nonlocal) -> None:
        self.scope.volatile |= set(node.names)

    visit_Nonlocal = visit_Global

    def visit_Delete(self, node: ast.Delete) -> None:
        self.generic_visit(node)
        for target in node.targets:
            self.forget([target], only_assigned=False)

    # -- assignments and loops

    def bind(self, target: ast.AST, value: ast.AST | None, values: tuple[str, ...]) -> None:
        """Remember what a name now holds; names in a tuple target get their element, or nothing known."""
        if isinstance(target, (ast.Tuple, ast.List)):
            parts = self.scope.splitext_parts(value) if value is not None else None
            if parts is not None and len(target.elts) == 2 and all(isinstance(e, ast.Name) for e in target.elts):
                for element, part in zip(target.elts, parts, strict=True):
                    self.bind(element, None, part)
                return
            elements = value.elts if isinstance(value, (ast.Tuple, ast.List)) else None
            if (
                elements is not None
                and len(elements) == len(target.elts)
                and not any(isinstance(e, ast.Starred) for e in [*elements, *target.elts])
            ):
                for element, item in zip(target.elts, elements, strict=True):  # lengths checked above
                    self.bind(element, item, self.scope.values(item))
            else:
                for name in _bound_names(target):
                    self.bind(ast.Name(id=name, ctx=ast.Store()), None, ())
            return
        if isinstance(target, ast.Starred):
            self.bind(target.value, None, ())
            return
        if not isinstance(target, ast.Name):
            return
        if not self.nested:
            self.scope.shadowed.add(target.id)
        self.assigned.add(target.id)
        if value is not None and self.scope.is_collection(value):
            self.scope.collections.add(target.id)
        else:
            self.scope.collections.discard(target.id)
        self.scope.env.pop(target.id, None)
        if target.id not in self.scope.import_names:
            # an imported name rebound (maybe only on some path) still resolves to what was imported: calls
            # through it are judged as that module's, never as harmless methods of an unknown value
            self.scope.aliases.pop(target.id, None)
        if value is not None and self.is_path(value):
            self.scope.path_names.add(target.id)  # never removed: a name that may hold a path is checked as one
        if values:
            self.scope.env[target.id] = values
        elif value is not None and _is_empty(value):
            self.scope.env[target.id] = ()  # known to hold nothing yet: what is added to it is all it holds
        ref = self.scope.module_ref(value) if value is not None else None
        if ref:
            self.scope.aliases[target.id] = ref

    def bind_loop(self, target: ast.AST, iterable: ast.AST) -> None:
        """Bind a loop variable to what the iterable yields; tuples from enumerate, zip and os.walk too."""
        if not isinstance(target, (ast.Tuple, ast.List)):
            self.bind(target, None, self.scope.items(iterable))
            return
        items = self.scope.loop_items(target, iterable)
        for name in _bound_names(target):
            self.bind(ast.Name(id=name, ctx=ast.Store()), None, items.get(name, ()))

    def visit_With(self, node: ast.With | ast.AsyncWith) -> None:
        for item in node.items:
            self.visit(item.context_expr)
            if item.optional_vars is not None:
                self.visit(item.optional_vars)
                self.bind(item.optional_vars, item.context_expr, self.scope.values(item.context_expr))
        for statement in node.body:
            self.visit(statement)
        self.forget(node.body)  # a context manager may stop the body early (contextlib.suppress)

    visit_AsyncWith = visit_With

    def visit_Assign(self, node: ast.Assign) -> None:
        self.generic_visit(node)
        values = self.scope.values(node.value)
        for target in node.targets:
            self.bind(target, node.value, values)
        self.check_strings(node.value)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self.generic_visit(node)
        if node.value is not None:
            self.bind(node.target, node.value, self.scope.values(node.value))
            self.check_strings(node.value)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        """``:=`` often sits in a condition that may not run: a name bound before keeps both values."""
        self.generic_visit(node)
        name = node.target.id
        before = self.scope.env.get(name) if name not in self.assigned or name in self.scope.env else None
        was_assigned = name in self.assigned
        was_collection = name in self.scope.collections
        self.bind(node.target, node.value, self.scope.values(node.value))
        now = self.scope.env.get(name)
        if was_assigned:
            if not was_collection:  # it may still hold the text it held: ``s[1:]`` is no list's items
                self.scope.collections.discard(name)
            if before is None or now is None:
                self.scope.env.pop(name, None)
            elif (both := capped(before + now)) or not (before or now):
                self.scope.env[name] = both
            else:  # more values than are followed: unknown
                self.scope.env.pop(name, None)

    def mutate(self, node: ast.Call) -> None:
        """A collection changed in place (``names.append(x)``, ``.extend``, ``.insert``, ``.add``, ``.update``...):
        what it holds is what it held and what was added; an addition known only at run time is HOLE."""
        func = node.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)) or func.attr not in _MUTATORS:
            return
        name = func.value.id
        if name not in self.scope.env and name not in self.scope.collections:
            return  # unknown already (its uses are checked as such)
        if func.attr in ("extend", "update", "extendleft") and node.args:
            added = self.scope.items(node.args[0]) if not isinstance(node.args[0], ast.Dict) else ()
        elif func.attr == "insert" and len(node.args) > 1:
            added = self.scope.values(node.args[1])
        elif func.attr in ("append", "appendleft", "add") and node.args:
            added = self.scope.values(node.args[0])
        else:  # setdefault, a dict's update, keywords: not followed
            added = ()
        self.mutations.append((name, added or (HOLE,)))
        self.add_values(name, added or (HOLE,))

    def add_values(self, name: str, added: tuple[str, ...]) -> None:
        """``name`` may now also hold ``added`` (a name with no known values stays unknown)."""
        old = self.scope.env.get(name)
        if old is not None and (both := capped(old + added)):
            self.scope.env[name] = both
        elif old is not None:  # more values than are followed: unknown
            self.scope.env.pop(name, None)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self.generic_visit(node)
        target = node.target
        if (
            isinstance(target, ast.Name)
            and isinstance(node.op, (ast.Add, ast.BitOr))
            and (target.id in self.scope.collections or self.scope.is_collection(node.value))
        ):  # names += [...], a_set |= {...}: the items of both
            added = self.scope.items(node.value) or (HOLE,)
            self.mutations.append((target.id, added))
            self.add_values(target.id, added)
            return
        if isinstance(node.target, ast.Name) and isinstance(node.op, ast.Add):
            old = self.scope.env.get(node.target.id, ())
            new = self.scope.values(node.value)
            combined = _combine([old or (HOLE,), new or (HOLE,)], "".join) if old or new else ()
            self.bind(node.target, None, combined)

    def loop(self, node: ast.AST, target: ast.AST | None = None, iterable: ast.AST | None = None) -> None:
        """Visit a loop body knowing we are in a loop; bind a ``for`` variable to the iterable's values.

        A later turn of the loop sees what an earlier one bound, and the loop may not run at all: names bound
        in it that had values before are unknown inside it and after it."""
        body = [*getattr(node, "body", []), *([node.test] if isinstance(node, ast.While) else [])]
        if iterable is not None:
            self.visit(iterable)
            self.check_strings(iterable)
        start = self.save()
        self.forget(body)
        if target is not None and iterable is not None:  # a loop with a target (``for``) has an iterable
            self.bind_loop(target, iterable)
        self.loops += 1
        try:
            for field in ("test", "body"):
                value = getattr(node, field, None)
                for child in value if isinstance(value, list) else [value] if value is not None else []:
                    self.visit(child)
        finally:
            self.loops -= 1
        self.join(start, start, self.save())
        self.forget(body)
        for child in getattr(node, "orelse", []):
            self.visit(child)

    def visit_For(self, node: ast.For | ast.AsyncFor) -> None:
        self.loop(node, node.target, node.iter)

    visit_AsyncFor = visit_For

    def visit_While(self, node: ast.While) -> None:
        self.loop(node)

    def visit_comprehension_node(self, node: ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp) -> None:
        """List/set/dict comprehensions and generators: generators first, then the element. Their loop
        variables are their own; a generator expression runs later, when outer names may have changed."""
        generators = node.generators
        self.visit(generators[0].iter)  # evaluated at once, in the enclosing scope
        saved = self.save()
        if isinstance(node, ast.GeneratorExp) and id(node) in self.lazy:
            # It runs later (stored, or given to what keeps it): names bound again or changed in place may hold
            # more by then (generators consumed where they stand, sum(... for n in names), run now).
            for name in {n for n, count in self.bind_counts.items() if count > 1} | self.mutated:
                self.scope.env.pop(name, None)
        self.loops += 1
        self.nested += 1
        try:
            for index, generator in enumerate(generators):
                if index:
                    self.visit(generator.iter)
                self.bind_loop(generator.target, generator.iter)
                for condition in generator.ifs:
                    self.visit(condition)
            for field in ("elt", "key", "value"):
                if getattr(node, field, None) is not None:
                    self.visit(getattr(node, field))
        finally:
            self.loops -= 1
            self.nested -= 1
            targets = set().union(*(_bound_names(g.target) for g in generators))
            for name in targets:  # restore the enclosing scope's values of the loop variables
                self.scope.env.pop(name, None)
                if name in saved[0]:
                    self.scope.env[name] = saved[0][name]

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_comprehension_node


def _is_empty(node: ast.AST) -> bool:
    """Whether ``node`` is an empty list, set, tuple or dict: ``[]``, ``()``, ``{}``, ``list()``, ``set()``..."""
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return not node.elts
    if isinstance(node, ast.Dict):
        return not node.keys
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("list", "set", "tuple", "dict")
        and not node.args
        and not node.keywords
    )
