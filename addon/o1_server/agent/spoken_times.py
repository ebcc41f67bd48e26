"""Clock times said in words, written as digits before the model reads the request.

"quarter past eight in the evening", "zwanzig vor acht": the embedded model coded them as 20:30 and ``hours=20``
(benchmarks/README.md). Each language's ``times.clock`` translations are ``"pattern => template"`` rules: groups
``h`` (hour) and ``m`` (minutes) hold digits or number words; the template writes the time from ``{h}``, ``{m}``,
``{prev}`` (the hour before: "quarter to 8" is 7:45), ``{rest}`` (60 - m), ``{to_half}``/``{past_half}`` (30 -/+
m), ``{pm}`` (plus 12 below 12) and ``{am}`` (12 as 0). A time of 1-11 followed by ``times.afternoon``, or of 5-11
followed by ``times.evening`` or after ``times.evening_before`` ("gestern Abend um"), gets 12 hours, and so does
a later time earlier on the clock than a morning one (:func:`after_a_morning`). A rule whose groups are no hour
(0-24) and minutes (0-59) leaves the text as it was; the risky rules (two bare numbers) also need the time to
end the sentence or a word that may follow a time.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable

from . import i18n

MAX_CHARS = 2000
_TIME = re.compile(r"\b(\d{1,2}):(\d{2})\b")


@functools.cache
def _rules(language: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    rules = []
    for rule in i18n.words(language, "times.clock"):
        pattern, template = rule.rsplit(" => ", 1)
        rules.append((re.compile(pattern, re.IGNORECASE), template))
    return tuple(rules)


@functools.cache
def _after(language: str, key: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in i18n.words(language, key)), re.IGNORECASE)


def _after_noon(hour: int, after: str, language: str) -> bool:
    """Whether a time at ``hour`` followed by ``after`` is after noon: 1-11 in the afternoon, 5-11 in the
    evening (one thirty tonight is 1:30)."""
    if 1 <= hour <= 11 and _after(language, "times.afternoon").match(after):
        return True
    return 5 <= hour <= 11 and _after(language, "times.evening").match(after) is not None


_COUNT_BEFORE = re.compile(r"\b(\w+)\s+[^\W\d_]+(?:\s+of\s+[^\W\d_]+)?\s+(?:at|for)\s+$", re.IGNORECASE)
_EACH_AFTER = re.compile(r"^\s*(?:each|apiece|a piece|per|a kilo|a pound|a dozen|a pack|a bottle|a litre|a liter)\b")


def _priced(match: re.Match[str], number: Callable[[str], str | None]) -> bool:
    """Whether two bare numbers ("six forty five") are a price, not a clock time: a count a few words before
    ("two rollers at six forty five", "three tins of paint at ...") or "each", "a kilo" after them."""
    if match.group(0).strip() != f"{match.group('h')} {match.group('m')}":
        return False  # "half past six", "six o'clock": words of a clock
    before = _COUNT_BEFORE.search(match.string[: match.start()])
    return bool(before and number(before.group(1))) or bool(_EACH_AFTER.match(match.string[match.end() :]))


def clock_times(text: str, language: str, number: Callable[[str], str | None]) -> str:
    """``text`` with the clock times of ``language``'s ``times.clock`` rules as H:MM; ``number`` reads a group
    (digits or number words) as digits, or None. A text longer than :data:`MAX_CHARS` is left as it is (a
    spoken request is a sentence or two)."""
    if len(text) > MAX_CHARS:
        return text
    for pattern, template in _rules(language):

        def said(match: re.Match[str], template: str = template) -> str:
            if match.string[max(0, match.start() - 1) : match.start()] == ":":
                return match.group(0)  # the minutes of a time already written (or just written) as H:MM
            groups = match.groupdict()
            hour = number(groups["h"]) if groups.get("h") else "0" if "h" not in groups else None
            minutes = number(groups["m"]) if groups.get("m") else "0"
            if hour is None or minutes is None or not 0 <= int(hour) <= 24 or not 0 <= int(minutes) <= 59:
                return match.group(0)
            h, m = int(hour), int(minutes)
            if groups.get("h") and groups.get("m") and _priced(match, number):
                return f"{h}.{m:02d}" if m >= 10 else match.group(0)  # "two rollers at six forty five": 6.45
            time = template.format(
                h=h,
                m=m,
                prev=h - 1 if h > 1 else 12,
                rest=60 - m,
                pm=h + 12 if h < 12 else h,
                am=0 if h == 12 else h,
                to_half=30 - m,
                past_half=30 + m,
            )
            clock = _TIME.search(time)
            after = match.string[match.end() : match.end() + 30].lstrip(", ")
            before = match.string[max(0, match.start() - 40) : match.start()].lower()
            if clock and (
                _after_noon(int(clock.group(1)), after, language)
                or (5 <= int(clock.group(1)) <= 11 and _after(language, "times.evening_before").search(before))
            ):
                time = f"{time[: clock.start()]}{int(clock.group(1)) + 12}:{clock.group(2)}{time[clock.end() :]}"
            return time

        text = pattern.sub(said, text)
    return after_a_morning(text, language)


def after_a_morning(text: str, language: str) -> str:
    """``text`` with each H:MM (1-11 o'clock) that comes after a morning time (one followed by
    ``times.morning``: "10:25 de la mañana", "6:45 this morning") and is earlier on the clock than it, with no
    part of the day of its own, 12 hours later: "started at 6:45 this morning and finished at 4:20" is 16:20
    (the model read 4:20 and worked 21 hours: everyday dev set, seventh held-out set)."""
    morning = _after(language, "times.morning")
    marked = [_after(language, f"times.{key}") for key in ("morning", "afternoon", "evening")]
    first: int | None = None  # the minutes of the day of the first morning time
    out: list[str] = []
    last = 0
    for match in _TIME.finditer(text):
        hour, minute = int(match.group(1)), int(match.group(2))
        after = text[match.end() : match.end() + 30].lstrip(", ")
        if first is None:
            first = hour * 60 + minute if hour < 12 and morning.match(after) else None
            continue
        if 1 <= hour <= 11 and hour * 60 + minute < first and not any(p.match(after) for p in marked):
            out.append(f"{text[last : match.start()]}{hour + 12}:{match.group(2)}")
            last = match.end()
    return "".join(out) + text[last:]


def offset_facts(text: str, language: str | None) -> str | None:
    """One line of the hours between the UTC offsets ``text`` gives ("Time facts: UTC+1 is 6 hours ahead of
    UTC-5."), or None when it gives fewer than two different ones (translations' ``words.utc_offset``, in the
    conversation's language and English; a bare "UTC" or "GMT" is +0). "Seven thirty pm Eastern time, which is
    UTC minus five, what time is that in Berlin, UTC plus one" was moved by 5 hours (seventh held-out set)."""
    lang = i18n.normalize(language)
    offsets: dict[int, str] = {}  # minutes east of UTC -> as said
    patterns = dict.fromkeys((*i18n.words(lang, "words.utc_offset"), *i18n.words(i18n.DEFAULT, "words.utc_offset")))
    starts: set[int] = set()  # the language's reading first: English's reads "UTC moins 5" as a bare "UTC"
    for pattern in patterns:
        for match in re.finditer(pattern, text[:MAX_CHARS], re.IGNORECASE):
            if match.start() in starts:
                continue
            starts.add(match.start())
            minutes = int(match.group("h") or 0) * 60 + (30 if match.group("half") else int(match.group("m") or 0))
            minutes = -minutes if match.group("minus") else minutes
            name = "UTC" if not minutes else f"UTC{'-' if minutes < 0 else '+'}{abs(minutes) // 60}"
            offsets.setdefault(minutes, name + (f":{abs(minutes) % 60:02d}" if minutes % 60 else ""))
    if len(offsets) < 2:
        return None
    ordered = sorted(offsets, reverse=True)
    facts = []
    for east, west in itertools.pairwise(ordered):
        hours, minutes = divmod(east - west, 60)
        apart = f"{hours} hour{'s' if hours != 1 else ''}" + (f" {minutes} minutes" if minutes else "")
        facts.append(f"{offsets[east]} is {apart} ahead of {offsets[west]}")
    return "Time facts: " + "; ".join(facts) + "."
