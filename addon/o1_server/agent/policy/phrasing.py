"""The spoken sentence: the summary of a classification, and the quoting used in its reasons.

Turns the events of a :class:`~.findings._Report` into one sentence of at most ``MAX_SUMMARY_WORDS`` words
("I'm about to delete 3 files in drafts."), in the language of the running turn (``i18n.current()``; English
outside a turn): an event's English template is its own wording, other languages say it from the translation
files (``actions``, else by its kind). It reads events; it never decides a category.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..i18n import DEFAULT, current, has, t
from .categories import CLAUSE_ORDER, EVENT_ORDER, FILE_KINDS, SPEAKS_FOR
from .paths import _GLOB_CHARS, HOLE, NAME

if TYPE_CHECKING:
    from .findings import _Event

MAX_SUMMARY_WORDS = 25
REPLACE = "replace the contents of {}"
"""The action of a write that destroys what an existing file held (see ``_Report.touch``)."""


_SPECIAL_PLACES = {  # path -> its key in the translation files' "place"
    ".": "working_all",
    "./": "working_all",
    "*": "working_all",
    "./*": "working_all",
    "/": "computer_all",
    "/*": "computer_all",
    "~": "home",
    "~/": "home",
    "~/*": "home_all",
    "..": "above",
}
_SPEAKABLE = re.compile(r"[\w.~/ -]{1,48}")
_OUTSIDE = " outside my working folder"


def _summary(events: list[_Event], categories: frozenset[str]) -> str:
    """One spoken sentence in the turn's language: the two most serious things the code does, at most 25
    words."""
    language = current()
    events = _drop_redundant(events)
    clauses = _event_clauses(events, language) + _generic_clauses(events, categories, language)
    if not clauses:
        clauses = [t(language, "category.read_only.clause")]
    conjunction = f" {t(language, 'summary.and')} "
    for count in (2, 1):
        sentence = re.sub(r"[_\s]+", " ", t(language, "summary.sentence", actions=conjunction.join(clauses[:count])))
        if len(sentence.split()) <= MAX_SUMMARY_WORDS:
            return sentence
    return t(language, "summary.fallback")


def _drop_redundant(events: list[_Event]) -> list[_Event]:
    """Leave out what a more specific event already says (the download of ``curl x | sh``, forks of a bomb)."""
    kinds = {e.kind for e in events}
    run_hosts = {e.target for e in events if e.kind == "download_run"}
    acted_on = {e.target for e in events if e.kind in ("delete", "write", "read")}
    replaced = {e.target for e in events if e.template == REPLACE}
    kept = []
    for event in events:
        if event.kind == "write" and event.target in replaced:
            continue  # "replace the contents of x" says it; "and write to x" would say it twice
        if event.kind == "process" and kinds & {"fork_bomb", "download_run"}:
            continue
        if event.kind == "network" and event.target in run_hosts:
            continue
        if event.kind == "outside" and "look at {}" in event.template and event.target in acted_on:
            continue
        kept.append(event)
    return kept


def _event_clauses(events: list[_Event], language: str = DEFAULT) -> list[str]:
    """Clauses for the events, grouped by (kind, template), most serious first."""
    groups: dict[tuple[str, str, str], list[str]] = {}
    for event in events:
        groups.setdefault((event.kind, event.template, event.fallback), []).append(event.target)
    ordered = sorted(groups.items(), key=lambda item: EVENT_ORDER.index(item[0][0]))
    clauses: list[str] = []
    for (kind, template, fallback), targets in ordered:
        if kind == "read" and len(clauses) > 0:
            continue  # reading is not worth mentioning next to anything else
        if kind in FILE_KINDS:
            obj = _files_phrase(targets, fallback, language)
        else:
            obj = _names_phrase(targets, fallback, language)
        if kind == "outside" and all(target in _SPECIAL_PLACES for target in targets):
            template = template.replace(_OUTSIDE, "")  # the place already says where
        clauses.append(_clause(language, kind, template, obj))
    return clauses


def _clause(language: str, kind: str, template: str, obj: str | None) -> str:
    """One event said in ``language``: English is the template itself; another language says the template
    from its ``actions``, else the event's kind with its object, else the kind alone (``obj`` None: the
    object has no translation)."""
    if language == DEFAULT:
        return template.replace("{}", obj or "")
    if "{}" not in template:
        key = f"actions.{template}"
        return t(language, key) if has(language, key) else t(language, f"kind_plain.{kind}")
    if obj is None:
        return t(language, f"kind_plain.{kind}")
    key = f"actions.{template}"
    return t(language, key if has(language, key) else f"kind.{kind}", target=obj)


def _generic_clauses(events: list[_Event], categories: frozenset[str], language: str = DEFAULT) -> list[str]:
    """Clauses for the categories no event speaks about (e.g. ``import socket`` alone)."""
    spoken = set().union(*(SPEAKS_FOR[event.kind] for event in events))
    if any(event.template == REPLACE for event in events):
        spoken.add("writes_files")  # replacing a file's contents is writing it
    return [
        t(language, f"category.{c}.clause")
        for c in CLAUSE_ORDER
        if c in categories and c != "read_only" and c not in spoken
    ]


def _fallback(language: str, fallback: str, default_key: str) -> str | None:
    """The classifier's fallback object (or ``summary.<default_key>``) in ``language``; None when that
    language has no word for it."""
    if not fallback:
        return t(language, f"summary.{default_key}")
    if language == DEFAULT:
        return fallback
    key = f"fallbacks.{fallback}"
    return t(language, key) if has(language, key) else None


def _speak_path(path: str, language: str = DEFAULT) -> str | None:
    """A path as it can be spoken, or None when it is too long or contains symbols."""
    if path in _SPECIAL_PLACES:
        return t(language, f"place.{_SPECIAL_PLACES[path]}")
    path = path.rstrip("/") or path
    if len(path) > 40:
        path = posixpath.basename(path)
    return path if _SPEAKABLE.fullmatch(path) else None


def _files_phrase(targets: Sequence[str], fallback: str, language: str = DEFAULT) -> str | None:
    """'drafts/a.txt', '3 files in drafts', 'files in drafts', 'everything on the computer' ... (None: the
    fallback has no translation in ``language``)."""
    paths = list(dict.fromkeys(target for target in targets if target))
    if not paths:
        return _fallback(language, fallback, "some_files")
    special = [p for p in paths if p in _SPECIAL_PLACES]
    if special:
        return t(language, f"place.{_SPECIAL_PLACES[special[0]]}")
    vague = [p for p in paths if HOLE in p or NAME in p or _GLOB_CHARS & set(p) or _speak_path(p) is None]
    if len(paths) == 1 and not vague:
        return _speak_path(paths[0], language) or t(language, "summary.a_file")
    parents = {
        None if p.startswith((HOLE, NAME)) else posixpath.dirname(p.rstrip("/")).split(HOLE)[0].split(NAME)[0]
        for p in paths
    }
    parent = parents.pop() if len(parents) == 1 else None
    place = (_place(parent, language) if parent is not None else None) or ""
    if vague:
        return t(language, "summary.files", place=place) if place else _fallback(language, fallback, "some_files")
    return t(language, "summary.count_files", count=len(paths), place=place)


def _place(folder: str, language: str = DEFAULT) -> str | None:
    """Where a folder is, as said after the files: ' in drafts', ' in my working folder' (None if
    unspeakable)."""
    folder = folder.rstrip("/") or folder
    if folder in ("", "."):
        return t(language, "place.in_working")
    if folder in ("/", "~"):
        return t(language, "place.in_top" if folder == "/" else "place.in_home")
    spoken = None if _GLOB_CHARS & set(folder) else _speak_path(folder, language)
    return t(language, "summary.in_place", place=spoken) if spoken else None


def _names_phrase(targets: Sequence[str], fallback: str, language: str = DEFAULT) -> str | None:
    """'example.com', 'requests and httpx', 'a.example and 2 more' ... (``fallback`` when unspeakable; None
    when it has no translation in ``language``)."""
    names = list(dict.fromkeys(n for n in targets if n and HOLE not in n and NAME not in n))
    speakable = [n for n in names if _SPEAKABLE.fullmatch(n)]
    if not names or len(speakable) < len(names):
        return _fallback(language, fallback, "something")
    if len(names) <= 2:
        return _join_words(names, t(language, "summary.and"))
    return t(language, "summary.more", first=names[0], count=len(names) - 1)


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
