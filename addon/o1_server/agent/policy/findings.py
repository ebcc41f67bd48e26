"""What one classify() call found: the mutable :class:`_Report` and the frozen :class:`Classification`.

Scanners add categories, reasons, paths and summary events to a report; the report checks every path it is
given against the sandbox and the folders the profile grants (read-only: only reading is inside). It does
not read code itself.
"""

from __future__ import annotations

import fnmatch
import glob
import itertools
import os
import posixpath
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from .paths import (
    _GLOB_CHARS,
    HOLE,
    NAME,
    GrantedFolder,
    _grant_of,
    _granted_roots,
    _is_git_control,
    _is_outside,
    _looks_like_path,
)
from .phrasing import REPLACE, _quote, _summary


@dataclass(frozen=True)
class Classification:
    """What a code block is about to do.

    categories: non-empty subset of :data:`CATEGORIES`; ``{"read_only"}`` exactly when nothing else applies.
    reasons: short human reasons, e.g. ``"rm deletes 'drafts/a.txt'"``.
    summary: one short spoken sentence (at most 25 words, no code or markdown), e.g.
    ``"I'm about to delete 3 files in drafts."``.
    paths: the file paths the code touches, as written (relative to the sandbox unless absolute).
    """

    categories: frozenset[str]
    reasons: tuple[str, ...]
    summary: str
    paths: tuple[str, ...]


MAX_GLOB = 2000  # files looked at to tell whether a path with a run-time part may name an existing one


@dataclass(frozen=True)
class _Event:
    """One thing worth saying in the summary: ``template`` with ``{}`` for the target (or ``fallback``)."""

    kind: str
    template: str
    target: str = ""
    fallback: str = ""


