"""Whether an answer to a held confirmation only declines it ("no", "not now", "okay, cancel that") or is a new
request ("what's the temperature in the kitchen?"), which is then answered (the held block cancelled either way).

A reply declines when it is a single word, or when it is short (at most ``SHORT_WORDS`` words) and holds one of
the ``declines`` words of its language or of English (agent/translations/*.yaml). Anything else is a request.
"""

from __future__ import annotations

import functools
import re

from . import i18n

SHORT_WORDS = 5  # a longer reply is a request, whatever it holds ("no, turn on the kitchen light instead")


@functools.cache
def _pattern(language: str) -> re.Pattern[str]:
    said = dict.fromkeys(i18n.words(language, "declines") + i18n.words(i18n.DEFAULT, "declines"))
    phrases = sorted(said, key=len, reverse=True)
    alternatives = "|".join(r"\s+".join(map(re.escape, p.split())) for p in phrases)
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE | re.UNICODE)


def declines(text: str, language: str | None = None) -> bool:
    """Whether ``text``, said to a confirmation question that it does not confirm, only declines it (True) or
    is a new request to answer (False). ``language`` as :func:`.i18n.normalize` takes it (None: English)."""
    text = text.replace("\u2019", "'")
    words = re.findall(r"[\w']+", text, re.UNICODE)
    if len(words) <= 1:
        return True
    return len(words) <= SHORT_WORDS and _pattern(i18n.normalize(language)).search(text) is not None
