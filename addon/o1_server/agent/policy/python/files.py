"""Mixin of the Python scanner: file calls (open, os, shutil, pathlib methods) and the paths they touch.

Part of :class:`.scanner._PythonScanner`; it uses the scanner's state and the other mixins' methods.
"""

from __future__ import annotations

import ast

from ..findings import _Event
from ..paths import HOLE
from ..phrasing import _quote_all
from . import allowlist
from .base import _ScannerBase
from .rules import (
    _DELETERS,
    _OPENERS,
    _PATH_DELETE_METHODS,
    _PATH_QUERY_METHODS,
    _PATH_WRITE_METHODS,
    _PROCESS_METHODS,
    _SAVE_METHODS,
    _WRITERS,
)

# Path queries whose names other objects share: a regex match's .group(), read as Path.group() (the owner's
# group), refused every `m.group(1)`. They count as path reads only on what is known to be a pathlib path.
_OTHER_QUERIES = frozenset({"group", "owner"})


class _Files(_ScannerBase):
    """File calls: what is read, written or deleted, with each path checked against the sandbox."""

    def call_path_unbound(self, node: ast.Call, qualname: str) -> None:
        """``pathlib.Path.write_text(p, 'x')``: the same as ``p.write_text('x')``."""
        receiver = self.arg(node, 0, "self") or ast.Name(id=HOLE, ctx=ast.Load())
        method = ast.Attribute(value=receiver, attr=qualname.rsplit(".", 1)[-1], ctx=ast.Load())
        self.call_method(ast.Call(func=method, args=node.args[1:], keywords=node.keywords), None)

    def call_read(self, node: ast.Call, qualname: str) -> None:
        """os.listdir, os.stat, os.path.getsize, glob.glob ...: the path they read is checked like open()'s."""
        path = self.arg(node, allowlist.PATH_READERS[qualname], "path", "pathname", "top", "filename", "s")
        paths = (".",) if path is None and qualname in allowlist.PATH_DEFAULT_CWD else self.paths(path)
        for value in paths:
            self.report.touch(
                value, "read", "read {}" if not qualname.endswith(("listdir", "scandir", "walk")) else "list {}"
            )
        if qualname == "os.path.samefile":
            for value in self.paths(self.arg(node, 1, "f2")):
                self.report.touch(value, "read", "read {}")

    def call_chdir(self, node: ast.Call, qualname: str) -> None:
        """os.chdir and friends: relative paths after it can't be judged, so it counts as leaving the sandbox."""
        self.report.flag(
            "outside_sandbox", f"{qualname} changes the working folder", _Event("outside", "leave my working folder")
        )
        if qualname == "os.chroot":
            self.internals("os.chroot changes the root folder")

    def call_open(self, node: ast.Call, qualname: str) -> None:
        """open(path, mode): a mode with w, a, x or + writes; an unreadable mode counts as writing."""
        modes = self.scope.values(self.arg(node, 1, "mode")) if self.arg(node, 1, "mode") else (_OPENERS[qualname],)
        writes = not modes or any(set(m) & set("wax+c") or HOLE in m for m in modes)
        self.open_paths(self.paths(self.arg(node, 0, "file", "name", "filename")), writes, qualname, _truncates(modes))

    def open_paths(self, paths: tuple[str, ...], writes: bool, what: str, replaces: bool = True) -> None:
        """Record files opened for reading or writing (``replaces``: the write destroys what the file held)."""
        if writes:
            self.report.flag("writes_files", f"{what} writes {_quote_all(paths)}")
        kind = ("replace" if replaces else "write") if writes else "read"
        for path in paths:
            self.report.touch(path, kind, "write to {}" if writes else "read {}")

    def call_os_open(self, node: ast.Call, qualname: str) -> None:
        """os.open(path, flags): anything but O_RDONLY counts as writing."""
        flags = self.arg(node, 1, "flags")
        read_only = isinstance(flags, ast.Attribute) and flags.attr == "O_RDONLY"
        appends = flags is not None and "O_APPEND" in ast.dump(flags)
        self.open_paths(self.paths(self.arg(node, 0, "path")), not read_only, qualname, not appends)

    def call_delete(self, node: ast.Call, qualname: str) -> None:
        """os.remove, shutil.rmtree, shutil.move ... (move also writes its destination)."""
        targets = self.paths(self.arg(node, 0, "path", "src"))
        self.report.flag("deletes_files", f"{qualname} deletes {_quote_all(targets)}")
        for target in targets:
            self.report.touch(target, "delete", _DELETERS[qualname])
        if qualname == "shutil.move":
            dest = self.paths(self.arg(node, 1, "dst"))
            self.report.flag("writes_files", f"{qualname} writes {_quote_all(dest)}")
            for path in dest:
                self.report.touch(path, "replace", "move files to {}")

    def call_write(self, node: ast.Call, qualname: str) -> None:
        if qualname == "shutil.unpack_archive":  # members named ../x or /x land wherever they say (3.11 tarfile)
            self.report.flag(
                "outside_sandbox",
                "an archive's files may land outside the sandbox",
                _Event("outside", "unpack files that may land outside my working folder"),
            )
        self.call_write_paths(node, qualname)

    def call_write_paths(self, node: ast.Call, qualname: str) -> None:
        """os.mkdir, os.rename, shutil.copy ...: the written path, other path arguments are read."""
        index, template = _WRITERS[qualname]
        names = ("dst", "dest", "base_name", "extract_dir") if index else ("path", "name", "file", "fname", "base_name")
        written = self.paths(self.arg(node, index, *names))
        self.report.flag("writes_files", f"{qualname} writes {_quote_all(written)}")
        replaces = template in ("rename files to {}", "copy files to {}", "write to {}")
        for path in written:
            self.report.touch(path, "replace" if replaces else "write", template)
        if index:
            for path in self.paths(self.arg(node, 0, "src")):
                self.report.touch(path, "read", "read {}")

    def call_method(self, node: ast.Call, qualname: str | None) -> None:
        """Methods on objects we can't name: Path.unlink/write_text/open, DataFrame.to_csv, ``x.system``.

        A path method on a receiver whose path is unknown gets the path HOLE (outside the sandbox)."""
        func = node.func
        assert isinstance(func, ast.Attribute)
        method, receiver = func.attr, self.scope.values(func.value)
        one_arg = len(node.args) == 1 and not node.keywords
        if method in _PATH_DELETE_METHODS:
            targets = receiver or (HOLE,)
            self.report.flag("deletes_files", f"{method} deletes {_quote_all(targets)}")
            for target in targets:
                self.report.touch(target, "delete", "delete {}")
        elif (
            method in _PATH_WRITE_METHODS
            or method == "rename"
            or (method == "replace" and (self.is_path(func.value) or (one_arg and not receiver)))
        ):
            self.path_write(method, receiver, node)
        elif method in _PATH_QUERY_METHODS and not (method in _OTHER_QUERIES and not self.is_path(func.value)):
            for path in receiver or (HOLE,):
                self.report.touch(path, "read", "read {}")
            if method == "samefile":
                for path in self.paths(self.arg(node, 0, "other_path")):
                    self.report.touch(path, "read", "read {}")
        elif method == "open":
            mode = self.arg(node, 0, "mode")
            modes = self.scope.values(mode) if mode is not None else ("r",)
            writes = not modes or any(set(m) & set("wax+") or HOLE in m for m in modes)
            self.open_paths(receiver or (HOLE,), writes, method, _truncates(modes))
        elif method in ("format", "format_map"):
            self.check_format(receiver)
        elif method in _SAVE_METHODS and (node.args or node.keywords):
            saved_to = self.arg(node, 0, "path", "fname", "path_or_buf", "excel_writer")
            self.open_paths(self.paths(saved_to), True, method)
        elif method in _PROCESS_METHODS:
            self.report.flag(
                "process_control", f"calls .{method}()", _Event("process", "start or control other programs")
            )

    def is_path(self, node: ast.AST) -> bool:
        """Whether an expression is a pathlib path (``Path(...)``, ``p / 'x'`` or a name bound to one)."""
        if isinstance(node, ast.Name):
            return node.id in self.scope.path_names
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            return self.is_path(node.left)
        if isinstance(node, ast.Call):
            name = self.scope.qualname(node.func)
            return name is not None and name.startswith("pathlib.")
        return False

    def path_write(self, method: str, receiver: tuple[str, ...], node: ast.Call) -> None:
        """Path.write_text, touch, mkdir, rename ... on a path (rename also writes its destination)."""
        if method in ("rename", "replace"):
            written = self.paths(self.arg(node, 0, "target"))
            template = "rename files to {}"
            for path in receiver or (HOLE,):
                self.report.touch(path, "write", "move {}")
        elif method in ("symlink_to", "hardlink_to", "link_to"):
            written, template = receiver or (HOLE,), _PATH_WRITE_METHODS.get(method, "create a link at {}")
            for path in self.paths(self.arg(node, 0, "target")):
                self.report.touch(path, "read", "link to {}")
        else:
            written, template = receiver or (HOLE,), _PATH_WRITE_METHODS[method]
        self.report.flag("writes_files", f"{method} writes {_quote_all(written)}")
        replaces = method in ("rename", "replace", "write_text", "write_bytes")
        for path in written:
            self.report.touch(path, "replace" if replaces else "write", template)


def _truncates(modes: tuple[str, ...]) -> bool:
    """Whether opening with one of ``modes`` may destroy what the file held: "w" truncates, "r+" overwrites in
    place; "a" and "x" do not (an unreadable mode may)."""
    return not modes or any("w" in m or HOLE in m or ("r" in m and "+" in m) for m in modes)
