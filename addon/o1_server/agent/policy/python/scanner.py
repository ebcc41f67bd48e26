"""The Python scanner: parses a block (IPython ``!``/``%`` lines set aside) and walks its tree.

:class:`_PythonScanner` is its mixins put together (references, flow, calls, files) with the state they share.
"""

from __future__ import annotations

import ast
import re

from .. import nested
from ..findings import _Event, _Report
from .aliases import dict_names, escaped_names, lazy_generators, mutated_names
from .calls import _Calls
from .files import _Files
from .flow import _Flow
from .functions import _Functions, inlined_functions, scoped_names
from .names import _bind_counts, _bound_names, _user_attrs, exec_bound_names
from .numeric import builtins_trusted, number_names
from .references import _References
from .values import _BOUND_BEFORE, _Scope


def _scan_python(code: str, report: _Report, depth: int) -> None:
    """Classify Python code; a SyntaxError (after IPython ``!``/``%`` lines are set aside) is ``unparseable``."""
    tree: ast.Module | None
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError) as exc:
        tree = _parse_ipython(code, report, depth)
        if tree is None:
            line = getattr(exc, "lineno", None)
            where = f" on line {line}" if line else ""
            report.flag(
                "unparseable", f"Python syntax error{where}", _Event("unparseable", "run Python code I can't check")
            )
            return
    scanner = _PythonScanner(report, depth, tree)
    scanner.visit(tree)
    scanner.read_uncalled()


def _parse_ipython(code: str, report: _Report, depth: int) -> ast.Module | None:
    """Parse code with IPython ``!cmd`` / ``%magic`` lines; classify those lines. None if it still fails."""
    split = _split_ipython(code)
    if split is None:
        return None
    python, shell, magics = split
    try:
        tree = ast.parse(python)
    except (SyntaxError, ValueError):
        return None
    for command in shell:
        nested.scan("shell", command, report, depth + 1)
    for magic in magics:
        report.flag(
            "process_control",
            f"uses the IPython magic %{magic}",
            _Event("process", "run {}", f"the notebook command {magic}", "a notebook command"),
        )
    return tree


_MAGIC_SHELLS = {"pip": "pip", "conda": "conda", "mamba": "mamba", "uv": "uv", "sx": "", "system": "", "cd": "cd"}
_MAGIC_PYTHON = frozenset({"time", "timeit", "prun"})
_MAGIC_HARMLESS = frozenset({"matplotlib", "who", "whos", "pwd", "ls", "config", "precision", "pprint", "load_ext"})


def _split_ipython(code: str) -> tuple[str, list[str], list[str]] | None:
    """Set aside IPython syntax (Open Interpreter runs Python in a Jupyter kernel).

    Returns (Python code with those lines replaced by ``pass``, shell commands, other magic names), or None
    when there is no IPython syntax.
    """
    lines = code.splitlines()
    first = lines[0].strip() if lines else ""
    if first.startswith(("%%bash", "%%sh", "%%script", "%%shell", "%%system")):
        return "", ["\n".join(lines[1:])], []
    if first.startswith("%%"):
        return "", [], [first[2:].split()[0] if first[2:].split() else "cell magic"]
    python, shell, magics = [], [], []
    for line in lines:
        stripped = line.lstrip()
        indent = line[: len(line) - len(stripped)]
        assigned = re.match(r"([A-Za-z_]\w*)\s*=\s*!(.*)", stripped)
        if stripped.startswith("!"):
            shell.append(stripped.lstrip("!"))
            python.append(indent + "pass")
        elif assigned:
            shell.append(assigned.group(2))
            python.append(f"{indent}{assigned.group(1)} = []")
        elif stripped.startswith("%"):
            name, _, rest = stripped.lstrip("%").partition(" ")
            if name in _MAGIC_SHELLS:
                shell.append(f"{_MAGIC_SHELLS[name]} {rest}".strip())
            elif name not in _MAGIC_HARMLESS | _MAGIC_PYTHON:
                magics.append(name or "magic")
            python.append(indent + (rest if name in _MAGIC_PYTHON and rest else "pass"))
        else:
            python.append(line)
    if not (shell or magics) and python == lines:
        return None
    return "\n".join(python), shell, magics


class _PythonScanner(_References, _Flow, _Calls, _Files, _Functions):
    """Walks a Python AST: imports, names, calls, assignments and loops."""

    def __init__(self, report: _Report, depth: int, tree: ast.AST | None = None) -> None:
        self.report = report
        self.depth = depth
        self.scope = _Scope()
        self.loops = 0
        self.called: set[int] = set()  # ids of call targets whose call was analysed with its arguments
        self.nested = 0  # depth of function, class and comprehension bodies
        self.local_names = _bound_names(tree) if tree is not None else frozenset()
        self.scope.local_names = self.local_names
        self.user_attrs = _user_attrs(tree) if tree is not None else frozenset()
        self.modules: set[str] = set()  # names bound by ``import x`` (modules)
        self.star_modules: list[str] = []  # modules imported with ``from m import *``
        self.chain_inner: set[int] = set()  # inner nodes of a dotted module name (checked with the whole name)
        self.assigned: set[str] = set()  # names bound so far
        self.lambda_values: dict[int, dict[str, tuple[str, ...]]] = {}  # lambda parameters given listed items
        self.bind_counts = _bind_counts(tree) if tree is not None else {}
        self.scope.rebound = frozenset(n for n, count in self.bind_counts.items() if count > 1)
        self.attr_bases: set[int] = set()  # names that start a dotted module name
        self.mutations: list[tuple[str, tuple[str, ...]]] = []  # collections changed in place (see _Flow.mutate)
        self.inlined = (
            inlined_functions(tree, self.bind_counts) if tree is not None else {}
        )  # functions read at their calls
        self.hidden = scoped_names(tree) if tree is not None else frozenset()
        self.mutated = mutated_names(tree) if tree is not None else frozenset()
        self.lazy = lazy_generators(tree) if tree is not None else frozenset()
        if tree is not None:
            self.scope.volatile |= escaped_names(tree, self.inlined)  # changed where no name shows it
            self.scope.volatile |= exec_bound_names(tree)
            self.scope.dicts = set(dict_names(tree))
            self.scope.numbers = number_names(tree, _BOUND_BEFORE | self.scope.volatile)
            self.scope.builtins_trusted = builtins_trusted(tree)
        self.reading: list[str] = []
        self.read: set[str] = set()
        self.unknown_read: set[str] = set()
        self.call_reads = 0
        self.returning: list[list[tuple[str, ...]] | None] = []
        self.early: set[int] = set()


nested.register("python", _scan_python)
