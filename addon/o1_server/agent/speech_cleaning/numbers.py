"""Numbers, dates and times as said in the conversation's language, never with another value than printed.

The rules (digits kept, float noise shortened, money, grouping, decimal signs): see docs/server.md.
"""

from __future__ import annotations

import contextvars
import datetime
import math
import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from functools import lru_cache

from babel import Locale
from babel.dates import format_date
from babel.lists import format_list
from babel.numbers import format_decimal, get_currency_name, get_currency_symbol, get_decimal_symbol, get_group_symbol
from babel.units import format_unit

from .. import i18n
from .language import ENGLISH, locale_for, word

KEPT_DECIMALS = 4  # a number printed with up to this many decimals was rounded on purpose: said as printed
ASKED_DECIMALS: contextvars.ContextVar[int | None] = contextvars.ContextVar("asked_decimals", default=None)
"""The decimal places the running turn's request asked for (``i18n.asked_decimals``; the session sets it):
a number printed with more is said rounded to that many ("4.3076923" -> "4.308" for "to 3 decimal places")."""
GROUPED: contextvars.ContextVar[bool] = contextvars.ContextVar("grouped", default=False)
"""Whether the code that printed the text groups thousands with "," (:func:`groups_thousands`): then a lone
"45,678" is 45678, where a language with a decimal comma would read it as 45.678."""
# A format spec with "," grouping (Python's mini-language: [[fill]align][sign][z][#][0][width],[.precision][type]),
# in a replacement field or as format()'s second argument.
_GROUPING_SPEC = re.compile(r"""(?::|\bformat\([^()]*,\s*['"])(?:.?[<>=^])?[-+ ]?z?#?0?\d*,(?:\.\d+)?[a-zA-Z%]?[}'"]""")
_SWAPS_SIGNS = re.compile(r"""\.replace\(\s*['"][.,]['"]""")


def groups_thousands(code: str) -> bool:
    """Whether Python ``code`` formats numbers with "," between thousands (``f"{n:,}"``, ``"{:,.2f}".format``,
    ``format(n, ",")``: Python's format spec mini-language) and does not swap "." and "," itself (a model writing
    German often prints ``f"{x:.2f}".replace('.', ',')``)."""
    return bool(_GROUPING_SPEC.search(code)) and not _SWAPS_SIGNS.search(code)


# ---------------------------------------------------------------- dates and times (ISO 8601, as Python prints them)
_ISO_DATE = re.compile(r"(?<![\d-])(\d{4})-(\d{2})-(\d{2})(?![\d-])")
# A timedelta as Python prints it: "2:20:00", "1 day, 3:05:00", "0:45:00.5" (its hours are never zero-padded,
# a time of day's always are: "08:45:00").
_TIMEDELTA = re.compile(r"(?<![\d:.])(?:(-?\d+) days?, )?(\d{1,2}):([0-5]\d):([0-5]\d(?:\.\d+)?)(?![\d:])")
# Words around an unpadded "9:05:30" that make it a time of day after all ("at 9:05:30", "9:05:30 PM").
_CLOCK_BEFORE = re.compile(r"(?:\b(?:at|um|à|a las|alle|om|ore)|\bbis|\buntil)\s*$", re.IGNORECASE)
_CLOCK_AFTER = re.compile(r"^\s*(?:[ap]\.?m\b|uhr\b|h\b)", re.IGNORECASE)
_ISO_TIME = re.compile(r"(?<![\d:])(\d{1,2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[+-]\d{2}:\d{2}|Z)?(?![\d:])")


def say_date(year: int, month: int, day: int, language: str = "en") -> str | None:
    """A calendar date in ``language``'s long form ("December 1, 2026", "1. Dezember 2026"), None if invalid."""
    try:
        return str(format_date(datetime.date(year, month, day), "long", locale=locale_for(language)))
    except ValueError:
        return None


def say_time(hour: int, minute: int) -> str | None:
    """A time of day as hours:minutes ("09:05"), None if invalid."""
    return f"{hour:02d}:{minute:02d}" if 0 <= hour <= 23 and 0 <= minute <= 59 else None


