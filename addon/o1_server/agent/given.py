"""What a question gives that its code must use: a clock time ("if I leave at 8:45") and a date ("six weeks
after the ninth of March"). Small models start from ``datetime.datetime.now()`` or ``date.today()`` whatever the
question says; :func:`.repair.repair_request` asks once more, with these messages, when a block ignored one.
"""

from __future__ import annotations

import ast
import datetime
import functools
import itertools
import math
import re
from collections.abc import Iterator

from babel.dates import get_month_names
from text_to_num import alpha2digit  # no stubs or py.typed

from . import i18n
from .error_hints import date_format
from .named_values import tested_text
from .slips import TOLD, added_percent, given_clock, handed_block, parsed, percent_off, text_literals
from .types import CodeBlock

UNUSED_TIME = "The question gives the time {time}, and your code does not use it"
"""The start of the one request of a turn whose block ran but ignored a clock time the question named ("if I
leave at 8:45"): small models start from ``datetime.datetime.now()`` whatever the question says."""
UNUSED_DATE = "The question gives the date {date}, and your code does not use it"
"""The start of the one request of a turn whose block ran but ignored a date the question named ("six weeks
after the ninth of March" computed from today: dev set, the model printed today plus six weeks)."""

UNUSED_MONTH = "The question asks about {month}, and your code does not keep only the rows of {month}"
"""The start of the one request of a turn whose block summed a dated file's rows without filtering by the month
the question named ("how much did we spend at Tesco in November?" summed every month: everyday dev set)."""

BELOW_ZERO = "Your code printed a number below zero ({number}), and the question says no minus, loss or debt"
"""The start of the one request of a turn whose block printed a number below zero for a request that names none
(:func:`below_zero`): "il me reste -7500 euros" after 18 of 48 payments (``250 * 18 - 12000``), "-1.112.656
Stunden" for a clock nine hours behind (seventh held-out set, now a dev set)."""
_BELOW = re.compile(
    r"(?<![\w.,:/\-−])[-−]\d+(?:[.,]\d+)*(?![\d:]|[.,]\d)"
    r"(?!\s*(?:[°º]|(?:degrees?|degr[ée]s|grad(?:en|os|i)?|celsius|fahrenheit|[CF])\b))",
    re.I,
)  # not a date's "-05", a range's "3-5", "UTC-5" or a temperature
_MINUS = re.compile(r"(?<![\w.,:/])[-−]\s?\d")  # "-5", "− 3" in the request


ADDED_PERCENT = "The user adds {percent} % on top ({word}), and your code takes it off"
"""The start of the request for a block that took a tip or a surcharge off the amount instead of adding it
(:func:`taken_off`)."""
_PERCENT = re.compile(
    r"(?<![\d.,])(\d+(?:[.,]\d+)?)\s*(?:%|per ?cent|percent|prozent|pour ?cent|por ?ciento|procent)", re.I
)


def taken_off(text: str, code: str, language: str | None) -> str | None:
    """The request for Python ``code`` that takes off the percent the user's ``text`` adds (a tip, a service
    charge: ``words.added_on``; none when the text also takes something off, ``words.taken_off``: a discount),
    with the block corrected where the server can (:func:`.slips.added_percent`), else None. "Dieci per cento di
    mancia. Quanto pago in tutto?" was coded ``32.50 * (1 - 0.1)``, and "tien procent fooi" ``* 0.9`` (eighth
    held-out set, now a dev set)."""
    low = text.lower()
    added = [m.group() for p in i18n.patterns(language, "words.added_on") if (m := re.search(p, low))]
    percents = {float(m.group(1).replace(",", ".")) for m in _PERCENT.finditer(text)}
    if not added or len(percents) != 1 or any(re.search(p, low) for p in i18n.patterns(language, "words.taken_off")):
        return None
    (percent,) = percents
    if (tree := parsed(code)) is None or not percent_off(tree, percent):
        return None
    said = ADDED_PERCENT.format(percent=f"{percent:g}", word=added[0])
    said += f": a {added[0]} makes the total larger (amount * (1 + {percent / 100:g}))."
    return said + (added_percent(code, percent) or TOLD)


