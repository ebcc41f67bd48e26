"""Symbols a voice misreads, said as words in the speaking language: emoji, web addresses, units, times, dates.

Plain text in, plain text out; markdown is :mod:`.markdown`'s. Unit words are Babel's (CLDR), dates Babel's long
form, the few words Babel lacks come from the ``spoken`` section of agent/translations/. Rules: docs/speech.md.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

import regex  # type: ignore[import-untyped]  # Unicode's emoji properties (no stubs); installed with tiktoken
from babel import Locale
from babel.dates import get_date_format
from babel.numbers import format_decimal
from babel.units import format_unit

from .language import locale_for, spoken_word
from .numbers import dates_for_speech, say_date

# ---------------------------------------------------------------- emoji
YES_MARKS = "\u2705\u2714\u2611\u2713"  # ✅ ✔ ☑ ✓: said as "yes"
NO_MARKS = "\u274c\u2716\u274e\u2717\u2718"  # ❌ ✖ ❎ ✗ ✘: said as "no"
_KEPT = "\u00a9\u00ae\u2122"  # © ® ™ are pictographic in Unicode but read well by name
_EMOJI = regex.compile(
    r"\p{Regional_Indicator}{2}"  # a flag
    r"|[\p{Extended_Pictographic}\u2713\u2717\u2718](?:[\uFE0E\uFE0F]|\p{Emoji_Modifier})*"
    r"(?:\u200D\p{Extended_Pictographic}(?:[\uFE0E\uFE0F]|\p{Emoji_Modifier})*)*"
    r"|[\uFE0F\u200D\u20E3]|\p{Emoji_Modifier}"  # what is left of a sequence
)
_KEYCAP = re.compile(r"([0-9#*])\uFE0F?\u20E3")


def _emoji(text: str, language: str) -> str:
    def said(match: Any) -> str:  # a regex.Match (the regex module has no type information)
        mark = str(match.group(0))[0]
        if mark in _KEPT and len(match.group(0)) == 1:
            return str(mark)
        if mark in YES_MARKS or mark in NO_MARKS:
            return f" {spoken_word(language, 'yes' if mark in YES_MARKS else 'no')}, "
        return " "

    text = _KEYCAP.sub(r"\1", text)
    text = str(_EMOJI.sub(said, text))
    return re.sub(r",\s*(?=[.!?;:,]|$)", "", text, flags=re.M)  # "Done yes, ." -> "Done yes."


# ---------------------------------------------------------------- web addresses
_URL = re.compile(r"(?<![\w@/])(?:https?://|ftp://|www\.)[^\s<>\"'()\[\]]+", re.I)


def site(url: str) -> str:
    """The site a web address names, as said: ``https://www.example.com/a?b`` -> ``example.com``; an address
    without a readable host is said as "a link"."""
    trail = re.search(r"[.,;:!?]+$", url)
    url = url[: trail.start()] if trail else url
    host = urlsplit(url if "://" in url else f"http://{url}").hostname or ""
    host = host.removeprefix("www.")
    return host or "link"


def _urls(text: str) -> str:
    def said(match: re.Match[str]) -> str:
        url = match.group(0)
        trail = re.search(r"[.,;:!?]+$", url)
        return site(url) + (trail.group(0) if trail else "")

    return _URL.sub(said, text)


# ---------------------------------------------------------------- units
UNITS = (
    "temperature-celsius",
    "temperature-fahrenheit",
    "energy-kilowatt-hour",
    "energy-kilocalorie",
    "concentr-percent",
    "concentr-part-per-1e6",
    "speed-kilometer-per-hour",
    "speed-mile-per-hour",
    "speed-meter-per-second",
    "power-watt",
    "power-kilowatt",
    "power-megawatt",
    "electric-volt",
    "electric-ampere",
    "pressure-hectopascal",
    "pressure-millibar",
    "pressure-bar",
    "length-millimeter",
    "length-centimeter",
    "length-kilometer",
    "mass-kilogram",
    "volume-liter",
    "volume-milliliter",
    "volume-cubic-meter",
    "area-square-meter",
    "light-lux",
    "frequency-hertz",
    "duration-hour",
    "duration-minute",
    "duration-second",
)
"""The CLDR units said in words after a number; their symbols are Babel's short forms in English and German
("°C", "kWh", "km/h", "%", "W", "V" ...). Meters, grams and minutes are not among them: "5 m" is not sure."""
_NUMBER = r"(?<![\w.,])(-?\d+(?:[.,]\d+)*)"


@lru_cache(maxsize=1)
def _symbols() -> dict[str, str]:
    """Unit symbol -> CLDR unit id, from Babel's short and narrow forms in English and German."""
    found: dict[str, str] = {}
    for unit in UNITS:
        for locale in ("en", "de"):
            for length in ("short", "narrow"):
                symbol = str(format_unit(5, unit, length, locale=locale)).replace("5", "", 1).strip().rstrip(".")
                if symbol and symbol != "°":
                    found.setdefault(symbol, unit)
    found.update({"°c": "temperature-celsius", "kwh": "energy-kilowatt-hour"})
    for ambiguous in ("mb", "m"):  # megabytes as often as millibars; meters as often as minutes
        found.pop(ambiguous, None)
    return found


@lru_cache(maxsize=1)
def _unit_pattern() -> re.Pattern[str]:
    symbols = sorted(_symbols(), key=len, reverse=True)
    alternatives = "|".join(re.escape(s) for s in symbols)
    return re.compile(rf"{_NUMBER}[ \u00a0\u202f]?({alternatives})(?![\w/²³°])")


