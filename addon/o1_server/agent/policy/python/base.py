"""The common base of the Python scanner's mixins: the state they share and the methods they call on each other.

It declares types only (for the type checker); :class:`.scanner._PythonScanner` sets the state and each mixin
defines its methods. It adds no behaviour.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ..findings import _Report
from .values import _Scope


class _ScannerBase(ast.NodeVisitor):
    """The state of one Python scan (set by ``_PythonScanner.__init__``) and the mixins' shared methods."""

    report: _Report
    depth: int
    scope: _Scope
    loops: int
    called: set[int]  # ids of call targets whose call was analysed with its arguments
    nested: int  # depth of function, class and comprehension bodies
    local_names: frozenset[str]
    user_attrs: frozenset[str]
    modules: set[str]  # names bound by ``import x`` (modules)
    star_modules: list[str]  # modules imported with ``from m import *``
    chain_inner: set[int]  # inner nodes of a dotted module name (checked with the whole name)
    assigned: set[str]  # names bound so far
    lambda_values: dict[int, dict[str, tuple[str, ...]]]  # lambda parameters given listed items
    bind_counts: dict[str, int]
    attr_bases: set[int]  # names that start a dotted module name
    mutations: list[tuple[str, tuple[str, ...]]]  # collections changed in place, with what was added
    mutated: frozenset[str]  # names changed in place anywhere in the block (.aliases.mutated_names)
    lazy: frozenset[int]  # ids of generator expressions that may run later (.aliases.lazy_generators)
    returning: list[list[tuple[str, ...]] | None]  # per function body being read: its returns (.functions)
    early: set[int]  # calls visited before the call they stand in (.functions)

    if TYPE_CHECKING:
        # defined in .references (_References)
        def is_inlined(self, node: ast.AST) -> bool: ...
        def read_arguments_first(self, node: ast.Call) -> None: ...
        def read_call(self, node: ast.Call) -> None: ...
        def deferred(
            self,
            params: set[str],
            body: list[ast.AST],
            known: dict[str, tuple[str, ...]] | None = None,
            later: bool = True,
            hidden: frozenset[str] = frozenset(),
        ) -> None: ...
        def add_values(self, name: str, added: tuple[str, ...]) -> None: ...
        def apply_rules(self, qualname: str | None) -> None: ...
        def internals(self, what: str) -> None: ...
        def check_name(self, qualname: str, node: ast.AST, called: bool) -> None: ...
        def check_attribute(self, node: ast.Attribute, qualname: str | None) -> None: ...
        def check_format(self, templates: tuple[str, ...]) -> None: ...

        # defined in .flow (_Flow)
        def mutate(self, node: ast.Call) -> None: ...

        # defined in .calls (_Calls)
        def check_strings(self, node: ast.AST) -> None: ...
        def arg(self, node: ast.Call, index: int, *names: str) -> ast.expr | None: ...
        def paths(self, node: ast.AST | None) -> tuple[str, ...]: ...

        # defined in .files (_Files)
        def is_path(self, node: ast.AST) -> bool: ...
        def call_method(self, node: ast.Call, qualname: str | None) -> None: ...
        def call_path_unbound(self, node: ast.Call, qualname: str) -> None: ...
        def call_read(self, node: ast.Call, qualname: str) -> None: ...
        def call_chdir(self, node: ast.Call, qualname: str) -> None: ...
        def call_open(self, node: ast.Call, qualname: str) -> None: ...
        def call_os_open(self, node: ast.Call, qualname: str) -> None: ...
        def call_delete(self, node: ast.Call, qualname: str) -> None: ...
        def call_write(self, node: ast.Call, qualname: str) -> None: ...