def below_zero(text: str, output: str, language: str | None) -> str | None:
    """The first number below zero that ``output`` printed, when the request ``text`` gives no number below zero
    and none of its language's words for one (translations' ``words.below_zero``: minus, moins, under zero,
    overdrawn, owe...; "cuánto es 5 menos 8" may be -3); else None. A temperature is never asked about."""
    found = _BELOW.search(output)
    if found is None or _MINUS.search(text):
        return None
    if any(re.search(pattern, text, re.IGNORECASE) for pattern in i18n.patterns(language, "words.below_zero")):
        return None
    return found.group()


UNUSED_NUMBER = "The question gives the number {number}, and your code does not use it"
"""The start of the one request of a turn whose block never uses a number the question gave (:func:`unused_number`):
"and over 46 working weeks in the year" computed with 52 (seventh held-out set, now a dev set)."""
_GIVEN = re.compile(
    r"(?<![\w.,:/+\-])(\d+(?:[.,]\d+)?)(?![\w:/]|[.,]\w)"
)  # not in a name, a path, a date, a time or an offset ("UTC+2")
_SCALES = (1, 10, 100, 1000, 7, 12, 24, 52, 60, 365, 3600)  # a unit or a count the number may be coded in


def unused_number(text: str, code: str, language: str | None = None) -> str | None:
    """The first number of the user's ``text`` (as the model read it, :func:`.i18n.digits`) that Python ``code``
    never uses, or None. Used: a number literal equal to it, scaled by a unit (kilos as grams: :data:`_SCALES`)
    or as a percent (10 % as 0.1 or 1.1), one less or more (an index, a range's end), or its digits in a text the
    code does not only print (a filter's "2025", a strptime's "17:20"). 0, 1, 2 (often context: "my two kids";
    not in a text with a price per item, ``words.per_item``: "2 caffè a 1.20 euro l'uno"), this year and clock
    times are left out; None when ``code`` does not parse."""
    try:
        tree = ast.parse(code)
        values = {
            abs(float(node.value))
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, (int, float))
            and not isinstance(node.value, bool)
        }
    except (SyntaxError, ValueError, OverflowError, RecursionError, MemoryError):  # code that cannot run anyway
        return None
    printed = {id(part) for part in _printed_texts(tree)}
    texts = [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in printed
    ]
    values.update(float(places) for t in texts for places in re.findall(r"\.(\d+)[fFgGeE%]", t))  # ":.3f"
    per_item = any(re.search(p, text, re.IGNORECASE) for p in i18n.patterns(language, "words.per_item"))
    left_out = (0, 1, datetime.date.today().year) if per_item else (0, 1, 2, datetime.date.today().year)
    for match in _GIVEN.finditer(text):
        said = match.group(1)
        number = float(said.replace(",", "."))
        if number in left_out or _scaled(number, values):
            continue  # two is often context ("my two kids"); the year may be today's
        if not any(re.search(rf"(?<![\d.,]){re.escape(said)}(?![\d])", t) for t in texts):
            return said
    return None


_DEFAULTS = frozenset({7, 12, 24, 28, 30, 31, 40, 52, 60, 100, 365, 366, 1000})
"""Numbers a model assumes when the user gave their own (52 weeks, 365 days, a 40-hour week, 30 days)."""


def replaced_default(text: str, code: str, said: str) -> str | None:
    """The end of a request that hands back Python ``code`` with its one assumed number (:data:`_DEFAULTS`,
    not in the user's ``text``, within a factor of two of it) replaced by the unused number the user ``said``
    (:func:`.slips.handed_block`), or None when there is no such literal or several. "And over 46 working weeks"
    was coded ``91.2 * 52``; told to use 46, the model dropped another factor (seventh held-out set)."""
    number = float(said.replace(",", "."))
    if (tree := parsed(code)) is None:
        return None
    given = {float(n.replace(",", ".")) for n in _GIVEN.findall(text)}
    found = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, (int, float))
        and not isinstance(node.value, bool)
        and node.value in _DEFAULTS
        and node.value not in given
        and number / 2 <= node.value <= number * 2
    ]
    if len(found) != 1:
        return None
    found[0].value = int(number) if number.is_integer() else number
    return handed_block(tree)


def _scaled(number: float, values: set[float]) -> bool:
    """Whether one of ``values`` is ``number`` in another unit (:data:`_SCALES`) or as a percent."""
    candidates = [number * s for s in _SCALES] + [number / s for s in _SCALES]
    candidates += [1 + number / 100, 1 - number / 100, number - 1, number + 1]  # a percent; an index, a range end
    return any(math.isclose(value, c, rel_tol=1e-9) for value in values for c in candidates)