def _amount(digits: str, locale: Locale) -> Decimal:
    """The value of a number as the text writes it ("21,5" in German), only for choosing the plural."""
    point = "," if locale.number_symbols.get("latn", {}).get("decimal", ".") == "," else "."
    group = "." if point == "," else ","
    try:
        return Decimal(digits.replace(group, "").replace(point, "."))
    except InvalidOperation:
        return Decimal(2)


def say_unit(digits: str, unit: str, language: str) -> str:
    """A number as written (``digits``) with the CLDR ``unit`` in words in ``language``: ("21.5",
    "temperature-celsius", "en") -> "21.5 degrees Celsius"; ("1", "energy-kilowatt-hour", "de") -> "1
    Kilowattstunde". Hyphens of the unit's name are spaces ("kilowatt hours")."""
    locale = locale_for(language)
    value = _amount(digits.lstrip("-"), locale)
    formatted = str(format_decimal(value, locale=locale))
    said = str(format_unit(value, unit, "long", locale=locale))
    words = said.replace(formatted, "\0", 1) if formatted in said else "\0 " + said
    words = re.sub(r"(?<=[^\W\d_])-(?=[^\W\d_])|[\u00a0\u202f]", " ", words)
    return words.replace("\0", digits)


def _units(text: str, language: str) -> str:
    symbols = _symbols()

    def said(match: re.Match[str]) -> str:
        unit = symbols.get(match.group(2)) or symbols[match.group(2).lower()]
        return say_unit(match.group(1), unit, language)

    text = _unit_pattern().sub(said, text)
    return re.sub(rf"{_NUMBER}[ \u00a0]?°(?![\w])", lambda m: spoken_word(language, "degrees").format(m.group(1)), text)


# ---------------------------------------------------------------- times and dates
_TIME = re.compile(r"(?<![\d:.,])([01]?\d|2[0-3]):([0-5]\d)(?::[0-5]\d)?(?![\d:])(\s*(?:Uhr\b|h\b))?")
_DOTTED_DATE = re.compile(r"(?<![\d.])(\d{1,2})\.(\d{1,2})\.(\d{4})(?!\d|\.\d)")
_SLASHED_DATE = re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})/(\d{4})(?![\d/])")


def say_clock(hour: int, minute: int, language: str) -> str:
    """A time of day as the voice should read it: (14, 30) -> "14 30" (en), "14 Uhr 30" (de); (14, 0) -> "14
    hundred", "14 Uhr"; (9, 5) -> "9 oh 5" (en). Words from the ``spoken.time*`` keys of the translations."""
    if minute == 0:
        key = "time_hundred" if hour > 12 else "time_full"
    else:
        key = "time_zero" if minute < 10 else "time"
    return spoken_word(language, key).format(hour=hour, minute=minute)


def _month_first(language: str) -> bool:
    """Whether the locale writes slashed dates month first (en_US "M/d/yy")."""
    pattern = str(get_date_format("short", locale=locale_for(language)).pattern)
    return pattern.find("M") < pattern.find("d")


def _dates(text: str, language: str) -> str:
    def dotted(match: re.Match[str]) -> str:
        day, month, year = (int(g) for g in match.groups())
        return say_date(year, month, day, language) or match.group(0)

    def slashed(match: re.Match[str]) -> str:
        first, second, year = (int(g) for g in match.groups())
        month, day = (first, second) if _month_first(language) else (second, first)
        return say_date(year, month, day, language) or match.group(0)

    text = dates_for_speech(text, language)
    text = _DOTTED_DATE.sub(dotted, text)
    return _SLASHED_DATE.sub(slashed, text)


def _times(text: str, language: str) -> str:
    return _TIME.sub(lambda m: say_clock(int(m.group(1)), int(m.group(2)), language), text)


# ---------------------------------------------------------------- leftovers
_TIMES_SIGN = re.compile(r"(?<=\d)\s*[*×]\s*(?=\d)")
_APPROX = re.compile(r"(?<![\w~])~\s?(?=\d)")


def _leftovers(text: str, language: str) -> str:
    """Signs no voice should name: "5 * 3" -> "5 times 3", "~5" -> "about 5", stray ``*`` ``_`` ``~`` ``^``
    ``\\`` and ``#`` (before a word or number) dropped, "|" a comma, arrows "to"."""
    text = _TIMES_SIGN.sub(" " + spoken_word(language, "times") + " ", text)
    text = _APPROX.sub(spoken_word(language, "about") + " ", text)
    text = re.sub(r"\s*[→⇒➔⟶]\s*", " " + spoken_word(language, "to") + " ", text)
    text = re.sub(r"(?<=\w)_(?=\w)", " ", text)
    text = re.sub(r"[*_~^\\`]+", " ", text)
    text = re.sub(r"(?<!\S)#+(?=\w)", "", text)
    text = re.sub(r"\s*\|\s*", ", ", text)
    return re.sub(r"(?<!\S)[•·▪◦‣]\s*", "", text)


def symbols_for_speech(text: str, language: str = "en") -> str:
    """``text`` with emoji dropped (a check mark "yes", a cross "no"), web addresses said as their site,
    units after a number in words, times and dates as the voice should read them, and stray markup signs
    gone, in ``language`` ("en", "de-DE"; unknown: English). Numbers keep their digits as written."""
    text = _emoji(text, language)
    text = _urls(text)
    text = _dates(text, language)
    text = _times(text, language)
    text = _units(text, language)
    return _leftovers(text, language)
