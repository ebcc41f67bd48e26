"""Names in Python code: what the kernel may know, what the code binds, and dotted names (``sp.run``).

:class:`_Names` resolves an expression to the qualified name it refers to; the string values names hold
are :mod:`.values`' business.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..paths import HOLE
from . import allowlist

# Names a persistent Jupyter kernel may know without an import in this block (an earlier block imported them).
_DEFAULT_NAMES = {
    **{
        m: m
        for m in (
            "os",
            "sys",
            "shutil",
            "subprocess",
            "socket",
            "signal",
            "ctypes",
            "multiprocessing",
            "importlib",
            "pathlib",
            "glob",
            "io",
            "codecs",
            "tempfile",
            "urllib",
            "http",
            "requests",
            "httpx",
            "aiohttp",
            "ftplib",
            "smtplib",
            "telnetlib",
            "pty",
            "runpy",
            "pip",
            "o1_ha",
            "asyncio",
            "zipfile",
            "tarfile",
            "numpy",
            "pandas",
            "builtins",
        )
    },
    "Path": "pathlib.Path",
    "np": "numpy",
    "pd": "pandas",
    "system": "os.system",
    "popen": "os.popen",
    "rmtree": "shutil.rmtree",
    "Popen": "subprocess.Popen",
    "check_output": "subprocess.check_output",
    "check_call": "subprocess.check_call",
    "urlopen": "urllib.request.urlopen",
}
# Builtins that name themselves (``open`` is the qualified name ``open``), so the rule tables can list them.
_BUILTINS = frozenset(
    {
        "open",
        "eval",
        "exec",
        "compile",
        "__import__",
        "getattr",
        "print",
        "globals",
        "locals",
        "vars",
        "breakpoint",
        "str",
        "repr",
        "len",
        "input",
        "setattr",
        "delattr",
        "format",
        "isinstance",
        "int",
        "float",
    }
)
_BUILTIN_NAMES = frozenset(dir(__import__("builtins")))


def _bound_names(tree: ast.AST) -> frozenset[str]:
    """Every name the code binds itself (assignments, loops, parameters, functions, classes, except, with)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif (
            isinstance(
                node,
                (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.ExceptHandler, ast.MatchAs, ast.MatchStar),
            )
            and node.name
        ):  # a def or class always has a name
            names.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names.add(node.rest)
    return frozenset(names)


_CODE_RUNNERS = frozenset({"exec", "eval", "compile"})


def exec_bound_names(tree: ast.AST) -> frozenset[str]:
    """Names that code run by ``exec``/``eval``/``compile`` may bind: when the block calls one of them, those
    bound by any text of the block that parses as Python. Known before the walk, so a read earlier in a loop
    than the ``exec`` that rebinds the name sees it unknown too."""
    if not any(
        isinstance(n, ast.Call)
        and (n.func.id if isinstance(n.func, ast.Name) else getattr(n.func, "attr", None)) in _CODE_RUNNERS
        for n in ast.walk(tree)
    ):
        return frozenset()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                names |= set(_bind_counts(ast.parse(node.value)))  # imports and definitions too
            except (SyntaxError, ValueError):
                continue
    return frozenset(names)


