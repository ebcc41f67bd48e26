"""Walks a bashlex tree: commands, pipelines, redirects, functions, assignments and ``for`` loops.

Each simple command is judged by :class:`.commands._Commands`; shell variables set once are followed.
"""

from __future__ import annotations

import itertools
import posixpath
import re

import bashlex
import bashlex.ast

from .. import nested
from ..findings import _Event, _Report
from ..paths import _SAFE_DEVICES, HOLE, NAME
from ..phrasing import _quote
from .args import _command_name, _hosts_in
from .commands import _check_variable, _Commands
from .parse import _children, _dot_globs, _parse_bash, _short_error, _unquote, _unquote_heredocs, _walk
from .programs import _INTERPRETERS, _NETWORK, _PYTHON_NAME, _SHELLS


def _scan_shell(code: str, report: _Report, depth: int) -> None:
    """Classify shell code; bashlex parse errors make it ``unparseable``."""
    if all(not line.strip() or line.lstrip().startswith("#") for line in code.splitlines()):
        return  # nothing but blank lines and comments
    code, quoted = _unquote_heredocs(code)
    try:
        if any("}" not in code[m.end() :] for m in re.finditer(r"\$\{", code)):
            raise ValueError("'${' without a closing '}'")  # bashlex would loop on it
        trees = _parse_bash(code)
    except Exception as exc:  # noqa: BLE001 - bashlex raises ParsingError, NotImplementedError and others
        report.flag(
            "unparseable",
            f"the shell code could not be parsed ({_short_error(exc)})",
            _Event("unparseable", "run shell code I can't check"),
        )
        return
    _ShellScanner(report, depth, code, quoted).scan(trees)


