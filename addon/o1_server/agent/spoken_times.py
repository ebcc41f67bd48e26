"""Clock times said in words, written as digits before the model reads the request.

"quarter past eight in the evening", "zwanzig vor acht", "halb elf abends", "seis menos cuarto de la tarde":
the embedded model coded them as 20:30, ``hours=20``, 23:15 and ``hours=6, minutes=40`` (benchmarks/README.md),
and text2num reads the Spanish and Italian quarter ("cuarto", "quarto") as the ordinal 4. Each language's
``times.clock`` translations are ``"pattern => template"`` rules: the pattern's groups ``h`` (the hour) and ``m``
(minutes) hold digits or number words, the template writes the time from ``{h}``, ``{m}``, ``{prev}`` (the hour
before: "quarter to 8" is 7:45), ``{rest}`` (60 - m) and ``{pm}`` (the hour plus 12 below 12). A time followed
by one of ``times.evening`` ("in the evening", "abends", "du soir", "de la tarde") below 12:00 gets 12 hours.
A rule whose groups are not an hour (0-24) and minutes (0-59) leaves the text as it was.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from . import i18n

_TIME = re.compile(r"\b(\d{1,2}):(\d{2})\b")


@functools.cache
def _rules(language: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    rules = []
    for rule in i18n.words(language, "times.clock"):
        pattern, template = rule.rsplit(" => ", 1)
        rules.append((re.compile(pattern, re.IGNORECASE), template))
    return tuple(rules)


@functools.cache
def _evening(language: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in i18n.words(language, "times.evening")), re.IGNORECASE)


def clock_times(text: str, language: str, number: Callable[[str], str | None]) -> str:
    """``text`` with the clock times of ``language``'s ``times.clock`` rules as H:MM; ``number`` reads a group
    (digits or number words) as digits, or None."""
    for pattern, template in _rules(language):

        def said(match: re.Match[str], template: str = template) -> str:
            groups = match.groupdict()
            hour = number(groups["h"]) if groups.get("h") else "0" if "h" not in groups else None
            minutes = number(groups["m"]) if groups.get("m") else "0"
            if hour is None or minutes is None or not 0 <= int(hour) <= 24 or not 0 <= int(minutes) <= 59:
                return match.group(0)
            h, m = int(hour), int(minutes)
            time = template.format(h=h, m=m, prev=h - 1 if h > 1 else 12, rest=60 - m, pm=h + 12 if h < 12 else h)
            clock = _TIME.search(time)
            after = match.string[match.end() : match.end() + 30].lstrip(", ")
            if clock and int(clock.group(1)) < 12 and _evening(language).match(after):
                time = f"{time[: clock.start()]}{int(clock.group(1)) + 12}:{clock.group(2)}{time[clock.end() :]}"
            return time

        text = pattern.sub(said, text)
    return text