def bindings(tree: ast.AST) -> Iterator[tuple[str, ast.AST]]:
    """Every binding of ``tree`` as (name, the node that binds it): stored names, parameters, definitions,
    imports (``import os.path`` binds ``os``), ``except ... as``, match captures. ``del`` and ``global`` bind
    nothing here (see :func:`_bind_counts`)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            yield node.id, node
        elif isinstance(node, ast.arg):
            yield node.arg, node
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name, node
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                yield (alias.asname or alias.name).split(".")[0], node
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            yield node.name, node
        elif isinstance(node, ast.MatchMapping) and node.rest:
            yield node.rest, node


def methods(tree: ast.AST) -> frozenset[int]:
    """The ids of the defs whose scope is a class body, also under an ``if``, ``try`` or ``with`` there: Python
    calls them unseen (``c[x]`` calls ``__getitem__``), so their calls in the block are not all their calls."""
    found: set[int] = set()
    for node in ast.walk(tree):
        todo: list[ast.AST] = list(node.body) if isinstance(node, ast.ClassDef) else []
        while todo:
            child = todo.pop()
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.add(id(child))
            elif not isinstance(child, (ast.Lambda, ast.ClassDef)):
                todo.extend(ast.iter_child_nodes(child))
    return frozenset(found)


def _bind_counts(tree: ast.AST) -> dict[str, int]:
    """How many places bind each name (:func:`bindings`; a ``del`` counts, and ``global``/``nonlocal`` twice:
    the name is changed from elsewhere)."""
    counts = Counter(name for name, _ in bindings(tree))
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Del):
            counts[node.id] += 1
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            counts.update(list(node.names) * 2)
    return dict(counts)


def _user_attrs(tree: ast.AST) -> frozenset[str]:
    """Attribute names the code defines itself: class members, ``obj.x = ...``, namedtuple fields, setattr."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    names.add(item.name)
                for target in (
                    item.targets
                    if isinstance(item, ast.Assign)
                    else [item.target]
                    if isinstance(item, ast.AnnAssign)
                    else []
                ):
                    names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load):
            names.add(node.attr)
        elif isinstance(node, ast.Call):
            names |= {k.arg for k in node.keywords if k.arg}
            for arg in node.args[1:3]:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    names |= set(re.findall(r"[A-Za-z_]\w*", arg.value))
                elif isinstance(arg, (ast.List, ast.Tuple)):
                    names |= {e.value for e in arg.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    return frozenset(n for n in names if not (n.startswith("__") and n.endswith("__"))) - allowlist.NEVER_ATTRS


class _Names:
    """What the Python scanner knows about names: import aliases, and names the code binds itself."""

    def __init__(self) -> None:
        self.aliases: dict[str, str] = {}
        self.shadowed: set[str] = set()  # names bound here, so not the kernel's modules of the same name
        self.local_names: frozenset[str] = frozenset()  # names the code binds other than by import
        self.import_names: set[str] = set()  # names bound by import: they keep resolving to the module

    if TYPE_CHECKING:

        def values(self, node: ast.AST | None) -> tuple[str, ...]: ...  # defined by the subclass .values._Scope

    def qualname(self, node: ast.AST) -> str | None:
        """The dotted name an expression refers to (``sp.run`` -> ``subprocess.run``), or None."""
        if isinstance(node, ast.Name):
            name = self.aliases.get(node.id)
            if name is None and node.id not in self.shadowed:
                name = _DEFAULT_NAMES.get(node.id)
            if (
                name is None
                and node.id in _BUILTINS
                and (
                    node.id in allowlist.DANGEROUS_BUILTINS  # rebinding exec on some path doesn't make it safe
                    or (node.id not in self.shadowed and node.id not in self.local_names)
                )
            ):
                name = node.id
            return name.removeprefix("builtins.") if name else None
        if isinstance(node, ast.Attribute):
            base = self.qualname(node.value)
            return f"{base}.{node.attr}".removeprefix("builtins.") if base else None
        if isinstance(node, ast.Call):
            return self.call_result_name(node)
        return None

    def trusted(self, node: ast.AST) -> str | None:
        """The dotted name of a function whose *result* is trusted (``os.getcwd()`` is '.'), or None when its
        first name is also bound by the code itself (``def getcwd(): ...``, ``class date: ...``)."""
        base = node
        while isinstance(base, (ast.Attribute, ast.Call)):
            base = base.value if isinstance(base, ast.Attribute) else base.func
        if isinstance(base, ast.Name) and base.id in self.local_names:
            return None
        return self.qualname(node)

    def call_result_name(self, node: ast.Call) -> str | None:
        """``__import__('os')`` -> ``os``; ``getattr(os, 'sys' + 'tem')`` -> ``os.system``."""
        func = self.qualname(node.func)
        if func in ("__import__", "importlib.import_module") and node.args:
            values = self.values(node.args[0])
            return values[0] if len(values) == 1 and HOLE not in values[0] else None
        if func == "getattr" and len(node.args) >= 2:
            base = self.qualname(node.args[0])
            names = self.values(node.args[1])
            if base and len(names) == 1 and HOLE not in names[0]:
                return f"{base}.{names[0]}"
        return None

    def module_ref(self, node: ast.AST) -> str | None:
        """The qualified name when ``node`` names a module or function (for ``s = os.system`` aliases)."""
        if isinstance(node, (ast.Name, ast.Attribute, ast.Call)):
            name = self.qualname(node)
            if name and (isinstance(node, ast.Call) or "." in name or name in _DEFAULT_NAMES.values()):
                return name
        return None