def say_duration(days: int, hours: int, minutes: int, seconds: int, language: str = "en") -> str:
    """A duration in words, in ``language`` (Babel's units and lists): (0, 2, 20, 0) -> "2 hours and 20
    minutes" (en), "2 Stunden und 20 Minuten" (de); seconds are said only when they are not zero."""
    locale = locale_for(language)
    parts = [
        _unit(value, unit, locale)
        for value, unit in ((days, "day"), (hours, "hour"), (minutes, "minute"), (seconds, "second"))
        if value
    ]
    return _spaces(str(format_list(parts, locale=locale))) if parts else _unit(0, "minute", locale)


def say_seconds(total: int, language: str = "en") -> str:
    """A whole number of seconds as a duration in words: 5460 -> "1 hour and 31 minutes" (see :func:`say_duration`)."""
    return say_duration(total // 86400, total % 86400 // 3600, total % 3600 // 60, total % 60, language)


def _unit(value: int | Decimal, unit: str, locale: Locale) -> str:
    """``value`` of the duration ``unit`` ("day", "hour", "minute", "second") in words: "2 hours", "2 Stunden"."""
    return _spaces(str(format_unit(value, f"duration-{unit}", length="long", locale=locale)))


def _spaces(text: str) -> str:
    return text.replace("\xa0", " ").replace("\u202f", " ")  # Babel's no-break spaces, as plain ones


@lru_cache(maxsize=16)
@lru_cache(maxsize=32)
def _cues(language: str, key: str) -> frozenset[str]:
    """The translations' words of ``key`` in ``language`` and in English, lower case."""
    lang = locale_for(language).language
    return frozenset(w.lower() for w in i18n.words(lang, key) + i18n.words("en", key))


def _cue(word: str, cues: frozenset[str], stem: int) -> bool:
    """Whether ``word`` is one of ``cues``, or a compound ending in one of at least ``stem`` letters
    ("Reisedauer", "kooktijd")."""
    return word in cues or any(len(c) >= stem and word.endswith(c) for c in cues)


def _is_duration(match: re.Match[str], language: str) -> bool:
    """Whether an "H:MM:SS" with no days is a duration. The word nearest before it decides: a clock word
    ("at", "Arrival", "Abfahrt", a translation's ``clock_cues``, or "PM"/"Uhr" after it) makes it a time of day;
    a duration word (``duration_cues``: "took", "Reisedauer", "Total"; for an unpadded one also
    ``duration_words``: "Total time", "Reistijd") a duration. With neither, an unpadded one that no clock shows
    ("0:45:00", or with seconds: "3:12:45", as ``str(timedelta)`` prints) is a duration; any other a time of day
    ("Arrival 9:05:00", a clock time the code kept as a timedelta)."""
    hours, seconds = match.group(2), match.group(4)
    before = re.split(r"[.!?\n]\s", match.string[: match.start()])[-1].lower()
    if _CLOCK_BEFORE.search(before) or _CLOCK_AFTER.match(match.string[match.end() :]):
        return False
    padded = len(hours) == 2
    clock = _cues(language, "clock_cues")
    for said in reversed(re.findall(r"[^\W\d_]+(?:[-'][^\W\d_]+)?", before)):
        if said in clock or any(len(c) >= 6 and said.startswith(c) for c in clock):
            return False
        if _cue(said, _cues(language, "duration_cues"), 5) or (
            not padded and _cue(said, _cues(language, "duration_words"), 4)
        ):
            return True
    return not padded and (hours == "0" or float(seconds) != 0)


def _timedelta(match: re.Match[str], language: str) -> str:
    days = match.group(1)
    if days is not None and int(days) < 0:  # Python's "-1 day, 23:00:00" is minus one hour: said so
        total = int(days) * 86400 + int(match.group(2)) * 3600 + int(match.group(3)) * 60
        total += int(Decimal(match.group(4)).quantize(Decimal(1), rounding=ROUND_HALF_UP))
        return "-" + say_seconds(-total, language) if total < 0 else say_seconds(total, language)
    if days is None and not _is_duration(match, language):
        return match.group(0)  # "at 9:05:30", "Arrival: 09:05:00": a time of day
    seconds = Decimal(match.group(4))
    whole = int(days or 0) * 86400 + int(match.group(2)) * 3600 + int(match.group(3)) * 60
    if whole == 0 and seconds != seconds.to_integral_value():
        return _unit(seconds.normalize(), "second", locale_for(language))  # under a minute: "0.5 seconds"
    total = whole + int(seconds.quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return say_seconds(total, language)


def dates_for_speech(text: str, language: str = "en") -> str:
    """ISO dates and times as said: "2026-12-01 00:37:43.5" -> "December 1, 2026 00:37" (en), "1. Dezember 2026
    00:37" (de); seconds are dropped; an impossible date or time is left as written. A timedelta as Python prints
    it is a duration, not a time of day: "2:20:00" -> "2 hours and 20 minutes"."""

    def date(match: re.Match[str]) -> str:
        year, month, day = (int(g) for g in match.groups())
        return say_date(year, month, day, language) or match.group(0)

    def time(match: re.Match[str]) -> str:
        return say_time(int(match.group(1)), int(match.group(2))) or match.group(0)

    text = _ISO_DATE.sub(date, text)
    text = re.sub(r"(\d{4})T(?=\d{1,2}:)", r"\1 ", text)
    text = _TIMEDELTA.sub(lambda m: _timedelta(m, language), text)
    return _ISO_TIME.sub(time, text)


_ENGLISH_NAMES = re.compile(
    r"(?<![\w/\-.`'\"])(?:(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)"
    r"|(?<=\d )(January|February|March|April|June|July|August|September|October|November|December)"
    r"|(?<=\d\. )(January|February|March|April|June|July|August|September|October|November|December)"
    r"|(January|February|March|April|June|July|August|September|October|November|December)(?= \d))"
    r"(?![\w/\-`'\"]|\.\w)"
)
"""A weekday name, or a month name next to a day number ("3. March", "March 3": "March" and "August" are words
and names too; "May" is never matched), not inside a file name, path, URL, code or quotes."""
_MONTH_BEFORE = ("en", "in", "im", "au", "el", "de", "di", "nel", "van", "seit", "bis", "vor", "nach", "mois", "mes")
_ENGLISH_MONTHS = re.compile(
    "(?:"
    + "|".join(rf"(?<=\b{w} )" for w in (*_MONTH_BEFORE, *(w.capitalize() for w in _MONTH_BEFORE)))
    + r")(January|February|March|April|May|June|July|August|September|October|November|December)"
    r"(?![\w/\-`'\"]|\.\w)|(?<=\d )(May)(?= \d)|(?<=\d\. )(May)(?![\w/\-`'\"])"
)
"""An English month name after a preposition of o1's other languages ("on sera en April", "im May"), or "May"
between a day and a year ("29 May 2027"): in a text in another language it is not an English word."""


def names_for_speech(text: str, language: str = "en") -> str:
    """English weekday and month names (what ``strftime("%A")`` and ``"%B"`` print whatever the language) said
    in ``language`` (Babel's wide names): "nous serons le Friday" -> "nous serons le vendredi". English text is
    unchanged."""
    locale = locale_for(language)
    if locale.language == "en":
        return text
    days = dict(zip(ENGLISH.days["format"]["wide"].values(), locale.days["format"]["wide"].values(), strict=True))
    months = dict(zip(ENGLISH.months["format"]["wide"].values(), locale.months["format"]["wide"].values(), strict=True))

    def said(match: re.Match[str]) -> str:
        name = match.group(0)
        return days.get(name) or months.get(name) or name

    return _ENGLISH_MONTHS.sub(said, _ENGLISH_NAMES.sub(said, text))


# A number of seconds as code prints a duration: "5460 seconds", "5460.0 Sekunden", "1,234 segundos".
# Plain digits only: "1,234 Sekunden" may be 1.234 seconds (a decimal comma), and a signed value is left as printed.
_SECONDS = re.compile(
    r"(?<![\w.,\-\u2212])(\d{3,12})(\.0+)?(?![.,]\d)\s+(seconds|secs|Sekunden|secondes|segundos|seconden|secondi)\b",
    re.IGNORECASE,
)
# Hours with one or two decimals ("1.35 hours", "1,35 Stunden": 81 minutes), as ``total_seconds() / 3600``.
_HOURS = re.compile(
    r"(?<![\w.,\-\u2212])(\d{1,4})[.,](\d{1,2})(?![.,]?\d)\s+(hours|Stunden|heures|horas|uur|ore)\b", re.IGNORECASE
)
LONG_SECONDS = 120
"""From this many seconds a duration printed in seconds is also said in larger units."""


def seconds_for_speech(text: str, language: str = "en") -> str:
    """A whole number of seconds from :data:`LONG_SECONDS` up, as code prints a duration
    (``timedelta.total_seconds()``), is said as printed and then in days, hours and minutes: "5460 seconds" ->
    "5460 seconds, that is 1 hour and 31 minutes" (de: "5460 Sekunden, also 1 Stunde und 31 Minuten"). The
    printed value stays; the listener also hears it in the units people count a duration in. Hours with one or
    two decimals that make whole minutes likewise: "1.35 hours" -> "1.35 hours, that is 1 hour and 21 minutes"."""

    joiner = word(language, "that_is").split("{}")[1]  # ", that is "

    def said(match: re.Match[str]) -> str:
        total = int(match.group(1))
        if total < LONG_SECONDS or match.string.startswith(joiner, match.end()):
            return match.group(0)  # short, or said in larger units already (the text is cleaned twice)
        printed = f"{match.group(1)} {match.group(3)}"
        duration = say_seconds(total, language)
        return word(language, "that_is").format(printed, duration)

    def hours(match: re.Match[str]) -> str:
        minutes = (int(match.group(1)) * 100 + int(match.group(2).ljust(2, "0"))) * 60 / 100
        if match.string.startswith(joiner, match.end()) or abs(minutes - round(minutes)) > 1e-9:
            return match.group(0)  # said already, or not a whole number of minutes (1.33 hours)
        total = round(minutes) * 60
        duration = say_seconds(total, language)
        return word(language, "that_is").format(match.group(0), duration)

    return _HOURS.sub(hours, _SECONDS.sub(said, text))


# ---------------------------------------------------------------- shortening long decimals
def _quantize(value: Decimal, decimals: int) -> str:
    return f"{value.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP):f}"


def shorten(digits: str, money: bool = False, extra: int = 0) -> str:
    """A long decimal (``digits`` as Python printed it, no sign, no exponent) at the precision a listener needs:
    float noise is undone (0.30000000000000004 -> 0.3); else at least 2 decimals and 3 significant digits
    (21.333333333333332 -> 21.33, 0.000123456 -> 0.000123), more while the rounding would end in a carried zero
    (2.99512 -> 2.995, never 3); money keeps 2 decimals. ``extra`` adds decimals (to keep two values apart)."""
    value = Decimal(digits)
    if value == 0:
        return "0"
    clean = f"{float(digits):.15g}"
    if not extra and "e" not in clean and len(clean) < len(digits) and len(clean.partition(".")[2]) <= KEPT_DECIMALS:
        return _trim(clean, money)  # float noise: the number the code meant
    size = abs(value)
    decimals = max(2, 2 - math.floor(math.log10(size)))
    if money and size >= Decimal("0.01"):
        decimals = 2
    decimals += extra
    for more in range(5):
        said = _quantize(value, decimals + more)
        if not said.endswith("0"):
            return said
    return _trim(_quantize(value, decimals), money)


def _trim(digits: str, money: bool) -> str:
    """Trailing zeros off (money keeps two decimals): "12.0" -> "12", "12.5" (money) -> "12.50"."""
    whole, _, decimals = digits.partition(".")
    decimals = decimals.rstrip("0")
    if money and (decimals or "." in digits):
        decimals = decimals.ljust(2, "0")
    return f"{whole}.{decimals}" if decimals else whole


def round_for_speech(number: float) -> str:
    """``number`` shortened for speech by the rule of ``shorten`` (3.14159 -> "3.14", 1234.5678 -> "1234.57",
    12.0 -> "12"); English digits, no exponent."""
    if not math.isfinite(number):
        return str(number)
    sign = "-" if number < 0 else ""
    said = shorten(f"{abs(Decimal(repr(number))):f}")
    return "0" if said == "0" else sign + said


# ---------------------------------------------------------------- money
_CURRENCIES = ("USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "CNY", "INR", "SEK", "NOK", "DKK", "PLN", "CZK")


@lru_cache(maxsize=32)
def _money_words(locale: Locale) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(before, after): a currency sign or code just before a number, a currency sign, code or word just after,
    from Babel's currency names in ``locale`` and in English ("$", "EUR", "euros", "Pfund", "francs")."""
    signs, names = {"$", "€", "£", "¥", "₹"}, set()
    for code in _CURRENCIES:
        signs.add(code)
        for where in (locale, ENGLISH):
            signs.add(get_currency_symbol(code, locale=where))
            for count in (1, 2):
                names.add(re.split(r"[\s-]", get_currency_name(code, count, locale=where))[-1])
    sign = "|".join(sorted((re.escape(s) for s in signs), key=len, reverse=True))
    name = "|".join(sorted((re.escape(n) for n in names), key=len, reverse=True))
    return re.compile(rf"(?:{sign})\s?-?$"), re.compile(rf"^\s?(?:{sign}|(?i:{name})\b|cents?\b)")


# ---------------------------------------------------------------- the number pass
# A number not glued to a word, a path or a time: digits with dots or commas between them, maybe an exponent.
_NUMBER = re.compile(r"(?<![\w.,:/#+\-])(-)?(\d+(?:[.,]\d+)*)([eE][-+]?\d+)?(?![\w:/]|[.,]\d)")
_VERSION_WORD = re.compile(r"(?i:\b(?:version|versión|versione|v|python|release|build|firmware|kernel))\s*$")
_EN_GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")  # 1,234,567 or 1,234.56: Python's f"{x:,}"
_LOCALE_STYLE = re.compile(r"\d,\d{1,2}(?!\d)|\d,\d{4,}|\d{1,3}(?:\.\d{3}){2,}(?![\d.])")  # 3,5 or 1.234.567


class _Numbers:
    """One text's numbers said in one locale (see ``numbers_for_speech``)."""

    def __init__(self, text: str, language: str, group: bool) -> None:
        self.text = text
        self.locale = locale_for(language)
        self.language = language
        self.group = group
        self.point = str(get_decimal_symbol(self.locale))
        self.comma = str(get_group_symbol(self.locale))
        # Where "." groups thousands, "1.234" could be either: a decimal (as Python prints it) unless the text
        # writes its numbers the locale's way elsewhere (3,5 or 1.234.567).
        self.locale_style = self.comma == "." and bool(_LOCALE_STYLE.search(text))
        self.before, self.after = _money_words(self.locale)
        self.extra: dict[str, int] = self._apart()

    def _apart(self) -> dict[str, int]:
        """Extra decimals for long numbers that would otherwise be said alike ("1.41" for two values)."""
        longs = {m.group(2) for m in _NUMBER.finditer(self.text) if self._long(m.group(2)) and not m.group(3)}
        extra = dict.fromkeys(longs, 0)
        for _ in range(4):
            said: dict[str, list[str]] = {}
            for digits in longs:
                said.setdefault(shorten(digits, extra=extra[digits]), []).append(digits)
            clashes = [d for same in said.values() if len({Decimal(x) for x in same}) > 1 for d in same]
            if not clashes:
                break
            for digits in clashes:
                extra[digits] += 1
        return extra

    @staticmethod
    def _long(digits: str) -> bool:
        return digits.count(".") == 1 and "," not in digits and len(digits.partition(".")[2]) > KEPT_DECIMALS

    def grouped(self, whole: str, threshold: int) -> str:
        """Integer digits grouped the locale's way from ``threshold`` digits (a space-like sign made no-break)."""
        if not self.group or len(whole) < threshold or (whole.startswith("0") and whole != "0"):
            return whole
        try:
            said = str(format_decimal(int(whole), locale=self.locale))
        except InvalidOperation:  # over Babel's decimal context (28 digits): said as printed
            return whole
        return re.sub(r"\s", "\u00a0", said)

    def decimal(self, whole: str, decimals: str) -> str:
        """Digits said in the locale: grouped from 6 digits, or 7 for an integer where "." groups (a lone group
        "100.001" would read as a decimal)."""
        if decimals:
            return f"{self.grouped(whole, 6)}{self.point}{decimals}"
        return self.grouped(whole, 7 if self.comma == "." else 6)

    def __call__(self, match: re.Match[str]) -> str:
        sign, digits, exponent = match.group(1) or "", match.group(2), match.group(3)
        start, end = match.span()
        money = bool(self.before.search(self.text[max(0, start - 6) : start])) or bool(
            self.after.match(self.text[end : end + 20])
        )
        if exponent:
            return sign + self.exponent(digits, int(exponent[1:]), money)
        if digits.isdigit():  # an integer: grouped when big (a lone group of 3 after "." is ambiguous: 7 digits)
            if re.search(r"\d[ \u00a0\u202f]$", self.text[max(0, start - 2) : start]) or re.match(
                r"[ \u00a0\u202f]\d", self.text[end : end + 2]
            ):
                return match.group(0)  # a phone number or a spaced group: as written
            return sign + self.decimal(digits, "")
        if _EN_GROUPED.fullmatch(digits) and (digits.count(",") > 1 or "." in digits):
            whole, _, decimals = digits.replace(",", "").partition(".")
            return sign + self.dotted(whole, decimals, money)
        if self.point == "," and GROUPED.get() and re.fullmatch(r"\d{1,3},\d{3}", digits):
            return sign + self.decimal(digits.replace(",", ""), "")  # f"{n:,}" in a decimal-comma language
        if digits.count(".") != 1 or "," in digits:
            return match.group(0)  # a version, an address, a date, a number in the locale's own writing
        if _VERSION_WORD.search(self.text[max(0, start - 12) : start]):
            return match.group(0)
        whole, _, decimals = digits.partition(".")
        if self.comma == "." and self.thousands(whole, decimals):
            return match.group(0)
        return sign + self.dotted(whole, decimals, money)

    def thousands(self, whole: str, decimals: str) -> bool:
        """Whether "1.234" is a thousands group (a locale where "." groups, and the text's own style or a
        trailing zero say so) rather than a decimal as Python prints it."""
        ambiguous = len(decimals) == 3 and len(whole) <= 3 and not whole.startswith("0")
        return ambiguous and (self.locale_style or decimals.endswith("0"))

    def dotted(self, whole: str, decimals: str, money: bool) -> str:
        """A number printed with a decimal point, said in the locale: long ones shortened, money with cents."""
        digits = f"{whole}.{decimals}" if decimals else whole
        asked = ASKED_DECIMALS.get()
        if asked is not None and not money and len(decimals) > asked:
            digits = _quantize(Decimal(digits), asked)  # the places the user asked for
        elif len(decimals) > KEPT_DECIMALS or (money and len(decimals) > 2):
            # money is said in cents (29.1125 euros -> 29.11), unless that would end in a carried zero (2.995)
            digits = shorten(digits, money, self.extra.get(digits, 0))
        elif set(decimals) <= {"0"} and not money:
            digits = whole  # 12.0: Python's float of a whole number
        elif money and len(decimals) < 2:
            digits = _trim(digits, money)
        if digits == "0" or set(digits) <= {"0", "."}:
            digits = "0"
        whole, _, decimals = digits.partition(".")
        return self.decimal(whole, decimals)

    def exponent(self, digits: str, power: int, money: bool) -> str:
        """Scientific notation: in full from 10**-3 to 10**9, else "6.02 times 10 to the power of 23"."""
        try:
            mantissa = Decimal(digits)
        except InvalidOperation:
            return digits
        if -3 <= power <= 9:
            full = f"{mantissa.scaleb(power):f}"
            whole, _, decimals = full.partition(".")
            return self.dotted(whole, decimals, money)
        whole, _, decimals = digits.partition(".")
        return word(self.language, "power").format(self.dotted(whole, decimals, False), power)


def numbers_for_speech(text: str, language: str = "en", group: bool = True) -> str:
    """Every number of ``text`` said in ``language`` with the value it was printed with (docs/server.md):
    up to 4 decimals kept as printed, longer ones shortened (``shorten``), money with two decimals, the
    locale's decimal sign, integers of 6 digits and more grouped when ``group`` (7 where "." groups)."""
    numbers = _Numbers(text, language, group)

    def said(match: re.Match[str]) -> str:
        out = numbers(match)
        return out[1:] if out.startswith("-") and set(out[1:]) <= {"0"} else out  # no "minus zero"

    return _NUMBER.sub(said, text)


def round_numbers(text: str) -> str:
    """English ``numbers_for_speech`` without grouping (the older name)."""
    return numbers_for_speech(text, "en", group=False)
