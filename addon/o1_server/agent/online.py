"""Requests only the internet can answer, for a profile without it: said honestly, without asking the model.

Asked for the weather with no internet, a small model prints the date or a made-up figure. When a request names
something only the internet knows (the translations' ``online.topics`` of its language and of English: the
weather, news, prices, scores, traffic; an entry ending in ``*`` also matches the start of a longer word, as in
German compounds) and names no file, no word starting with one of ``online.not_if`` (list, note, file...: a
request to write or read something of the user's) and no word of the folder's own file names, the turn says
``online.cant`` in its language and runs nothing. The caller decides which profiles this applies to
(``Profile.internet`` false, and no weather device exposed by Home Assistant).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from pathlib import PurePosixPath

from . import i18n

_FILE = re.compile(r"(?<![\w.])[\w-]+\.[A-Za-z][A-Za-z0-9]{0,4}(?![\w.])")  # notes.txt, not 3.5 or e.g.


@functools.cache
def _pattern(language: str, key: str, prefixes: bool = False) -> re.Pattern[str] | None:
    """One regex over the words ``key`` of ``language`` and of English (whole words; ``*`` or ``prefixes``: the
    start of a word)."""
    parts = []
    for entry in dict.fromkeys(i18n.words(language, key) + i18n.words(i18n.DEFAULT, key)):
        word = entry.lower().strip()
        prefix = prefixes or word.endswith("*")
        body = r"\s+".join(re.escape(w) for w in word.rstrip("*").split())
        if body:
            parts.append(rf"(?<!\w){body}" + ("" if prefix else r"(?!\w)"))
    return re.compile("|".join(parts), re.IGNORECASE) if parts else None


def online_topic(text: str, language: str | None, names: Iterable[str] = ()) -> str | None:
    """The online topic ``text`` asks about ("weather"), or None: none named, or the request names a file, a
    list or note word, or a word (4 letters or more) of one of ``names`` (the folder's file names)."""
    lang = i18n.normalize(language)
    topics, not_if = _pattern(lang, "online.topics"), _pattern(lang, "online.not_if", prefixes=True)
    if topics is None or _FILE.search(text) or (not_if is not None and not_if.search(text)):
        return None
    found = topics.search(text)
    if found is None:
        return None
    stems = {w for name in names for w in re.findall(r"[^\W\d_]{4,}", PurePosixPath(name).stem.lower())}
    if any(w in stems for w in re.findall(r"[^\W\d_]{4,}", text.lower())):
        return None
    return found.group(0).lower()
