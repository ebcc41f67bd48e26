"""The spoken sentence: the summary of a classification, and the quoting used in its reasons.

Turns the events of a :class:`~.findings._Report` into one sentence of at most ``MAX_SUMMARY_WORDS`` words
("I'm about to delete 3 files in drafts."). It reads events; it never decides a category.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .categories import BY_NAME, CLAUSE_ORDER, EVENT_ORDER, FILE_KINDS, SPEAKS_FOR
from .paths import _GLOB_CHARS, HOLE, NAME

if TYPE_CHECKING:
    from .findings import _Event

MAX_SUMMARY_WORDS = 25


_SPECIAL_PLACES = {
    ".": "everything in my working folder",
    "./": "everything in my working folder",
    "*": "everything in my working folder",
    "./*": "everything in my working folder",
    "/": "everything on the computer",
    "/*": "everything on the computer",
    "~": "your home folder",
    "~/": "your home folder",
    "~/*": "everything in your home folder",
    "..": "the folder above my working folder",
}
_SPEAKABLE = re.compile(r"[\w.~/ -]{1,48}")


def _summary(events: list[_Event], categories: frozenset[str]) -> str:
    """One spoken sentence: the two most serious things the code does, at most 25 words."""
    events = _drop_redundant(events)
    clauses = _event_clauses(events) + _generic_clauses(events, categories)
    if not clauses:
        clauses = [BY_NAME["read_only"].clause]
    for count in (2, 1):
        sentence = re.sub(r"[_\s]+", " ", f"I'm about to {' and '.join(clauses[:count])}.")
        if len(sentence.split()) <= MAX_SUMMARY_WORDS:
            return sentence
    return "I'm about to run code that needs your permission."


def _drop_redundant(events: list[_Event]) -> list[_Event]:
    """Leave out what a more specific event already says (the download of ``curl x | sh``, forks of a bomb)."""
    kinds = {e.kind for e in events}
    run_hosts = {e.target for e in events if e.kind == "download_run"}
    acted_on = {e.target for e in events if e.kind in ("delete", "write", "read")}
    kept = []
    for event in events:
        if event.kind == "process" and kinds & {"fork_bomb", "download_run"}:
            continue
        if event.kind == "network" and event.target in run_hosts:
            continue
        if event.kind == "outside" and "look at {}" in event.template and event.target in acted_on:
            continue
        kept.append(event)
    return kept


def _event_clauses(events: list[_Event]) -> list[str]:
    """Clauses for the events, grouped by (kind, template), most serious first."""
    groups: dict[tuple[str, str, str], list[str]] = {}
    for event in events:
        groups.setdefault((event.kind, event.template, event.fallback), []).append(event.target)
    ordered = sorted(groups.items(), key=lambda item: EVENT_ORDER.index(item[0][0]))
    clauses: list[str] = []
    for (kind, template, fallback), targets in ordered:
        if kind == "read" and len(clauses) > 0:
            continue  # reading is not worth mentioning next to anything else
        obj = _files_phrase(targets, fallback) if kind in FILE_KINDS else _names_phrase(targets, fallback)
        if kind == "outside" and all(t in _SPECIAL_PLACES for t in targets):
            template = template.replace(" outside my working folder", "")  # the place already says where
        clauses.append(template.replace("{}", obj))
    return clauses


def _generic_clauses(events: list[_Event], categories: frozenset[str]) -> list[str]:
    """Clauses for the categories no event speaks about (e.g. ``import socket`` alone)."""
    spoken = set().union(*(SPEAKS_FOR[event.kind] for event in events))
    return [BY_NAME[c].clause for c in CLAUSE_ORDER if c in categories and c != "read_only" and c not in spoken]


def _speak_path(path: str) -> str | None:
    """A path as it can be spoken, or None when it is too long or contains symbols."""
    if path in _SPECIAL_PLACES:
        return _SPECIAL_PLACES[path]
    path = path.rstrip("/") or path
    if len(path) > 40:
        path = posixpath.basename(path)
    return path if _SPEAKABLE.fullmatch(path) else None


def _files_phrase(targets: Sequence[str], fallback: str) -> str:
    """'drafts/a.txt', '3 files in drafts', 'files in drafts', 'everything on the computer' ..."""
    paths = list(dict.fromkeys(t for t in targets if t))
    if not paths:
        return fallback or "some files"
    special = [p for p in paths if p in _SPECIAL_PLACES]
    if special:
        return _SPECIAL_PLACES[special[0]]
    vague = [p for p in paths if HOLE in p or NAME in p or _GLOB_CHARS & set(p) or _speak_path(p) is None]
    if len(paths) == 1 and not vague:
        return _speak_path(paths[0]) or "a file"
    parents = {
        None if p.startswith((HOLE, NAME)) else posixpath.dirname(p.rstrip("/")).split(HOLE)[0].split(NAME)[0]
        for p in paths
    }
    parent = parents.pop() if len(parents) == 1 else None
    spoken_parent = _place(parent) if parent is not None else None
    place = f" in {spoken_parent}" if spoken_parent else ""
    if vague:
        return f"files{place}" if place else (fallback or "some files")
    return f"{len(paths)} files{place}"


def _place(folder: str) -> str | None:
    """A folder as spoken after "in": 'drafts', 'my working folder', 'your home folder' (None if unspeakable)."""
    folder = folder.rstrip("/") or folder
    if folder in ("", "."):
        return "my working folder"
    if folder in ("/", "~"):
        return {"/": "the top folder", "~": "your home folder"}[folder]
    return None if _GLOB_CHARS & set(folder) else _speak_path(folder)


def _names_phrase(targets: Sequence[str], fallback: str) -> str:
    """'example.com', 'requests and httpx', 'a.example and 2 more' ... (``fallback`` when unspeakable)."""
    names = list(dict.fromkeys(t for t in targets if t and HOLE not in t and NAME not in t))
    speakable = [n for n in names if _SPEAKABLE.fullmatch(n)]
    if not names or len(speakable) < len(names):
        return fallback or "something"
    if len(names) <= 2:
        return _join_words(names)
    return f"{names[0]} and {len(names) - 1} more"


def _join_words(words: Sequence[str], conjunction: str = "and") -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {conjunction} {words[-1]}"


def _quote(text: str, limit: int = 60) -> str:
    """A short quoted rendering of a path or command for reasons."""
    text = text.replace(HOLE, "...").replace(NAME, "*").replace("\n", " ")
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return f"'{text}'"


def _quote_all(items: Sequence[str], limit: int = 3) -> str:
    """Quote up to ``limit`` items: "'a', 'b' and 2 more"."""
    shown = [_quote(i) for i in items[:limit]]
    if len(items) > limit:
        shown.append(f"{len(items) - limit} more")
    return _join_words(shown)