class _ShellScanner:
    """Walks a bashlex tree: every command (in lists, pipelines, compounds, substitutions), redirect and function."""

    def __init__(self, report: _Report, depth: int, source: str, quoted: frozenset[str] = frozenset()) -> None:
        self.report = report
        self.depth = depth
        self.source = source
        self.quoted_heredocs = quoted
        self.env: dict[str, str] = {}
        self.functions: set[str] = set()
        # the pushd stack: where relative paths started before each cd/pushd (the folder, the other candidates)
        self.folders: list[tuple[str, tuple[str, ...]]] = []
        self.commands = _Commands(report, depth)

    def scan(self, trees: list[bashlex.ast.node]) -> None:
        """Classify every node of the parsed trees."""
        self.functions = {
            self.word(node.parts[0])
            for tree in trees
            for node in _walk(tree)
            if node.kind == "function" and node.parts and node.parts[0].kind == "word"
        }
        for tree in trees:
            self.visit(tree)

    def visit(self, node: bashlex.ast.node) -> None:
        """Classify one node, then its children."""
        handler = {
            "command": self.command,
            "pipeline": self.pipeline,
            "function": self.function,
            "redirect": self.redirect,
            "assignment": self.assignment,
            "for": self.for_loop,
        }.get(node.kind)
        if handler is not None:
            handler(node)
        if not _subshell(node):
            for child in _children(node):
                self.visit(child)
            return
        # A subshell's cd and pushd end with it: later commands start where they did before it.
        saved = (self.report.cwd, self.report.cwd_also, list(self.folders))
        for child in _children(node):
            self.visit(child)
        self.report.cwd, self.report.cwd_also, self.folders = saved

    def word(self, node: bashlex.ast.node) -> str:
        """The static value of a word: ``$HOME`` is ``~``, known variables are substituted, the rest is HOLE.

        What bash expands in ways not followed here is HOLE too: ``$'\\x2f'`` quoting, brace expansion
        (``{/etc/passwd,x}``) and a glob that may match ``..`` (``.?``, ``.*``)."""
        raw = self.source[node.pos[0] : node.pos[1]]
        if "$'" in raw or '$"' in raw:
            return HOLE
        if not raw.startswith(("'", '"')) and re.search(r"\{[^{}\s'\"]*(,|\.\.)[^{}\s'\"]*\}", raw):
            return HOLE
        return _dot_globs(self.plain_word(node))

    def plain_word(self, node: bashlex.ast.node) -> str:
        """A word's value with its variables and substitutions replaced."""
        parts = [p for p in getattr(node, "parts", None) or () if p.kind != "tilde"]
        if not parts:
            return _unquote(self.source[node.pos[0] : node.pos[1]], node.word)
        text: str = node.word  # bashlex has no type information: a word node's text
        for part in parts:
            if part.kind == "parameter":
                value = self.env.get(part.value, {"HOME": "~", "PWD": "."}.get(part.value, HOLE))
            elif part.kind in ("commandsubstitution", "processsubstitution"):
                value = HOLE
            else:
                continue
            text = text.replace(self.source[part.pos[0] : part.pos[1]], value, 1)
        return text

    def argv(self, node: bashlex.ast.node) -> list[str]:
        """The static words of a command node."""
        return [self.word(p) for p in node.parts if p.kind == "word"]

    def command(self, node: bashlex.ast.node) -> None:
        """Classify a simple command by its words and its here-document."""
        argv = self.argv(node)
        if not argv or argv[0] in self.functions:
            return  # assignments only, or a call of a function whose body is classified where it is defined
        heredoc = None
        for part in node.parts:
            if part.kind == "redirect" and isinstance(getattr(part, "heredoc", None), bashlex.ast.node):
                heredoc = part.heredoc.value.rsplit("\n", 1)[0]
                if self.word(part.output) not in self.quoted_heredocs:
                    self.heredoc_substitutions(heredoc)
        self.commands.scan(argv, stdin_code=heredoc)
        self.change_folder(argv)

    def change_folder(self, argv: list[str]) -> None:
        """``cd``/``pushd`` move where later relative paths start (until the end of a subshell; a target that is
        no folder yet keeps the folder before as a candidate, see ``_Report.change_folder``); ``popd`` returns to
        the folder before; ``cd``, ``cd -`` and an unknown target make it unknown."""
        name = _command_name(argv)
        operands = [a for a in argv[1:] if not a.startswith("-") or a == "-"]
        if name in ("cd", "pushd"):
            target = operands[0] if operands else "~"
            if target in ("~", "-"):  # the home folder, or the one before: outside, or not known here
                self.report.touch("~" if target == "~" else HOLE, "read", "go to {}")
            self.folders.append((self.report.cwd, self.report.cwd_also))
            self.report.change_folder(HOLE if target == "-" else target)
        elif name == "popd":
            self.report.cwd, self.report.cwd_also = self.folders.pop() if self.folders else (HOLE, ())

    def heredoc_substitutions(self, body: str) -> None:
        """An unquoted here-document expands ``$(...)`` and backticks: classify those commands too."""
        if "$(" not in body and "`" not in body:
            return
        wrapped = ': "' + body.replace("\\", "\\\\").replace('"', '\\"') + '"'
        nested.scan("shell", wrapped, self.report, self.depth + 1)

    def pipeline(self, node: bashlex.ast.node) -> None:
        """Find downloads piped into an interpreter (``curl x | sh``) and echoed code piped into one."""
        hosts: list[str] = []
        previous: list[str] = []
        for part in node.parts:
            if part.kind != "command":
                continue
            argv = self.argv(part)
            name = _command_name(argv)
            if name in _INTERPRETERS or _PYTHON_NAME.fullmatch(name):
                self.piped_into(name, hosts, previous)
            if name in _NETWORK:
                hosts.extend(_hosts_in(argv[1:]) or [""])
            previous = argv

    def piped_into(self, name: str, hosts: list[str], previous: list[str]) -> None:
        """An interpreter reads its program from a pipe: say where the program comes from."""
        if hosts:
            for host in hosts:
                self.report.flag(
                    "process_control",
                    f"pipes a download into {name}",
                    _Event("download_run", "download a script from {} and run it", host, "the internet"),
                )
        elif _command_name(previous) in ("echo", "printf") and len(previous) > 1:
            language = "python" if _PYTHON_NAME.fullmatch(name) else "shell" if name in _SHELLS else ""
            if language:
                self.report.flag("process_control", f"pipes code into {name}")
                nested.scan(language, " ".join(previous[1:]), self.report, self.depth + 1)

    def function(self, node: bashlex.ast.node) -> None:
        """A function that calls itself (``:(){ :|:& };:``) is a fork bomb."""
        name = self.word(node.parts[0]) if node.parts and node.parts[0].kind == "word" else ""
        body = node.parts[-1] if node.parts else None
        if not name or body is None:
            return
        calls_itself = any(n.kind == "command" and self.argv(n)[:1] == [name] for n in _walk(body))
        if calls_itself:
            self.report.flag(
                "process_control",
                f"function {_quote(name)} calls itself, like a fork bomb",
                _Event("fork_bomb", "start a fork bomb that floods the computer with processes"),
            )

    def redirect(self, node: bashlex.ast.node) -> None:
        """``>``/``>>`` into a file writes it; ``<`` reads it; every target is checked against the sandbox."""
        target = node.output if isinstance(getattr(node, "output", None), bashlex.ast.node) else None
        if target is None or target.kind != "word" or node.type in ("<<", "<<-", "<<<"):
            return
        path = self.word(target)
        if node.type == "<":
            self.report.touch(path, "read", "read {}")
        elif node.type == ">&" and path.isdigit():
            return
        elif path not in _SAFE_DEVICES:
            self.report.flag("writes_files", f"redirects output into {_quote(path)}")
            self.report.touch(path, "write" if node.type == ">>" else "replace", "write to {}")

    def for_loop(self, node: bashlex.ast.node) -> None:
        """``for f in drafts/*.txt`` binds ``$f`` to the one item, or to its folder when there are several."""
        words = [p for p in node.parts if p.kind in ("word", "reservedword")]
        if len(words) < 2 or words[1].kind != "word":
            return
        items = [self.word(p) for p in itertools.takewhile(lambda p: p.kind == "word", words[3:])]
        folders = {posixpath.dirname(i) for i in items}
        if not self.bound_once(words[1].word):
            self.env[words[1].word] = HOLE
        elif len(items) == 1:
            self.env[words[1].word] = items[0]
        elif any(HOLE in i or self.report.beyond(i) for i in items) or not items:
            self.env[words[1].word] = HOLE
        elif len(folders) == 1:
            self.env[words[1].word] = posixpath.join(folders.pop(), NAME)
        else:
            self.env[words[1].word] = NAME

    def bound_once(self, name: str) -> bool:
        """Whether the script names ``name`` only where it is set once (``NAME=...`` or ``for NAME``) and
        where it is expanded (``$NAME``, ``${NAME}``): set anywhere else (a branch, a loop, ``read``,
        ``${NAME:=...}``, a function) its value can't be followed."""
        bare = 0
        for match in re.finditer(rf"(?<![\w$]){re.escape(name)}(?!\w)", self.source):
            start, end = match.span()
            if self.source[max(0, start - 2) : start] == "${" and self.source[end : end + 1] == "}":
                continue
            bare += 1
        return bare <= 1

    def assignment(self, node: bashlex.ast.node) -> None:
        """Remember ``NAME=value`` for later words, and check the value as a path."""
        name, _, _ = node.word.partition("=")
        value = self.word(node).partition("=")[2]
        self.env[name] = value if HOLE not in value and self.bound_once(name) else HOLE
        self.report.candidate(value)
        _check_variable(name, self.report)


def _subshell(node: bashlex.ast.node) -> bool:
    """Whether ``node`` runs in a subshell of its own: ``( ... )``, ``$(...)``, ``<(...)``, a pipeline's parts."""
    if node.kind in ("commandsubstitution", "processsubstitution", "pipeline"):
        return True
    first = (getattr(node, "list", None) or [None])[0]
    return node.kind == "compound" and getattr(first, "kind", "") == "reservedword" and first.word == "("


nested.register("shell", _scan_shell)
