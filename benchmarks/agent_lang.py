"""Language helpers of the agent benchmark: number words, localized numbers, dates and the language rule.

``spell(n, lang)`` says a whole number 0..999 999 in words (en, de, fr, es; tests/server/test_bench_cases.py
reads every one back with text2num). ``numbers_in(text, lang)`` reads every number an answer may hold: digits
with the language's separators ("21,33", "1.000", "1 000" in de/fr/es; "1,000.5" in en; "21.33" everywhere) and
number words (text2num). Month and weekday names come from Babel. ``in_language(text, lang)`` is the rule that
decides whether an answer is in the conversation's language (see its docstring and benchmarks/README.md);
Italian and Dutch answers (``MORE_LANGUAGES``) are read and judged too.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import cache
from typing import Any

from babel.dates import format_date, get_day_names, get_month_names
from text_to_num import alpha2digit

LANGUAGES = ("en", "de", "fr", "es")
MORE_LANGUAGES = ("it", "nl")
"""Languages o1 also speaks: their numbers are read and their answers judged (``in_language``) among all six,
while de/fr/es answers are still judged among :data:`LANGUAGES` alone (the scores of the older sets stay)."""

_EN = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_EN_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_DE = [
    "null",
    "eins",
    "zwei",
    "drei",
    "vier",
    "fünf",
    "sechs",
    "sieben",
    "acht",
    "neun",
    "zehn",
    "elf",
    "zwölf",
    "dreizehn",
    "vierzehn",
    "fünfzehn",
    "sechzehn",
    "siebzehn",
    "achtzehn",
    "neunzehn",
]
_DE_TENS = ["_", "_", "zwanzig", "dreißig", "vierzig", "fünfzig", "sechzig", "siebzig", "achtzig", "neunzig"]
_FR = [
    "zéro",
    "un",
    "deux",
    "trois",
    "quatre",
    "cinq",
    "six",
    "sept",
    "huit",
    "neuf",
    "dix",
    "onze",
    "douze",
    "treize",
    "quatorze",
    "quinze",
    "seize",
    "dix-sept",
    "dix-huit",
    "dix-neuf",
]
_FR_TENS = ["_", "_", "vingt", "trente", "quarante", "cinquante", "soixante"]
_ES = [
    "cero",
    "uno",
    "dos",
    "tres",
    "cuatro",
    "cinco",
    "seis",
    "siete",
    "ocho",
    "nueve",
    "diez",
    "once",
    "doce",
    "trece",
    "catorce",
    "quince",
    "dieciséis",
    "diecisiete",
    "dieciocho",
    "diecinueve",
    "veinte",
    "veintiuno",
    "veintidós",
    "veintitrés",
    "veinticuatro",
    "veinticinco",
    "veintiséis",
    "veintisiete",
    "veintiocho",
    "veintinueve",
]
_ES_TENS = ["_", "_", "veinte", "treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa"]
_ES_HUNDREDS = [
    "_",
    "ciento",
    "doscientos",
    "trescientos",
    "cuatrocientos",
    "quinientos",
    "seiscientos",
    "setecientos",
    "ochocientos",
    "novecientos",
]


def _en(n: int, conj: bool) -> str:
    if n < 20:
        return _EN[n]
    if n < 100:
        return _EN_TENS[n // 10] + ("-" + _EN[n % 10] if n % 10 else "")
    if n < 1000:
        rest = n % 100
        return _EN[n // 100] + " hundred" + ((" and " if conj else " ") + _en(rest, conj) if rest else "")
    rest = n % 1000
    sep = " and " if conj and rest < 100 else " "
    return _en(n // 1000, conj) + " thousand" + (sep + _en(rest, conj) if rest else "")


def _de(n: int) -> str:
    if n < 20:
        return _DE[n]
    if n < 100:
        unit = n % 10
        return ("ein" if unit == 1 else _DE[unit]) + "und" + _DE_TENS[n // 10] if unit else _DE_TENS[n // 10]
    if n < 1000:
        rest = n % 100
        return ("ein" if n // 100 == 1 else _DE[n // 100]) + "hundert" + (_de(rest) if rest else "")
    rest = n % 1000
    head = re.sub("eins$", "ein", _de(n // 1000))
    return head + "tausend" + (_de(rest) if rest else "")


def _fr(n: int) -> str:
    if n < 20:
        return _FR[n]
    if n < 70:
        unit = n % 10
        tens = _FR_TENS[n // 10]
        return tens + (" et un" if unit == 1 else "-" + _FR[unit] if unit else "")
    if n < 80:
        return "soixante" + (" et onze" if n == 71 else "-" + _FR[n - 60])
    if n < 100:
        return "quatre-vingts" if n == 80 else "quatre-vingt-" + _FR[n - 80]
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        head = "cent" if hundreds == 1 else _FR[hundreds] + (" cents" if rest == 0 else " cent")
        return head + (" " + _fr(rest) if rest else "")
    thousands, rest = divmod(n, 1000)
    head = "mille" if thousands == 1 else re.sub("(cent|vingt)s$", r"\1", _fr(thousands)) + " mille"
    return head + (" " + _fr(rest) if rest else "")


def _es(n: int) -> str:
    if n < 30:
        return _ES[n]
    if n < 100:
        return _ES_TENS[n // 10] + (" y " + _ES[n % 10] if n % 10 else "")
    if n < 1000:
        if n == 100:
            return "cien"
        rest = n % 100
        return _ES_HUNDREDS[n // 100] + (" " + _es(rest) if rest else "")
    thousands, rest = divmod(n, 1000)
    head = "mil" if thousands == 1 else re.sub("uno$", "un", re.sub("veintiuno$", "veintiún", _es(thousands))) + " mil"
    return head + (" " + _es(rest) if rest else "")


def spell(n: int, lang: str = "en", conj: bool = True) -> str:
    """``n`` (0..999 999) in words in ``lang`` ("en", "de", "fr", "es"); ``conj``: English "and" after
    hundreds. Raises ValueError out of range or for another language."""
    if not 0 <= n < 1_000_000:
        raise ValueError(f"cannot spell {n}")
    if lang == "en":
        return _en(n, conj)
    if lang == "de":
        return _de(n)
    if lang == "fr":
        return _fr(n)
    if lang == "es":
        return _es(n)
    raise ValueError(f"no number words for {lang!r}")


_SPACES = "\u00a0\u202f\u2009 "
_NUMBER = re.compile(rf"(?<![\w.,])-?\d[\d.,{_SPACES}]*\d(?![\w])|(?<![\w.,])-?\d(?![\w])")


def _readings(token: str, lang: str) -> set[float]:
    """The values a digit token can mean in ``lang`` (a dot or comma may be decimal or thousands)."""
    token = token.strip(_SPACES)
    sign = -1.0 if token.startswith("-") else 1.0
    token = token.lstrip("-")
    out: set[float] = set()
    grouped = re.sub(rf"(?<=\d)[{_SPACES}](?=\d{{3}}(?!\d))", "", token)
    for thousands, decimal in ((",", "."), (".", ","), ("", "."), ("", ",")):
        if lang == "en" and decimal == ",":
            continue
        text = grouped
        if thousands:
            if not re.fullmatch(rf"\d{{1,3}}(\{thousands}\d{{3}})+(\{decimal}\d+)?", text):
                continue
            text = text.replace(thousands, "")
        if text.count(decimal) > 1 or re.search(r"[^\d" + re.escape(decimal) + "]", text):
            continue
        out.add(sign * float(text.replace(decimal, ".")))
    return out


def numbers_in(text: str, lang: str = "en") -> list[float]:
    """Every value the numbers of ``text`` may mean in ``lang``: digits (with the separators above) and number
    words (text2num, any size; "one" too). Ambiguous tokens give each reading ("1.000" in de: 1.0 and 1000)."""
    values: set[float] = set()
    for source in (text, _words_to_digits(text, lang)):
        for token in _NUMBER.findall(source):
            values |= _readings(token, lang)
    return sorted(values)


def _words_to_digits(text: str, lang: str) -> str:
    try:
        return alpha2digit(text, lang if lang in LANGUAGES + MORE_LANGUAGES else "en", threshold=0)
    except (ValueError, IndexError, KeyError):  # text2num trips over odd input; the digits still count
        return text


def decimals_in(text: str, lang: str = "en") -> list[tuple[float, int]]:
    """Each decimal number written in ``text`` with its count of decimals: (1.414, 3) for "1.414" and, outside
    English, for "1,414" too."""
    out = []
    mark = "[.]" if lang == "en" else "[.,]"
    for whole, frac in re.findall(rf"(?<![\w.,])(-?\d+){mark}(\d+)(?![\w]|[.,]\d)", text):
        out.append((float(f"{whole}.{frac}"), len(frac)))
    return out


# ------------------------------------------------------------------ dates (Babel)


@cache
def month_names(lang: str) -> tuple[str, ...]:
    """The wide month names of ``lang``, January first, lower case (Babel)."""
    names = get_month_names("wide", locale=lang)
    return tuple(names[i].lower() for i in range(1, 13))


@cache
def weekday_names(lang: str) -> tuple[str, ...]:
    """The wide weekday names of ``lang``, Monday first, lower case (Babel)."""
    names = get_day_names("wide", locale=lang)
    return tuple(names[i].lower() for i in range(7))


def say_date(day: dt.date, lang: str, year: bool = True) -> str:
    """``day`` as people write it in ``lang`` ("March 14, 2021", "14. März 2021", "14 mars 2021")."""
    if year:
        return format_date(day, "long", locale=lang)
    pattern = {"en": "MMMM d", "de": "d. MMMM", "fr": "d MMMM", "es": "d 'de' MMMM"}[lang]
    return format_date(day, pattern, locale=lang)


def weekdays_said(text: str, lang: str) -> set[int]:
    """The weekdays (0 = Monday) named in ``text``, in ``lang`` or in English."""
    low = text.lower()
    found = set()
    for names in {weekday_names(lang), weekday_names("en")}:
        for i, name in enumerate(names):
            if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", low):
                found.add(i)
    return found


def says_date(text: str, day: dt.date, lang: str) -> bool:
    """``text`` names ``day``: its day of month beside its month (a name in ``lang`` or English, or the month
    number in a numeric date: 2026-03-14, 14.03., 14/3, 3/14)."""
    low = text.lower()
    d, m = day.day, day.month
    if re.search(rf"\b{day.year}-0?{m}-0?{d}\b", low):
        return True
    if re.search(rf"(?<![\d.,/])(0?{d}[./-]0?{m}|0?{m}/0?{d})(?!\d)", low):
        return True
    months = {month_names(lang)[m - 1], month_names("en")[m - 1]}
    for month in months:
        m_re = re.escape(month)
        if re.search(rf"(?<!\d)0?{d}(st|nd|rd|th|er|\.|º)?\s*(de\s+)?{m_re}(?!\w)", low) or re.search(
            rf"(?<!\w){m_re}\s+(the\s+)?0?{d}(st|nd|rd|th)?(?!\d)", low
        ):
            return True
    return False


# ------------------------------------------------------------------ the language of an answer

FUNCTION_WORDS = {
    "en": [
        "the",
        "is",
        "are",
        "and",
        "of",
        "to",
        "you",
        "your",
        "it",
        "there",
        "this",
        "that",
        "with",
        "for",
        "from",
        "file",
        "files",
        "day",
        "days",
        "i",
        "can",
        "not",
    ],
    "de": [
        "der",
        "die",
        "das",
        "und",
        "ist",
        "sind",
        "es",
        "ich",
        "nicht",
        "ein",
        "eine",
        "einen",
        "mit",
        "von",
        "zu",
        "den",
        "dem",
        "des",
        "auf",
        "für",
        "ihre",
        "ihr",
        "sie",
        "datei",
        "dateien",
        "tage",
        "tag",
        "heute",
        "kann",
        "keine",
        "kein",
        "gibt",
        "wurde",
        "liegt",
    ],
    "fr": [
        "le",
        "la",
        "les",
        "et",
        "est",
        "sont",
        "il",
        "elle",
        "je",
        "ne",
        "pas",
        "un",
        "une",
        "des",
        "du",
        "vous",
        "votre",
        "dans",
        "pour",
        "avec",
        "fichier",
        "fichiers",
        "jours",
        "jour",
        "aujourd'hui",
        "peux",
        "sur",
        "au",
        "aux",
        "ce",
        "cette",
    ],
    "es": [
        "el",
        "la",
        "los",
        "las",
        "y",
        "es",
        "son",
        "hay",
        "un",
        "una",
        "unos",
        "del",
        "que",
        "en",
        "para",
        "con",
        "su",
        "sus",
        "usted",
        "archivo",
        "archivos",
        "días",
        "día",
        "hoy",
        "puedo",
        "está",
        "tiene",
    ],
    "it": ["il", "lo", "gli", "è", "sono", "di", "che", "non", "una", "per", "della", "nel", "nella", "ho", "hai",
           "posso", "giorni", "giorno", "oggi", "alle", "sei", "hanno", "questo", "questa", "cartella", "ci"],
    "nl": ["het", "een", "zijn", "van", "niet", "ik", "je", "jij", "op", "met", "voor", "dat", "er", "bestand",
           "bestanden", "dagen", "dag", "vandaag", "kan", "geen", "om", "naar", "heb", "hebt", "u", "uw", "ook",
           "wordt", "staat", "map"],
}  # fmt: skip
"""Common short words of each language; the lists of de, fr, es, it and nl hold no English word."""
SHARED_WITH_ENGLISH = {"nl": {"is"}, "it": {"i", "file"}}
"""Words of English's list that are as common in Dutch or Italian (not counted as English there)."""


