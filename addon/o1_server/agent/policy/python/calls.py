"""Mixin of the Python scanner: calls, dispatched to the rule that reads their arguments.

Commands, code (``eval``), reflection, forks and Home Assistant; file calls are in :mod:`.files`. Part of
:class:`.scanner._PythonScanner`; it uses the scanner's state and the other mixins' methods.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from .. import nested
from ..findings import _Event
from ..paths import _URL, HOLE, host_of
from ..phrasing import _quote, _quote_all
from . import allowlist
from .base import _ScannerBase
from .names import _bind_counts
from .rules import (
    _CHDIR,
    _DELETERS,
    _DYNAMIC_CODE,
    _FORKS,
    _HA_FUNCTIONS,
    _HA_READS,
    _OPENERS,
    _OS_OPEN,
    _PATH_BUILDERS,
    _PATH_DELETE_METHODS,
    _PATH_WRITE_METHODS,
    _REFLECTION,
    _SAFE_DUNDERS,
    _TEXT_CALLS,
    _TEXT_METHODS,
    _TEXT_PREFIXES,
    _WRITERS,
    _command_shape,
    _is_known,
    _runs_command,
)
from .values import _Scope


class _Calls(_ScannerBase):
    """Calls: which rule reads a call's arguments, and the rules for commands, code and Home Assistant."""

    def visit_Call(self, node: ast.Call) -> None:
        if id(node) in self.early:
            self.early.discard(id(node))  # read already, before the call it stands in (.functions)
            return
        self.read_arguments_first(node)
        self.mutate(node)
        qualname = self.scope.qualname(node.func)
        self.apply_rules(qualname)
        handler = self.call_handler(node, qualname)
        self.called.add(id(node.func))  # called directly: what it gets is analysed here or harmless
        if handler is not None:
            handler(node, qualname)  # type: ignore[arg-type]  # None only for call_method, which takes None
        builtin = node.func.id if isinstance(node.func, ast.Name) and node.func.id not in self.local_names else None
        if builtin in ("map", "filter", "sorted", "max", "min"):
            self.callback(node, builtin)
        if qualname in _PATH_BUILDERS:
            self.check_strings(node)  # the joined path, not its pieces
        elif not self.is_text_call(node, qualname):
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                self.check_strings(arg)
        self.generic_visit(node)
        self.read_call(node)

    def call_handler(self, node: ast.Call, qualname: str | None) -> Callable[[ast.Call, str], None] | None:
        """The method that analyses this call's arguments, or None."""
        if qualname is None:
            return self.call_method if isinstance(node.func, ast.Attribute) else None
        tables = (
            (_OPENERS, self.call_open),
            (_DELETERS, self.call_delete),
            (_WRITERS, self.call_write),
            (_REFLECTION, self.call_reflection),
            (_DYNAMIC_CODE, self.call_eval),
            (_OS_OPEN, self.call_os_open),
            (_FORKS, self.call_fork),
            (allowlist.PATH_READERS, self.call_read),
            (_CHDIR, self.call_chdir),
        )
        handler = next((h for table, h in tables if qualname in table), None)
        if handler is None and _runs_command(qualname):
            handler = self.call_command
        if (
            handler is None
            and qualname.startswith("pathlib.")
            and qualname.rsplit(".", 1)[-1]
            in (allowlist.PATH_METHODS | set(_PATH_WRITE_METHODS) | _PATH_DELETE_METHODS)
        ):
            handler = self.call_path_unbound
        if handler is None and qualname.startswith("o1_ha.") and _is_known(qualname):
            handler = self.call_home_assistant
        return handler

    def callback(self, node: ast.Call, qualname: str) -> None:
        """map(os.remove, files), sorted(files, key=os.path.getsize): the function gets each listed path."""
        if qualname in ("map", "filter"):
            function, iterable = self.arg(node, 0), self.arg(node, 1)
        else:
            function = next((k.value for k in node.keywords if k.arg == "key"), None)
            iterable = self.arg(node, 0)
        if isinstance(function, ast.Lambda) and function.args.args and iterable is not None:
            self.lambda_values[id(function)] = {function.args.args[0].arg: self.scope.items(iterable)}
            return
        name = self.scope.qualname(function) if function is not None else None
        if name is None or len(node.args) > (2 if qualname in ("map", "filter") else 1):
            return
        paths = self.paths(iterable)
        if name in _DELETERS:
            self.called.add(id(function))
            self.report.flag("deletes_files", f"{name} deletes {_quote_all(paths)}")
            for path in paths:
                self.report.touch(path, "delete", _DELETERS[name])
        elif name in allowlist.PATH_READERS:
            self.called.add(id(function))
            for path in paths:
                self.report.touch(path, "read", "read {}")

    def is_text_call(self, node: ast.Call, qualname: str | None) -> bool:
        """Calls whose string arguments are text, not paths (print, logging, str methods, commands)."""
        if qualname in _TEXT_CALLS or _runs_command(qualname):
            return True
        if qualname and qualname.startswith(_TEXT_PREFIXES):
            return True
        return qualname is None and isinstance(node.func, ast.Attribute) and node.func.attr in _TEXT_METHODS

    def check_strings(self, node: ast.AST) -> None:
        """Check string values in an expression: paths against the sandbox, URLs as network."""
        if isinstance(node, ast.Dict):
            for value in node.values:
                self.check_strings(value)
            return
        for text in self.scope.values(node):
            if _URL.match(text):
                host = host_of(text)
                self.report.flag(
                    "network",
                    f"uses the address {_quote(text)}",
                    _Event("network", "connect to {}", host, "the internet"),
                )
            else:
                self.report.candidate(text)

    def arg(self, node: ast.Call, index: int, *names: str) -> ast.expr | None:
        """Positional argument ``index`` or the first keyword of ``names``; with ``*args`` or ``**kwargs`` in the
        call, an argument not given plainly is a value known only at run time."""
        starred = [i for i, a in enumerate(node.args) if isinstance(a, ast.Starred)]
        if index < len(node.args) and not (starred and starred[0] <= index):
            return node.args[index]
        found = next((k.value for k in node.keywords if k.arg in names), None)
        if found is None and (starred or any(k.arg is None for k in node.keywords)):
            return ast.Name(id=HOLE, ctx=ast.Load())  # bound to nothing: its values are unknown
        return found

    def paths(self, node: ast.AST | None) -> tuple[str, ...]:
        """Possible paths of an argument (HOLE when nothing is known)."""
        return self.scope.values(node) or (HOLE,)

    def call_command(self, node: ast.Call, qualname: str) -> None:
        """os.system, subprocess.run, os.execv ...: classify the command itself (a string is shell code)."""
        shape, index = _command_shape(qualname)
        if shape == "varargs":
            words = [self.scope.values(a) for a in node.args[index:]]
            argv = [w[0] if len(w) == 1 else HOLE for w in words]
            if argv:
                nested.command(argv, self.report, self.depth)
            else:
                self.command_node(None, qualname)
        else:
            self.command_node(self.arg(node, index, "args", "cmd", "command", "argv"), qualname)

    def command_node(self, argv_node: ast.AST | None, qualname: str) -> None:
        """A command given as a string (shell) or a list of words."""
        if isinstance(argv_node, (ast.List, ast.Tuple)):
            words = [self.scope.values(e) for e in argv_node.elts]
            nested.command([w[0] if len(w) == 1 else HOLE for w in words], self.report, self.depth)
            return
        commands = self.scope.values(argv_node)
        if not commands or all(c == HOLE for c in commands):
            self.report.flag(
                "process_control",
                f"{qualname} runs a command I can't read",
                _Event("process", "run a command I can't check in advance"),
            )
        for command in commands:
            nested.scan("shell", command, self.report, self.depth + 1)

    def call_eval(self, node: ast.Call, qualname: str) -> None:
        """eval/exec/compile of a literal is classified as Python; of anything else is dynamic code."""
        source = self.arg(node, 0, "source", "object")
        values = self.scope.values(source) if isinstance(source, (ast.Constant, ast.Name)) else ()
        if len(values) == 1 and HOLE not in values[0]:
            nested.scan("python", values[0], self.report, self.depth + 1)
            try:  # the code runs in this block's namespace: names it binds are unknown from here on
                self.scope.volatile |= set(_bind_counts(ast.parse(values[0])))  # imports and definitions too
            except (SyntaxError, ValueError):
                pass
        else:
            self.report.flag(
                "process_control",
                f"{qualname} runs code built at run time",
                _Event("process", "run code I can't check in advance"),
            )

    def call_reflection(self, node: ast.Call, qualname: str) -> None:
        """getattr/setattr with a computed name or on a module, globals(), vars() ...: dynamic code."""
        if qualname in ("getattr", "setattr", "delattr") and len(node.args) >= 2:
            resolved = self.scope.call_result_name(node) if qualname == "getattr" else None
            if resolved:
                self.attr_bases.add(id(node.args[0]))
                self.apply_rules(resolved)
                self.check_name(resolved, node, id(node) in self.called)
                return
            names = self.scope.values(node.args[1])
            static_name = len(names) == 1 and HOLE not in names[0] and names[0].isidentifier()
            if static_name and self.scope.qualname(node.args[0]) is None:
                # getattr(obj, "name") on an ordinary object: the same check as obj.name
                attribute = ast.Attribute(
                    value=node.args[0], attr=names[0], ctx=ast.Load() if qualname == "getattr" else ast.Store()
                )
                if (names[0].startswith("__") and names[0].endswith("__") and names[0] not in _SAFE_DUNDERS) or names[
                    0
                ] in allowlist.NEVER_ATTRS:
                    self.internals(f"reaches into Python internals ({names[0]})")
                elif qualname == "getattr":
                    if id(node) in self.called:
                        self.called.add(id(attribute))
                    self.check_attribute(attribute, None)
                return
        self.report.flag(
            "process_control",
            f"{qualname} looks up names at run time",
            _Event("process", "run code I can't check in advance"),
        )

    def call_fork(self, node: ast.Call, qualname: str) -> None:
        """os.fork inside a loop is a fork bomb."""
        if self.loops:
            self.report.flag(
                "process_control",
                f"{qualname} inside a loop, like a fork bomb",
                _Event("fork_bomb", "start a fork bomb that floods the computer with processes"),
            )

    def call_home_assistant(self, node: ast.Call, qualname: str) -> None:
        """o1_ha.get_state reads; every other o1_ha function acts on the home; anything else reached through
        the module (``o1_ha.os.system``, ``o1_ha._socket``...) is not a Home Assistant call at all."""
        function = qualname.split(".", 1)[1]
        if function not in _HA_FUNCTIONS:
            self.report.flag(
                "process_control",
                f"o1_ha.{function} is not one of o1_ha's functions",
                _Event("process", "start or control other programs"),
            )
            return
        if function in _HA_READS:
            return
        action = _ha_action(self.scope, node) if function == "call_service" else ""
        fallback = f"run {function.replace('_', ' ')}"
        self.report.flag(
            "home_assistant",
            f"o1_ha.{function} acts on Home Assistant",
            _Event("home_assistant", "ask Home Assistant to {}", action, fallback),
        )