def _printed_texts(tree: ast.AST) -> Iterator[ast.Constant]:
    """The text literals a ``print()`` call prints as they are: its text arguments and the text parts of its
    f-strings (not their format specs: ``:.3f`` uses the 3 of "to 3 decimal places")."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
            for arg in node.args:
                if isinstance(arg, ast.Constant):
                    yield arg
                elif isinstance(arg, ast.JoinedStr):
                    yield from (part for part in arg.values if isinstance(part, ast.Constant))


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


_WRITTEN_DATES = (
    re.compile(r"(?P<d>\d{1,2})\.?\s+(?:de\s+)?(?P<m>[^\W\d_]{3,})\.?\s+(?:de\s+)?(?P<y>\d{4})"),
    re.compile(r"(?P<m>[^\W\d_]{3,})\.?\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<y>\d{4})"),
)  # "5 maart 2031", "5. März 2031", "5 de marzo de 2031", "March 5th, 2031"


def built_date(code: str) -> str | None:
    """The end of a request that gives the model ``code`` with its one ``strptime`` of a date written out
    ("5 maart 2031 18", a literal or a name bound once to one) as ``datetime(2031, 3, 5)`` (month names of o1's
    languages: :func:`month_number`), or None. ``strptime("5 maart 2031 18", "%d %B %Y %H")`` failed three times
    on the Dutch month (eighth held-out set, now a dev set)."""
    if (tree := parsed(code)) is None:
        return None
    literals = text_literals(tree)
    found: list[tuple[ast.Call, tuple[int, int, int]]] = []
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "strptime"):
            continue
        arg = call.args[0] if call.args else None
        value = (
            arg.value if isinstance(arg, ast.Constant) else literals.get(arg.id) if isinstance(arg, ast.Name) else None
        )
        if not isinstance(value, str):
            continue
        for pattern in _WRITTEN_DATES:
            if (match := pattern.search(value)) and (month := month_number(match.group("m"))):
                found.append((call, (int(match.group("y")), month, int(match.group("d")))))
                break
    if len(found) != 1:
        return None
    call, (year, month, day) = found[0]
    try:
        datetime.date(year, month, day)
    except ValueError:
        return None
    assert isinstance(call.func, ast.Attribute)
    call.func, call.args, call.keywords = call.func.value, [ast.Constant(v) for v in (year, month, day)], []
    return (
        f" The date is {year}-{month:02d}-{day:02d}: build it with datetime(year, month, day), strptime reads"
        " English month names only." + handed_block(tree)
    )


def handed_clock(text: str, time: str, code: str, language: str | None) -> str:
    """The end of the request for Python ``code`` that ignored the clock ``time`` ("8:45", "16h11") of the
    user's ``text``: the block handed back starting from it (:func:`.slips.given_clock`; an evening time,
    ``words.evening``: "8:45 pm", "de la tarde", as 20:45), or told only (:data:`.slips.TOLD`) where the time is
    an end the question counts to or from (``words.until_since``: "until 17:45", "since 7:30") or the code sets
    an hour itself."""
    hour, minute = map(int, re.findall(r"\d+", time)[:2])
    evening = "|".join(i18n.patterns(language, "words.evening"))
    if hour < 12 and re.search(rf"{re.escape(time)}\s*(?:{evening})", text, re.IGNORECASE):
        hour += 12
    counted = any(re.search(p, text, re.IGNORECASE) for p in i18n.patterns(language, "words.until_since"))
    if counted or re.search(r"\bhour\s*=", code):
        return TOLD
    return given_clock(code, hour, minute) or TOLD


def month_number(word: str) -> int | None:
    """The month ``word`` names in one of the languages o1 speaks ("April", "junio", "févr."), or None (Babel's
    month names, wide and abbreviated)."""
    return _months().get(i18n.folded(word.strip().rstrip(".")).lower())


@functools.cache
def _months() -> dict[str, int]:
    return {
        i18n.folded(str(name)).lower().rstrip("."): int(number)
        for language in reversed(i18n.LANGUAGES)  # English's names win a clash
        for width in ("abbreviated", "wide")
        for number, name in get_month_names(width, locale=language).items()
    }


@functools.cache
def _date_pattern(language: str) -> re.Pattern[str]:
    """A date said with a month's name of ``language`` or English (Babel's wide names): "the 9th of March",
    "March 9", "9. März", "9 de marzo", "9 maart"."""
    names = {
        str(name) for lang in dict.fromkeys((language, "en")) for name in get_month_names("wide", locale=lang).values()
    }
    month = "|".join(sorted(map(re.escape, names), key=len, reverse=True))
    day = r"(?<![\d.,:/])(?P<d>[1-9]|[12]\d|3[01])(?:st|nd|rd|th|\.|º|er|e)?"
    return re.compile(
        rf"{day}(?:\s+(?:of|de|di|del))?\s+(?P<m>{month})(?!\w)|(?<!\w)(?P<m2>{month})\.?\s+(?:the\s+)?"
        rf"(?P<d2>[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?(?![\d:.,]\d|\w)",
        re.IGNORECASE,
    )


def _day_digits(text: str, language: str) -> str:
    """``text`` with every number word as digits, small ones and ordinals too (text2num's ``alpha2digit`` with
    threshold 0: "the first of April" -> "the 1st of April", "le deux avril" -> "le 2 avril"), for finding the
    dates it says; ``text`` itself when text2num cannot read it. (:func:`i18n.digits` keeps them words.)"""
    try:
        return str(alpha2digit(text, language, threshold=0))
    except Exception:  # noqa: BLE001 - a reading aid never breaks a turn
        return text


def dates_said(text: str, language: str | None) -> int:
    """How many dates with a month's name the user's ``text`` says ("entre el 15 de agosto y el 8 de diciembre":
    2), small days in words included."""
    lang = i18n.normalize(language)
    return sum(1 for _ in _date_pattern(lang).finditer(_day_digits(text, lang)))


def unused_date(text: str, block: CodeBlock, language: str | None) -> str | None:
    """The first date of the user's ``text`` said with a month's name ("the 9th of March", "9. März", "March 9")
    that the Python ``block`` does not use, or None. Used: its day appears in the code as a number, and its
    month as a number or by name (``datetime.date(2026, 3, 9)``, ``"9 March"``)."""
    if block.language != "python":
        return None
    code = block.code.lower()
    numbers = {int(n) for n in re.findall(r"\d+", code)}
    lang = i18n.normalize(language)
    for match in _date_pattern(lang).finditer(_day_digits(text, lang)):
        day = int(match.group("d") or match.group("d2"))
        said = match.group("m") or match.group("m2")
        name = said.lower()
        month = month_number(said)
        if month is None or said == "may":  # "I may 5 times": the verb
            continue
        if day not in numbers or not (month in numbers or name in code):
            return match.group(0).strip()
    return None


@functools.cache
def _month_pattern(language: str) -> re.Pattern[str]:
    """A month's name said on its own in ``language`` or English ("in November", "im Mai", "en février"): not
    next to a day's number (a date: :func:`unused_date`), and English "may" only after in/of/for/to/until/through
    (else the verb)."""
    names = {
        str(name) for lang in dict.fromkeys((language, "en")) for name in get_month_names("wide", locale=lang).values()
    }
    month = "|".join(sorted((re.escape(n) for n in names if n.lower() != "may"), key=len, reverse=True))
    may = "(?:" + "|".join(rf"(?<=\b{w}\s)" for w in ("in", "of", "for", "to", "until", "through")) + ")may"
    return re.compile(rf"(?<![\w.])(?:{month}|{may})(?!\w)", re.IGNORECASE)


_RANGE = re.compile(
    r"\s*(?:-|–|to|through|thru|till|until|up to|bis|bis (?:einschließlich|zum)|à|au|jusqu'à|jusqu'en|a|al|hasta|"
    r"fino a|tot|tot en met|t/m)\s*",
    re.IGNORECASE,
)  # "January to March", "Januar bis März", "de janvier à mars", "de enero a marzo", "da gennaio a marzo"
_AND = re.compile(r"\s*(?:and|und|et|y|e|en)\s*", re.IGNORECASE)
_BETWEEN = re.compile(r"\b(?:between|zwischen|entre|tra|fra|tussen)\s*$", re.IGNORECASE)


def named_month(text: str, language: str | None) -> tuple[str, tuple[int, ...]] | None:
    """The first month the user's ``text`` names on its own, as said and as its number (("November", (11,))),
    or the months of a range it names ("from January to March", "zwischen März und Mai": (1, 2, 3)), or else
    the first quarter of a year it names, with its three months (("primer trimestre", (1, 2, 3)): translations'
    ``words.year_quarters`` of ``language`` and English), or None. A month in a date ("the 3rd of
    November", "März 9") is not on its own."""
    lang = i18n.normalize(language)
    said = _day_digits(text, lang)
    dates = [m.span() for m in _date_pattern(lang).finditer(said)]
    alone = [
        (m, number)
        for m in _month_pattern(lang).finditer(said)
        if not any(start <= m.start() < end for start, end in dates) and (number := month_number(m.group(0)))
    ]
    for (first, one), (last, other) in itertools.pairwise(alone):
        between, before = said[first.end() : last.start()], said[: first.start()]
        if one < other and (_RANGE.fullmatch(between) or (_AND.fullmatch(between) and _BETWEEN.search(before))):
            return said[first.start() : last.end()], tuple(range(one, other + 1))  # "from January to March"
    if alone:
        return alone[0][0].group(0), (alone[0][1],)
    for each in dict.fromkeys((lang, "en")):
        for quarter, pattern in enumerate(i18n.words(each, "words.year_quarters")):
            if found := re.search(pattern, text, re.IGNORECASE):
                return found.group(0), tuple(range(3 * quarter + 1, 3 * quarter + 4))
    return None


def uses_months(code: str, months: tuple[int, ...]) -> bool:
    """Whether ``code`` uses the month of ``months`` (one: :func:`uses_month`), or the quarter of the three
    ``months``: one of them past the first, or the first of the next quarter (``.month <= 3``, ``.month < 4``,
    ``in (1, 2, 3)``, ``'2026-01' <= d <= '2026-03'``; a 1 alone is too common a number to tell)."""
    if len(months) == 1:
        return uses_month(code, months[0])
    return any(uses_month(code, m) for m in (*months[1:], months[-1] + 1) if m <= 12) or (
        months[0] > 1 and uses_month(code, months[0])
    )


def _month_part(text: str, number: int) -> bool:
    """Whether the text ``text`` holds the month ``number`` as a part of a date that is not a whole day:
    ``'2026-11'``, ``'/11/2026'``, ``'-11-'``, ``'11'``. A whole date (``'02/02/2026'``) keeps one day, not the
    month."""
    m = rf"0?{number}"
    return bool(
        re.fullmatch(rf"\d{{4}}[-/.]{m}[-/.]?|[-/.]?{m}[-/.]\d{{4}}|[-/.]?{m}[-/.]?", text.strip())
        and date_format(text) in (None, "%Y-%m")  # a year's month is the month
    )


def _indexes(tree: ast.AST) -> set[int]:
    """The ids of the nodes of ``tree`` that are a subscript's index or slice bound (``row[2]``, ``d[5:7]``) or
    the places of a ``round(x, 2)``: numbers there are positions, not months."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):
            parts = [node.slice.lower, node.slice.upper, node.slice.step] if isinstance(node.slice, ast.Slice) else []
            found.update(id(x) for x in [node.slice, *parts] if x is not None)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "round":
            found.update(id(x) for x in node.args[1:])
    return found


def one_day(code: str, number: int) -> str | None:
    """The first text of ``code`` that is a whole date of the month ``number`` (``'02/02/2026'``: a test that
    keeps one day of it), or None (also when the code does not parse)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError):
        return None
    texts = [n.value.strip() for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    return next(
        (t for t in texts if (shape := date_format(t)) and datetime.datetime.strptime(t, shape).month == number), None
    )


def uses_month(code: str, number: int) -> bool:
    """Whether ``code`` uses the month ``number``: as a number that is not a position (``.month == 11``,
    ``month in (10, 11)``; not ``row[11]``), in a text as a part of a date that is not a whole day
    (``'2026-11'``, ``[5:7] == '11'``; not ``'11/11/2026'``, one day), or by a name of it in any language
    (``'Nov'``, ``'novembre'``), not in a text it only prints ("at Tesco in November"). Any number of it
    when the code does not parse."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError):
        return number in {int(n) for n in re.findall(r"\d+", code)}
    positions = _indexes(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or id(node) in positions:
            continue
        if type(node.value) is int and node.value == number:
            return True
        if isinstance(node.value, str) and _month_part(node.value, number):
            return True
    folded = tested_text(code)
    return any(m == number and len(name) >= 3 and name in folded for name, m in _months().items())
