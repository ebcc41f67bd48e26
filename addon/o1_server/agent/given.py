"""What a question gives that its code must use: a clock time ("if I leave at 8:45") and a date ("six weeks
after the ninth of March"). Small models start from ``datetime.datetime.now()`` or ``date.today()`` whatever the
question says; :func:`.repair.repair_request` asks once more, with these messages, when a block ignored one.
"""

from __future__ import annotations

import functools
import re

from babel.dates import get_month_names

from . import i18n
from .types import CodeBlock

UNUSED_TIME = "The question gives the time {time}, and your code does not use it"
"""The start of the one request of a turn whose block ran but ignored a clock time the question named ("if I
leave at 8:45"): small models start from ``datetime.datetime.now()`` whatever the question says."""
UNUSED_DATE = "The question gives the date {date}, and your code does not use it"
"""The start of the one request of a turn whose block ran but ignored a date the question named ("six weeks
after the ninth of March" computed from today: dev set, the model printed today plus six weeks)."""

_CLOCK = re.compile(
    r"(?<![\w:.,/\-])([01]?\d|2[0-3])(?:[:h])([0-5]\d)(?![\d:]|\.\w|\s*(?:hours?|hrs?|h\b|minutes?|min\b|Stunden))",
    re.IGNORECASE,
)  # not in a file name or a path, not a duration ("1:30 hours")


def unused_time(text: str, block: CodeBlock) -> str | None:
    """The first clock time of the user's ``text`` ("16:11", French "16h11") that the Python ``block`` does
    not use, or None. Used: its hour and its minute both appear in the code as numbers (``datetime.time(16,
    11)``, ``"16:11"``, ``hour=16, minute=11``; a minute of 0 may be left out, an hour may be 12 more or less). "How
    long until 17:00" computed from now uses 17: only a block that ignores the time the question gave is asked
    again."""
    if block.language != "python":
        return None
    numbers = {int(n) for n in re.findall(r"\d+", block.code)}
    for match in _CLOCK.finditer(text):
        hour, minute = int(match.group(1)), int(match.group(2))
        hours = {hour, hour + 12, hour - 12}  # "8:45 pm" may be coded as 20:45
        if not hours & numbers or (minute and minute not in numbers):
            return match.group(0)
    return None


@functools.cache
def _dates(language: str) -> tuple[dict[str, int], re.Pattern[str]]:
    """Month names of ``language`` and English (Babel's, lower case) -> number, and
    the pattern of a date said with one: "the 9th of March", "March 9", "9. März", "9 de marzo", "9 maart"."""
    names: dict[str, int] = {}
    for lang in dict.fromkeys((language, "en")):
        for number, name in get_month_names("wide", locale=lang).items():
            names.setdefault(name.lower(), number)
    month = "|".join(sorted(map(re.escape, names), key=len, reverse=True))
    day = r"(?<![\d.,:/])(?P<d>[1-9]|[12]\d|3[01])(?:st|nd|rd|th|\.|º|er|e)?"
    pattern = re.compile(
        rf"{day}(?:\s+(?:of|de|di|del))?\s+(?P<m>{month})(?!\w)|(?<!\w)(?P<m2>{month})\.?\s+(?:the\s+)?"
        rf"(?P<d2>[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?(?![\d:.,]\d|\w)",
        re.IGNORECASE,
    )
    return names, pattern


def unused_date(text: str, block: CodeBlock, language: str | None) -> str | None:
    """The first date of the user's ``text`` said with a month's name ("the 9th of March", "9. März", "March 9")
    that the Python ``block`` does not use, or None. Used: its day appears in the code as a number, and its
    month as a number or by name (``datetime.date(2026, 3, 9)``, ``"9 March"``)."""
    if block.language != "python":
        return None
    names, pattern = _dates(i18n.normalize(language))
    code = block.code.lower()
    numbers = {int(n) for n in re.findall(r"\d+", code)}
    for match in pattern.finditer(text):
        day = int(match.group("d") or match.group("d2"))
        said = match.group("m") or match.group("m2")
        name = said.lower()
        month = names.get(name)
        if month is None or said == "may":  # "I may 5 times": the verb
            continue
        if day not in numbers or not (month in numbers or name in code):
            return match.group(0).strip()
    return None