def _ha_action(scope: _Scope, node: ast.Call) -> str:
    """'turn on light kitchen' from o1_ha.call_service('light', 'turn_on', entity_id='light.kitchen')."""
    texts = [v[0] if len(v) == 1 else "" for v in (scope.values(a) for a in node.args)]
    if texts and "." in texts[0]:
        service, rest = texts[0].split(".", 1)[1], texts[1:]
    elif len(texts) >= 2:
        service, rest = texts[1], texts[2:]
    else:
        return ""
    entity = next((t for t in rest if "." in t), "")
    for keyword in node.keywords:
        if keyword.arg == "entity_id":
            values = scope.values(keyword.value)
            entity = values[0] if len(values) == 1 else entity
        elif isinstance(keyword.value, ast.Dict):
            entity = _dict_entity(scope, keyword.value) or entity
    for arg in node.args:
        if isinstance(arg, ast.Dict):
            entity = _dict_entity(scope, arg) or entity
    words = " ".join(w for w in (service.replace("_", " "), entity.replace(".", " ").replace("_", " ")) if w)
    return words if HOLE not in words else ""


def _dict_entity(scope: _Scope, node: ast.Dict) -> str:
    """The entity_id in a service data / target dict literal."""
    for key, value in zip(node.keys, node.values, strict=True):
        if key is not None and scope.values(key) == ("entity_id",):
            values = scope.values(value)
            return values[0] if len(values) == 1 else ""
    return ""
