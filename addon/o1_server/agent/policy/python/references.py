"""Mixin of the Python scanner: imports, names and attributes checked against the allowlist and rules.

Part of :class:`.scanner._PythonScanner`; it uses the scanner's state and the other mixins' methods.
"""

from __future__ import annotations

import ast
import re
import string

from ..categories import KIND
from ..findings import _Event
from ..paths import HOLE
from ..phrasing import _quote
from . import allowlist
from .base import _ScannerBase
from .names import _BUILTIN_NAMES, _DEFAULT_NAMES
from .rules import (
    _CHDIR,
    _DELETERS,
    _OPENERS,
    _OS_OPEN,
    _PATH_BUILDERS,
    _PATH_DELETE_METHODS,
    _PATH_WRITE_METHODS,
    _PROCESS_METHODS,
    _PY_RULES,
    _PY_SAFE,
    _SAFE_DUNDERS,
    _SAVE_METHODS,
    _SUBMODULES,
    _WRITERS,
    _is_known,
    _module_exports,
    _name_status,
    _rule_matches,
    _star_safe,
    _walked_module,
)


class _References(_ScannerBase):
    """Imports, names and attributes: a ``read_only`` block uses only what the allowlist or a rule names."""

    def apply_rules(self, qualname: str | None) -> None:
        """Flag a qualified name that matches a rule (imports, references and calls alike)."""
        if not qualname or any(_rule_matches(p, qualname) for p in _PY_SAFE) or _name_status(qualname) == "safe":
            return
        for pattern, category, template, fallback in _PY_RULES:
            if _rule_matches(pattern, qualname):
                label = pattern.rstrip(".*")
                self.report.flag(category, f"uses {label}", _Event(KIND[category], template, "", fallback))
                return

    def unchecked(self, what: str) -> None:
        """Something that is not on the allowlist: the block can't be ``read_only`` (fails closed)."""
        self.report.flag(
            "unparseable",
            f"{what}, which is not on my list of things I can check",
            _Event("unparseable", "run code I can't check"),
        )

    def internals(self, what: str) -> None:
        """Reaching interpreter internals or a callable by an indirect route: process_control."""
        self.report.flag("process_control", what, _Event("process", "run code I can't check in advance"))

    def check_import(self, module: str) -> None:
        """A module outside the allowlist (and not one the rules categorise) is ``unparseable``."""
        if module in allowlist.IMPORTABLE or any(_rule_matches(p, module) for p in _PY_SAFE):
            return
        if any(_rule_matches(p, module) for p, *_ in _PY_RULES) or _is_known(module):
            return  # flagged as network / process_control / installs_packages by the rules
        self.unchecked(f"imports {module}")

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            top = alias.name.split(".")[0]
            bound = alias.asname or top
            self.scope.aliases[bound] = alias.name if alias.asname else top
            self.scope.import_names.add(bound)
            self.modules.add(bound)
            self.apply_rules(alias.name)
            self.check_import(alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            self.unchecked("imports a module relative to a package")
            return
        module = node.module or ""
        self.check_import(module)
        for alias in node.names:
            if alias.name == "*":
                self.apply_rules(module)
                if module in ("os", "shutil", "subprocess", "builtins", "importlib", "ctypes"):
                    self.report.flag(
                        "process_control",
                        f"imports everything from {module}",
                        _Event("process", "run code I can't check in advance"),
                    )
                elif module not in allowlist.IMPORTABLE or not _star_safe(module):
                    self.unchecked(f"imports everything from {module}")
                self.star_modules.append(module)
                # Each name it binds is that module's, as with ``from m import name``: fnmatch's ``filter``
                # replaces the builtin, whose result would otherwise be read as its second argument's items.
                for name in _module_exports(module):
                    self.scope.aliases[name] = f"{module}.{name}"
                    self.scope.import_names.add(name)
                continue
            qualname = f"{module}.{alias.name}"
            self.scope.aliases[alias.asname or alias.name] = qualname
            self.scope.import_names.add(alias.asname or alias.name)
            self.apply_rules(qualname)
            if qualname in _SUBMODULES:
                self.modules.add(alias.asname or alias.name)
            else:
                self.check_name(qualname, node, called=True)

    def check_name(self, qualname: str, node: ast.AST, called: bool) -> None:
        """Check a dotted name against the allowlist; ``called``: it is the target of an analysed call."""
        status = _name_status(qualname)
        if status == "safe":
            return
        if status == "known":
            if not called:
                self.indirect(qualname)
            return
        if status == "walk":
            self.internals(f"reaches {_quote(_walked_module(qualname))} through another module")
            self.apply_rules(_walked_module(qualname))
            return
        self.unchecked(f"uses {qualname}")

    def indirect(self, qualname: str) -> None:
        """A known file, code or Home Assistant function used without calling it (aliased, passed on, stored):
        what it will be called with can't be followed, so its paths count as outside the sandbox."""
        method = qualname.rsplit(".", 1)[-1] if qualname.startswith("pathlib.") else ""
        if qualname in _DELETERS or method in _PATH_DELETE_METHODS:
            self.report.flag("deletes_files", f"uses {qualname}", _Event("delete", "delete {}", "", "some files"))
            self.report.touch(HOLE, "delete", "delete {}")
        elif qualname in _WRITERS or qualname in _OPENERS or qualname in _OS_OPEN or method in _PATH_WRITE_METHODS:
            self.report.flag("writes_files", f"uses {qualname}", _Event("write", "change {}", "", "some files"))
            self.report.touch(HOLE, "write", "write to {}")
        elif qualname in allowlist.PATH_READERS:
            self.report.touch(HOLE, "read", "read {}")
        elif qualname in _CHDIR:
            self.report.flag("outside_sandbox", f"uses {qualname}", _Event("outside", "leave my working folder"))
        elif qualname.startswith("o1_ha.") and qualname[6:] not in allowlist.HA_READS:
            self.report.flag(
                "home_assistant",
                f"uses {qualname}",
                _Event("home_assistant", "ask Home Assistant to {}", "", "do something"),
            )
        if qualname in _PATH_BUILDERS:
            return
        self.internals(f"uses {qualname} without calling it directly")

    def visit_Name(self, node: ast.Name) -> None:
        if not isinstance(node.ctx, ast.Load):
            if not self.nested:
                self.scope.shadowed.add(node.id)
            return
        name = node.id
        if name in ("__builtins__", "__loader__", "__spec__", "__build_class__"):
            self.report.flag(
                "process_control", f"reaches into {name}", _Event("process", "run code I can't check in advance")
            )
            return
        qualname = self.scope.qualname(node)
        self.reference(node, qualname)
        if name in allowlist.DANGEROUS_BUILTINS and name not in self.scope.aliases:
            if name == "help":
                self.unchecked("uses help")  # imports modules by name and starts a pager
            elif id(node) not in self.called:
                self.indirect(name)
            return
        if id(node) in self.attr_bases:
            return  # checked with the whole dotted name
        if name in self.scope.aliases:
            if name in self.modules:
                self.internals(f"passes the module {self.scope.aliases[name]} around")
            else:
                self.check_name(qualname or self.scope.aliases[name], node, id(node) in self.called)
            return
        if name in self.local_names:
            return
        if name in allowlist.SAFE_BUILTINS:
            return
        if name in _BUILTIN_NAMES:
            self.unchecked(f"uses {name}")
        elif name in _DEFAULT_NAMES:
            if _DEFAULT_NAMES[name] == name:
                self.internals(f"passes the module {name} around")
            else:
                self.check_name(_DEFAULT_NAMES[name], node, id(node) in self.called)
        else:
            for module in self.star_modules:
                if name in _module_exports(module):
                    self.check_name(f"{module}.{name}", node, id(node) in self.called)
                    return
            # Any other free name does not exist when the block starts (each block is a new process).

    def visit_Attribute(self, node: ast.Attribute) -> None:
        attr = node.attr
        if attr.startswith("__") and attr.endswith("__") and attr not in _SAFE_DUNDERS:
            self.report.flag(
                "process_control",
                f"reaches into Python internals ({attr})",
                _Event("process", "run code I can't check in advance"),
            )
        elif attr in allowlist.NEVER_ATTRS:
            self.internals(f"reaches into Python internals ({attr})")
        qualname = self.scope.qualname(node)
        if id(node) not in self.chain_inner:
            if qualname is not None:
                inner = node.value
                while isinstance(inner, ast.Attribute):
                    self.chain_inner.add(id(inner))
                    inner = inner.value
                if isinstance(inner, ast.Name):
                    self.attr_bases.add(id(inner))
            self.check_attribute(node, qualname)
        self.reference(node, qualname)
        self.generic_visit(node)

    def check_attribute(self, node: ast.Attribute, qualname: str | None) -> None:
        """The allowlist check of ``x.attr``: a module member by its dotted name, any other value's attribute
        by name (safe attributes, attributes the code defines, path methods that were analysed)."""
        attr = node.attr
        if (
            attr.startswith("__") and attr.endswith("__") and attr not in _SAFE_DUNDERS
        ) or attr in allowlist.NEVER_ATTRS:
            return  # already process_control
        if not isinstance(node.ctx, ast.Load):
            base = self.scope.qualname(node.value)
            if base is not None and not isinstance(node.value, ast.Call):
                self.internals(f"changes {base}.{attr}")
            return
        if qualname is not None:
            self.check_name(qualname, node, id(node) in self.called)
            return
        if attr in allowlist.PATH_METHODS or attr in _PROCESS_METHODS or attr in _SAVE_METHODS:
            if id(node) not in self.called:
                self.internals(f"uses .{attr} without calling it directly")
            return
        if attr in allowlist.SAFE_ATTRS or attr in self.user_attrs or attr in _SAFE_DUNDERS:
            return
        self.unchecked(f"uses .{attr}")

    def reference(self, node: ast.expr, qualname: str | None) -> None:
        """A name used as a value: rules apply to it (imports, references and calls alike)."""
        if qualname:
            self.apply_rules(qualname)

    def check_format(self, templates: tuple[str, ...]) -> None:
        """str.format reads attributes and items named in its text (``'{0.__globals__}'``): check those names
        like attributes in code; a text only known at run time can't be checked."""
        if not templates or any(HOLE in t for t in templates):
            self.unchecked("formats a text that is only known at run time")
            return
        for template in templates:
            try:
                fields = [f for _, f, _, _ in string.Formatter().parse(template) if f]
            except ValueError:
                continue  # str.format raises the same error before reading anything
            for field in fields:
                for attr in re.findall(r"\.([^.\[]*)", field):
                    if attr.startswith("_") or attr in allowlist.NEVER_ATTRS:
                        self.internals(f"reaches into Python internals ({attr}) through a format string")
                    elif attr not in allowlist.SAFE_ATTRS and attr not in self.user_attrs:
                        self.unchecked(f"formats the attribute .{attr}")