class _Report:
    """Mutable findings of one :func:`classify` call: categories, reasons, paths and summary events."""

    def __init__(
        self,
        sandbox: str,
        existing: Collection[str] | None = None,
        folders: Sequence[GrantedFolder | tuple[str, bool]] = (),
    ) -> None:
        self.sandbox = sandbox
        # The folders the profile grants, as (real path, writable), the deepest first.
        self.granted = _granted_roots(folders)
        # The files whose content is the user's (relative paths); None: whatever is in the folder now.
        self.existing = None if existing is None else frozenset(posixpath.normpath(p) for p in existing)
        self.categories: dict[str, None] = {}
        self.reasons: dict[str, None] = {}
        self.paths: dict[str, None] = {}
        self.events: dict[_Event, None] = {}
        # Where relative paths start: "." (the working folder) until a shell script changes folder (cd, pushd).
        self.cwd = "."
        # Where they may start as well: the folder before a cd that may fail (its target is no folder yet).
        self.cwd_also: tuple[str, ...] = ()

    def flag(self, category: str, reason: str, event: _Event | None = None) -> None:
        """Add a category with its reason, and optionally what to say about it."""
        self.categories[category] = None
        self.reasons[reason] = None
        if event is not None:
            self.events[event] = None

    def note(self, event: _Event) -> None:
        """Add something to say in the summary without a category (e.g. a file that is read)."""
        self.events[event] = None

    def touch(self, path: str, kind: str, template: str) -> None:
        """Record a path the code reads (kind ``read``), writes, replaces or deletes; flag it if it leaves the
        sandbox. ``replace`` is a write that destroys what the file held (opened with "w", copied or moved onto,
        redirected into with ">", edited in place): when the file may already exist it counts as deleting."""
        if not path:
            return
        others = self.resolve_also(path)
        path = self.resolve(path)
        if kind == "replace":
            kind = "write"
            if any(self.may_exist(p) for p in (path, *others)):
                self.flag(
                    "deletes_files",
                    f"{_quote(path)} exists: writing it replaces what it holds",
                    _Event("delete", REPLACE, path if HOLE not in path else "", "a file whose name I can't check"),
                )
        if HOLE not in path and NAME not in path:
            self.paths[path] = None
        if path.startswith(("/dev/tcp/", "/dev/udp/")):
            host = path.split("/")[3] if path.count("/") >= 3 else ""
            self.flag(
                "network",
                f"{_quote(path)} opens a network connection",
                _Event("network", "connect to {}", host if HOLE not in host else "", "the internet"),
            )
        if kind in ("write", "delete") and any(_is_git_control(p) for p in (path, *others)):
            self.flag(
                "process_control",
                f"{_quote(path)} holds git settings or hooks, which run programs",
                _Event("process", "change git settings that run programs"),
            )
        grants = [self.grant(p) for p in (path, *others) if _is_outside(p, self.sandbox)]
        if any(g is None for g in grants):
            self.flag("outside_sandbox", f"{_quote(path)} is outside the sandbox")
            if kind == "read":
                kind, template = "outside", "read {} outside my working folder"
        elif kind != "read" and not all(grants):  # in a folder granted read-only: only reading is inside
            self.flag(
                "outside_sandbox",
                f"{_quote(path)} is in a folder granted read-only",
                _Event("outside", "change {} in a read-only folder", path if HOLE not in path else ""),
            )
        prefix = path.split(HOLE)[0]
        if HOLE in path and not (prefix and self.beyond(prefix)):
            self.note(_Event(kind, template, "", "a file whose name I can't check"))
        else:
            self.note(_Event(kind, template, path))

    def may_exist(self, path: str) -> bool:
        """Whether ``path`` (relative to the working folder) may name a file that exists now: a run-time part
        or a listed name matches like ``*``. Folders do not count (writing into one replaces nothing)."""
        known = path.split(HOLE)[0]  # a run-time part may name a file here: only the part before it is judged
        if path.startswith("~") or self.beyond(known):
            return False  # outside: refused for that already
        full = path if path.startswith("/") else os.path.join(self.sandbox, path)
        # A glob character may be a pattern (a shell glob, the value of glob.glob('*.txt')): it matches as one,
        # which also matches a file of that very name.
        wild = HOLE in full or NAME in full or bool(_GLOB_CHARS & set(full))
        # The snapshot is of the conversation folder: in a granted folder, what is on disk now counts.
        if self.existing is not None and not _is_outside(known, self.sandbox):
            relative = posixpath.normpath(os.path.relpath(full, self.sandbox))
            if wild:
                pattern = re.sub(f"[{HOLE}{NAME}]+", "*", relative)
                return any(fnmatch.fnmatchcase(p, pattern) for p in self.existing)
            return relative in self.existing
        if wild:
            pattern = re.sub(f"[{HOLE}{NAME}]+", "*", full)
            return any(not os.path.isdir(p) for p in itertools.islice(glob.iglob(pattern), MAX_GLOB))
        return os.path.lexists(full) and not os.path.isdir(full)

    def grant(self, path: str) -> bool | None:
        """Whether ``path`` is in a folder the profile grants: True read-write, False read-only, None in none."""
        return _grant_of(path, self.sandbox, self.granted)

    def beyond(self, path: str) -> bool:
        """Whether ``path`` may point outside the sandbox and every granted folder (see ``paths._is_outside``)."""
        return _is_outside(path, self.sandbox) and self.grant(path) is None

    def resolve(self, path: str) -> str:
        """``path`` as seen from the working folder: a relative path after ``cd x`` is ``x/path``."""
        if self.cwd == "." or path.startswith(("/", "~")):
            return path
        return posixpath.normpath(posixpath.join(self.cwd, path))

    def resolve_also(self, path: str) -> tuple[str, ...]:
        """``path`` as seen from the other folders relative paths may start from (see ``cwd_also``)."""
        if not self.cwd_also or path.startswith(("/", "~")):
            return ()
        return tuple(dict.fromkeys(posixpath.normpath(posixpath.join(c, path)) for c in self.cwd_also))

    def change_folder(self, target: str) -> None:
        """A shell ``cd``/``pushd`` to ``target`` (as written): later relative paths start there. When the
        target is no folder now (a cd that fails stays where it was; the block may also make it first),
        they may start where they did before as well."""
        before = (self.cwd, *self.cwd_also)
        moved = self.resolve_also(target)
        self.cwd = target if target.startswith(("/", "~")) else self.resolve(target)
        full = self.cwd if self.cwd.startswith("/") else os.path.join(self.sandbox, self.cwd)
        may_fail = HOLE not in self.cwd and not self.cwd.startswith("~") and not os.path.isdir(full)
        also = (*moved, *before) if may_fail else moved
        self.cwd_also = tuple(c for c in dict.fromkeys(also) if c != self.cwd)[:8]

    def candidate(self, text: str) -> None:
        """Check a string that may be a path (it is not known to be one) against the sandbox."""
        text = self.resolve(text) if _looks_like_path(text) else text
        if text in self.paths or HOLE in text or not _looks_like_path(text) or not self.beyond(text):
            return
        if NAME not in text:
            self.paths[text] = None
        self.flag(
            "outside_sandbox",
            f"{_quote(text)} is outside the sandbox",
            _Event("outside", "look at {} outside my working folder", text),
        )

    def result(self) -> Classification:
        """Freeze the findings."""
        categories = frozenset(self.categories) or frozenset({"read_only"})
        reasons = tuple(self.reasons) or ("only reads and calculates",)
        return Classification(
            categories=categories,
            reasons=reasons,
            summary=_summary(list(self.events), categories),
            paths=tuple(self.paths),
        )