def function_words(text: str, lang: str) -> int:
    """How many words of ``text`` are on ``lang``'s list of common function words (FUNCTION_WORDS)."""
    words = re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", text.lower())
    vocab = set(FUNCTION_WORDS[lang])
    return sum(1 for w in words if w in vocab)


def in_language(text: str, lang: str) -> bool:
    """Whether ``text`` is in ``lang``: it has more of ``lang``'s function words than of English's and at least
    as many as of each other of de/fr/es (their lists share a few words: "es", "la", "un", "du"). Not English
    (at least as many English words) otherwise; with no English word, a text of at most three words and none
    listed (a bare number, a name) passes, and any other is ``lang`` when py3langid's best guess among
    en/de/fr/es says so ("Vale, no lo haré.", "Du bist um 9:15 Uhr da.": no listed word, or only another
    language's). English answers always pass. Italian and Dutch (:data:`MORE_LANGUAGES`) are weighed against
    all six languages, without the English words they share (:data:`SHARED_WITH_ENGLISH`)."""
    if lang == "en":
        return True
    pool = LANGUAGES if lang in LANGUAGES else LANGUAGES + MORE_LANGUAGES
    counts = {other: function_words(text, other) for other in pool}
    own, english = counts.pop(lang), counts.pop("en")
    if lang in SHARED_WITH_ENGLISH:  # Dutch "is", Italian "i" and "file": not a sign of English there
        english -= sum(1 for w in re.findall(r"[^\W\d_]+", text.lower()) if w in SHARED_WITH_ENGLISH[lang])
    if own > english and own >= max(counts.values()):
        return True
    if english:
        return False
    words = re.findall(r"[^\W\d_]{2,}", text)
    if len(words) <= 3 and not own and not any(counts.values()):
        return True
    return _identified(" ".join(words), pool) == lang


@cache
def _identifier(languages: tuple[str, ...] = LANGUAGES) -> Any:
    """py3langid's identifier restricted to ``languages`` (loaded once per set)."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    identifier.set_languages(list(languages))
    return identifier


def _identified(text: str, languages: tuple[str, ...] = LANGUAGES) -> str:
    """py3langid's most likely language of ``text`` among ``languages``."""
    return str(_identifier(languages).classify(text)[0])
