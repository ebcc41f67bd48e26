"""Requests only the internet can answer, for a profile without it: said honestly, without asking the model.

Asked for the weather with no internet, a small model prints the date or a made-up figure. A request is such a
lookup when it matches one of the translations' ``online.asks`` of its language (regular expressions of whole
phrases: "what's the weather", "will it rain", "the latest news", "who won the game"; English's when the language
has none) and holds no digit (numbers given are data to compute with: "at an exchange rate of 1.1"), no file name,
no word of ``online.not_if`` (list, note, file, joke, translate...: a request about something of the user's or
about words) and no word of the folder's own file names. Then the turn says ``online.cant`` in its language and
runs nothing. The caller decides which profiles this applies to (``Profile.internet`` false, and no weather
device exposed by Home Assistant).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from pathlib import PurePosixPath

from . import i18n

_FILE = re.compile(r"(?<![\w.])[\w-]+\.[A-Za-z][A-Za-z0-9]{0,4}(?![\w.])")  # notes.txt, not 3.5 or e.g.
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


@functools.cache
def _asks(language: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p, re.IGNORECASE) for p in i18n.words(language, "online.asks"))


@functools.cache
def _not_if(language: str) -> frozenset[str]:
    return frozenset(
        w.lower() for w in i18n.words(language, "online.not_if") + i18n.words(i18n.DEFAULT, "online.not_if")
    )


def online_topic(text: str, language: str | None, names: Iterable[str] = ()) -> str | None:
    """The words of ``text`` that ask for an online lookup ("what's the weather"), or None: none do, or the
    request holds a digit, a file name, a word of ``online.not_if`` or a word (4 letters or more) of one of
    ``names`` (the folder's file names)."""
    lang = i18n.normalize(language)
    low = " ".join(text.lower().replace("\u2019", "'").split())
    if re.search(r"\d", low) or _FILE.search(low):
        return None
    found = next((m for m in (p.search(low) for p in _asks(lang)) if m), None)
    if found is None:
        return None
    words = set(_WORD.findall(low))
    if words & _not_if(lang):
        return None
    stems = {w for name in names for w in re.findall(r"[^\W\d_]{4,}", PurePosixPath(name).stem.lower())}
    if any(len(w) >= 4 and w in stems for w in words):
        return None
    return found.group(0)
