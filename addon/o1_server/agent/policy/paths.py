"""Paths as the classifier sees them: inside or outside the sandbox, git's control files, hosts in URLs.

Also the folders a profile grants (``GrantedFolder``: read-only or read-write, inside for what they allow),
and the two markers a value can hold: ``HOLE`` (a part known only at run time) and ``NAME`` (a name listed
from a folder). Pure functions of a path and the sandbox; which code touches a path is the scanners' business.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlsplit

# A part of a string or path whose value is only known at run time (an f-string field, "$VAR", "$(...)").
HOLE = "\u2047"
# A path below a folder the code lists (``os.listdir``, ``Path.iterdir``, ``find``, a shell glob): one or more
# names found there, never ``..`` or absolute. A path holding it stays inside when its folder does.
NAME = "\u2048"


_SAFE_DEVICES = frozenset(
    {"/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero", "/dev/random", "/dev/urandom"}
)
_URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://")
_GLOB_CHARS = frozenset("*?[")


def _sandbox_root(sandbox_dir: Path | str) -> str:
    """The sandbox as an absolute path with symlinks resolved."""
    return os.path.realpath(os.fspath(sandbox_dir))


class GrantedFolder(NamedTuple):
    """A host folder a profile grants (``profiles.py``, ``folders:``), seen at the same path in the box.

    path: absolute, normalised (``/media``, ``/share/notes``); writable: True for a ``read-write`` grant.
    """

    path: str
    writable: bool = False


def _granted_roots(folders: Sequence[GrantedFolder | tuple[str, bool]]) -> tuple[tuple[str, bool], ...]:
    """The granted folders as (real path, writable), the deepest first (a grant inside another decides)."""
    roots = {os.path.realpath(path): bool(writable) for path, writable in folders if os.path.isabs(path)}
    return tuple(sorted(roots.items(), key=lambda item: -len(item[0])))


def _grant_of(path: str, sandbox: str, roots: tuple[tuple[str, bool], ...]) -> bool | None:
    """Whether ``path`` (relative to ``sandbox`` unless absolute) is inside a granted folder: its grant's
    ``writable``, or None when it is in none. Symlinks that exist are followed (a link in a grant that leads
    out of it is outside); a run-time part (HOLE) or ``~`` is in no grant; a listed name (NAME) is one entry."""
    if not roots or not path or HOLE in path or path.startswith("~") or _URL.match(path):
        return None
    candidate = os.path.join(sandbox, path.replace(NAME, "x").replace("\0", ""))
    try:
        resolved = os.path.realpath(candidate)
    except (OSError, ValueError):
        resolved = os.path.normpath(candidate)
    for root, writable in roots:
        if resolved == root or resolved.startswith(root.rstrip(os.sep) + os.sep):
            return writable
    return None


def _looks_like_path(text: str) -> bool:
    """Whether a string could name a file outside the working directory (absolute, ``~`` or ``..``)."""
    if not text or len(text) > 4096 or "\n" in text or _URL.match(text):
        return False
    return text.startswith(("/", "~")) or ".." in text.split("/")


def _is_outside(path: str, sandbox: str) -> bool:
    """Whether ``path`` (relative to ``sandbox`` unless absolute) may point outside the sandbox.

    ``~`` always counts as outside: the home directory of whatever runs the code is not the sandbox. Symlinks
    that exist are followed. Fails closed: a path holding a value only known at run time (HOLE) counts as
    outside, wherever that value is (``chr(47) + 'tmp/x'``, ``input()``, ``f'{name}.txt'``); a name listed
    from a folder (NAME) stands for one entry of that folder.
    """
    if not path or _URL.match(path):
        return False
    if HOLE in path:
        return True
    if path in _SAFE_DEVICES or path.startswith("/dev/fd/"):
        return False
    if path.startswith("~"):
        return True
    candidate = os.path.join(sandbox, path.replace(NAME, "x").replace("\0", ""))
    try:
        resolved = os.path.realpath(candidate)
    except (OSError, ValueError):
        resolved = os.path.normpath(candidate)
    root = sandbox.rstrip(os.sep)
    return not (resolved == sandbox or resolved.startswith(root + os.sep))


def _is_git_control(path: str) -> bool:
    """Whether a written path is git's configuration or hooks (``git status`` then runs what they name)."""
    parts = path.replace(HOLE, "x").split("/")
    return ".git" in parts[:-1] or parts[-1] in (".git", ".gitconfig", ".gitattributes")


def host_of(text: str) -> str:
    """The host name in a URL, ``user@host:path`` or ``host/path`` argument ('' when none is visible)."""
    if _URL.match(text):
        try:
            host = urlsplit(text).hostname or ""
        except ValueError:
            host = ""
    else:
        host = text.split("@")[-1].split(":")[0].split("/")[0]
    return host if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9.-]*", host or "") else ""
