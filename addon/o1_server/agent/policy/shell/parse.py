"""bashlex parsing with a budget, here-document quoting, walking the tree, and reading one word.

Nothing here classifies: it turns shell text into nodes and words for :mod:`.scanner`.
"""

from __future__ import annotations

import re
import shlex
import sys
import time
from collections.abc import Iterator

import bashlex
import bashlex.ast

from ..paths import _GLOB_CHARS, HOLE


class _ParseBudgetExceeded(BaseException):
    """bashlex worked too long on one input (it loops forever on some malformed words).

    A BaseException, so that no ``except Exception`` inside the parser swallows it.
    """

    def __str__(self) -> str:
        return "the parser gave up"


class _CallBudget:
    """A trace function that aborts the traced code after ``calls`` Python calls or ``seconds``."""

    def __init__(self, calls: int, seconds: float) -> None:
        self.left = calls
        self.deadline = time.monotonic() + seconds

    def __call__(self, frame: object, event: str, arg: object) -> None:
        self.left -= 1
        if self.left < 0 or time.monotonic() > self.deadline:
            raise _ParseBudgetExceeded
        return None  # no line tracing: only calls are counted


def _parse_bash(code: str) -> list[bashlex.ast.node]:
    """bashlex.parse with a budget: about 3 times the calls and time that real scripts of that length need."""
    previous = sys.gettrace()
    sys.settrace(_CallBudget(calls=20_000 + 100 * len(code), seconds=min(5.0, 1.0 + len(code) / 5000)))
    try:
        trees: list[bashlex.ast.node] = bashlex.parse(code)  # bashlex has no type information
        return trees
    except _ParseBudgetExceeded as exc:
        raise ValueError(str(exc)) from None
    finally:
        sys.settrace(previous)


_QUOTED_HEREDOC = re.compile(r"<<(-?)[ \t]*(['\"])([A-Za-z_][A-Za-z0-9_]*)\2")


def _unquote_heredocs(code: str) -> tuple[str, frozenset[str]]:
    """bashlex can't parse ``<<'EOF'``: drop the quotes, remembering which delimiters were quoted."""
    quoted = frozenset(m.group(3) for m in _QUOTED_HEREDOC.finditer(code))
    return _QUOTED_HEREDOC.sub(r"<<\1\3", code), quoted


def _short_error(exc: Exception) -> str:
    """A one-line, short rendering of a parser error."""
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:80]


def _children(node: bashlex.ast.node) -> Iterator[bashlex.ast.node]:
    """The child nodes of any bashlex node, in source order."""
    for name in ("parts", "list"):
        yield from (c for c in getattr(node, name, None) or () if isinstance(c, bashlex.ast.node))
    for name in ("command", "output", "heredoc"):
        child = getattr(node, name, None)
        if isinstance(child, bashlex.ast.node):
            yield child
    yield from getattr(node, "redirects", None) or ()


def _walk(node: bashlex.ast.node) -> Iterator[bashlex.ast.node]:
    """All nodes under ``node`` (itself included), depth first."""
    yield node
    for child in _children(node):
        yield from _walk(child)


def _dot_globs(word: str) -> str:
    """A path whose component is a glob starting with ``.`` may match ``..``: that component is HOLE."""
    if not _GLOB_CHARS & set(word):
        return word
    parts = word.split("/")
    return "/".join(HOLE if p.startswith(".") and _GLOB_CHARS & set(p) else p for p in parts)


def _unquote(source: str, fallback: str) -> str:
    """Quote removal of one word's source text (bashlex mishandles ``'a'"'"'b'``); ``fallback`` if unsure."""
    try:
        words = shlex.split(source)
    except ValueError:
        return fallback
    return words[0] if len(words) == 1 else fallback
