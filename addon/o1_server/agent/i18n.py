"""The languages o1 speaks: every sentence it says itself, and what the model is told about the user's language.

Sentences live in ``translations/<language>.yaml`` (:data:`LANGUAGES`), nested keys read as dotted ones
(``confirm.question``); a key missing in a language falls back to English. :func:`t` formats one sentence;
:func:`words` reads a list (the yes words of a confirmation). The language of the running turn is held in a
context variable (:func:`speaking`, :func:`current`) for the policy's phrasing, whose ``classify`` takes no
language. :func:`for_model` is the user's text as the model gets it (number words as digits, and for another
language than English the instruction to answer in it).
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import logging
import re
import string
import unicodedata
from collections.abc import Iterable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import yaml
from babel import Locale
from babel.numbers import format_decimal
from text_to_num import alpha2digit  # no stubs or py.typed

_LOGGER = logging.getLogger(__name__)

LANGUAGES = ("en", "de", "fr", "es", "nl", "it")
"""The languages o1 speaks (ISO 639-1); English is the source and the fallback."""
DEFAULT = "en"
_FOLDER = Path(__file__).with_name("translations")
ANSWER_IN = "Write the code as always; the sentence it prints must be in {language}."
"""What the model is told, after the user's text, when the turn's language is not English."""
_CURRENT: contextvars.ContextVar[str] = contextvars.ContextVar("o1_language", default=DEFAULT)


def normalize(language: object) -> str:
    """The language o1 speaks for a requested one: ``"de-DE"``, ``"de_DE"``, ``"DE"`` -> ``"de"``.

    Anything else (None, an unknown language, not a string) -> ``"en"``."""
    if not isinstance(language, str):
        return DEFAULT
    base = re.split(r"[-_@.]", language.strip().lower(), maxsplit=1)[0]
    return base if base in LANGUAGES else DEFAULT


@functools.cache
def table(language: str) -> dict[str, Any]:
    """The flattened translation file of ``language`` (a :data:`LANGUAGES` entry): dotted key -> str or list.

    Raises FileNotFoundError for a language without a file, yaml.YAMLError for a broken one."""
    data = yaml.safe_load((_FOLDER / f"{language}.yaml").read_text(encoding="utf-8")) or {}
    flat: dict[str, Any] = {}

    def walk(prefix: str, node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                walk(f"{prefix}{key}.", value)
        else:
            flat[prefix[:-1]] = node

    walk("", data)
    return flat


def _lookup(language: str, key: str) -> Any:
    value = table(normalize(language)).get(key)
    if value is None:
        value = table(DEFAULT)[key]  # KeyError: a key English does not have is a bug of the caller
    return value


def t(language: str | None, key: str, **params: Any) -> str:
    """The sentence ``key`` in ``language`` (normalized; English when the language lacks it), with ``{name}``
    fields filled from ``params``. Raises KeyError when English has no such key or a field has no param."""
    text = str(_lookup(normalize(language), key))
    return text.format(**params) if params or "{" in text else text


def has(language: str | None, key: str) -> bool:
    """Whether ``language`` itself (not its English fallback) has ``key``."""
    return table(normalize(language)).get(key) is not None


def words(language: str | None, key: str) -> tuple[str, ...]:
    """The list ``key`` (e.g. ``words.yes``) of ``language``, English's when it lacks one."""
    value = _lookup(normalize(language), key)
    return tuple(str(v) for v in value) if isinstance(value, list) else (str(value),)


def patterns(language: str | None, key: str) -> set[str]:
    """The list ``key`` of ``language`` and of English together (regular expressions a text is matched with in
    either: a request often mixes both)."""
    return {*words(normalize(language), key), *words(DEFAULT, key)}


def fields(text: str) -> set[str]:
    """The ``{name}`` fields of a sentence (for checking that every translation takes the same params)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def current() -> str:
    """The language of the running turn (see :func:`speaking`), ``"en"`` outside a turn."""
    return _CURRENT.get()


def begin(language: str | None) -> contextvars.Token[str]:
    """Speak ``language`` (normalized) in this thread from now on; hand the result to :func:`end`."""
    return _CURRENT.set(normalize(language))


def end(token: contextvars.Token[str]) -> None:
    """Speak again what was spoken before the :func:`begin` that returned ``token``."""
    _CURRENT.reset(token)


@contextlib.contextmanager
def speaking(language: str | None) -> Iterator[str]:
    """Speak ``language`` (normalized) in this thread until the block ends; yields the normalized language."""
    token = begin(language)
    try:
        yield _CURRENT.get()
    finally:
        end(token)


def number(value: float, language: str | None) -> str:
    """A number as written in ``language`` (Babel): ``100000`` -> ``"100,000"`` (en), ``"100.000"`` (de)."""
    return str(format_decimal(value, locale=normalize(language)))


def language_name(language: str | None) -> str:
    """The English name of a language, from Babel's CLDR data: ``"de"`` -> ``"German"``."""
    code = normalize(language)
    return str(Locale.parse(code).get_display_name("en") or code)


def confirms(text: str, language: str | None) -> bool:
    """Whether ``text`` is a plain yes (see :func:`yes_pattern`); typographic apostrophes count as plain ones."""
    return yes_pattern(language).match(text.replace("\u2019", "'")) is not None


def yes_pattern(language: str | None) -> re.Pattern[str]:
    """A confirmation that is a yes and nothing else, in ``language`` or English: ``"Ja, mach das."`` matches,
    ``"Ja, aber nicht jetzt."`` and ``"Okay, cancel that."`` do not."""
    return _yes_pattern(normalize(language))


@functools.cache
def _yes_pattern(language: str) -> re.Pattern[str]:
    please = words(language, "words.please") + words(DEFAULT, "words.please")
    thanks = set(words(language, "words.thanks") + words(DEFAULT, "words.thanks"))
    yes, polite = alternatives(yes_words(language)), alternatives(please)
    # Thanks first is a no ("Merci, ça va", "Danke, ist gut so"); after a yes it is only polite.
    first = alternatives([w for w in please if w not in thanks])
    return re.compile(
        rf"^[\s¡¿]*(({first})[\s,.!…]+)*({yes})([\s,.!…]+({yes}|{polite}))*[\s.!…]*$", re.IGNORECASE | re.UNICODE
    )


def alternatives(phrases: Iterable[str], between: str = r"\s+") -> str:
    """A regex alternation of ``phrases``, the longest first ("ok do it" before "ok"), their words apart by
    ``between``."""
    return "|".join(between.join(map(re.escape, p.split())) for p in sorted(set(phrases), key=len, reverse=True))


def yes_words(language: str) -> list[str]:
    """The yes words of ``language`` and of English, without the language's own ``words.but`` ones (English's
    "si" is French's "if": "Si tu peux" is not a yes)."""
    but = {w.lower() for w in words(language, "words.but")}
    return [w for w in words(language, "words.yes") + words(DEFAULT, "words.yes") if w.lower() not in but]


def digits(text: str, language: str | None) -> str:
    """``text`` with its number words as digits (text2num's ``alpha2digit``): ``"three hundred and twelve times
    four"`` -> ``"312 times 4"``. A lone small number stays a word ("one of them", "a second try", "I have one
    question") unless it is an operand of arithmetic ("zwei plus zwei" -> "2 plus 2"); ordinals below 4 stay
    words. Clock times said in words become H:MM first (:mod:`.spoken_times`: "zwanzig vor acht" -> "7:40"),
    a percent said in words after a number is written "%" (translations' ``words.percent``: "cinq pour cent" ->
    "5 %", not "5 pour 100"), an operator written as a letter between two digits is spelt out
    (``words.multiplied``: "3 x 4" -> "3 times 4", "108 entre 24" -> "108 dividido entre 24"); an amount with
    its cents after the currency is one decimal (``words.money``: "143 euros 50" -> "143.50 euros"), and cents
    said alone are a decimal of the currency (``words.cents``: "ninety two cents" -> "0.92"), a length or a
    weight in two units is one decimal (:func:`_measures`: "twee meter veertig" -> "2.4 meter"), and a duration's
    minutes said after its hours get their unit (``words.hours_then_minutes``: "une heure cinquante" -> "1 h 50
    min"; the model coded ``hours=50``). Text that
    text2num cannot read is returned with only its clock times written."""
    from .spoken_times import clock_times  # it reads this module's translations

    lang = normalize(language)
    said = text
    text = _grouped(text, lang)
    try:
        text = clock_times(text, lang, lambda said: cardinal(said, lang))
    except (ValueError, re.error) as err:  # a rewriting aid never breaks a turn
        _LOGGER.debug("clock_times failed on %r: %s", text[:200], err)
    for pattern in _lookup(lang, "words.and_apart") or ():  # "quatre-vingt-dix et trois" is 90 and 3, not 93
        text = re.sub(str(pattern), f" {_APART} ", text, flags=re.IGNORECASE)
    if lang == "es":  # text2num 3.1 knows "veintiuno", not its short form before a noun ("veintiún euros")
        text = re.sub(r"\bveintiún\b", "veintiuno", text, flags=re.IGNORECASE)
    # Words text2num must not read, in order: an article before a number ("un veinte por ciento" is a 20 %, not
    # 1 20 %) and the translations' ``words.not_numbers`` ("centesimi" is a word, not 100º).
    kept: list[str] = []
    text = _ARTICLE.sub(lambda m: _article(m, lang, kept), text)
    plain = _not_numbers(lang)
    if plain is not None:
        text = plain.sub(lambda m: _keep(m.group(0), kept), text)
    try:
        converted = alpha2digit(text, lang)
    except Exception as err:  # noqa: BLE001 - a conversion aid must never break a turn
        _LOGGER.debug("alpha2digit failed on %r: %s", text, err)
        converted = text
    converted = converted.replace(f" {_APART} ", f" {_lookup(lang, 'summary.and')} ")
    for pattern in _lookup(lang, "words.percent") or ():  # "5 pour 100" (from "cinq pour cent"): 5 %
        converted = _small_percent(str(pattern), converted, lang)
        converted = re.sub(str(pattern), " %", converted, flags=re.IGNORECASE)
    converted = _KEPT.sub(lambda m: kept[ord(m.group(0)) - _KEPT_FIRST], _operands(converted, lang))  # "menos un 20 %"
    converted = _scaled(_fractions(_halves(converted, lang), lang), said, lang)
    for pattern in _lookup(lang, "words.year_pairs") or ():  # "born in 19 41" (nineteen forty one): 1941
        converted = re.sub(str(pattern), lambda m: m.group("c") + m.group("y"), converted, flags=re.IGNORECASE)
    converted = _money_numbers(converted, lang)
    for pattern in _lookup(lang, "words.money") or ():  # "143 euros 50" -> "143.50 euros", "137 con 60" -> 137.60
        converted = re.sub(str(pattern), _amount, converted, flags=re.IGNORECASE)
    converted = _measures(converted, lang)
    for units in _lookup(lang, "words.cents") or ():  # "92 cents" alone -> "0.92" (an amount's own are done)
        converted = re.sub(
            rf"(?<![\d.,])(\d{{1,2}}) (?:{units})\b", lambda m: f"0.{int(m.group(1)):02d}", converted, flags=re.I
        )
    for pattern in _lookup(lang, "words.hours_then_minutes") or ():  # "une heure 50" -> "1 h 50 min"
        converted = re.sub(str(pattern), lambda m: _hours_minutes(m, lang), converted, flags=re.IGNORECASE)
    for rewrite in _lookup(lang, "words.multiplied") or ():  # "pattern => words" (the words get spaces around)
        pattern, replacement = str(rewrite).rsplit(" => ", 1)
        converted = re.sub(pattern, f" {replacement} ", converted, flags=re.IGNORECASE)
    return _twos(converted, lang)


_SCALE = r"1000(?:000){0,3}"  # text2num's thousand, million, billion (milliard), trillion
_GROUPS = {"fr": r"[ \u00a0\u202f]"}  # what writes thousands apart; the other languages but English use a dot


def _grouped(text: str, language: str) -> str:
    """The user's own text with numbers whose thousands are written apart as one number ("1 500 euros" in French,
    "1.500,50 Euro" in German: 1500, 1500.50; English keeps "1,500" as written), before text2num reads it (its
    "cent cent fois", 100 100, are two numbers). A dot group counts only where it cannot be a decimal: two
    groups ("1.500.000"), a decimal comma after it, or a round group ("1.500"; "1.799 Euro pro Liter" stays).
    No group starts with 0 ("0.125 Liter"). The model read "1.500" as 1.5."""
    if language == DEFAULT:
        return text
    group = _GROUPS.get(language, r"\.")

    def joined(m: re.Match[str]) -> str:
        whole = m.group("whole")
        dotted = group == r"\." and whole.count(".") == 1 and not m.group("part") and not whole.endswith("00")
        if dotted:  # "1.799", "3.141": a decimal typed with a dot as likely as thousands
            return m.group(0)
        return re.sub(r"\D", "", whole) + (f".{m.group('part')}" if m.group("part") else "")

    return re.sub(
        rf"(?<![\d.,])(?P<whole>[1-9]\d{{0,2}}(?:{group}\d{{3}})+)(?:,(?P<part>\d+))?(?![\d]|[.,]\d)",
        joined,
        text,
    )


def _scaled(text: str, said: str, language: str) -> str:
    """A decimal before a scale as the product, where the user ``said`` a scale word (``words.scales``):
    text2num leaves "2.5 1000000" for "two point five million", "2,5 1000000" for "zwei Komma fünf Millionen"
    and glues "deux virgule cinq millions" into "2,5000000": each is 2500000. The model read "2.5 1000000" as
    two numbers."""
    if not any(re.search(p, said, re.IGNORECASE) for p in _lookup(language, "words.scales") or ()):
        return text
    point = r"\." if language == DEFAULT else r"[.,]"
    if language != DEFAULT:
        text = re.sub(r"(?<![\d.,])(\d+),(\d+?)((?:000){1,4})\b", r"\1,\2 1\3", text)  # "2,5000000", "2,5000"

    def product(m: re.Match[str]) -> str:
        value = Decimal(f"{m.group(1)}.{m.group(2)}") * int(m.group(3))
        return f"{value.normalize():f}"

    return re.sub(rf"(?<![\d.,])(\d+){point}(\d+) ({_SCALE})\b(?![.,]\d)", product, text)


def _twos(text: str, language: str) -> str:
    """Two as a count wherever the text holds another number in digits ("prendo due caffè a 1.20 euro": the model
    priced one coffee), after the amounts are read ("dinner for two 25 dollars each" stays two prices apart);
    one stays a word (an article too), and so does a hyphened two ("two-thirds")."""
    if not re.search(r"\d", text):
        return text

    def two(m: re.Match[str]) -> str:
        word = m.group()  # every language's two is a short word (two, zwei, zwo, deux, dos, due, twee): text2num
        is_two = len(word) <= 4 and word.isalpha() and not _HYPHENED.match(text, m.end())  # reads no other
        return "2" if is_two and cardinal(word, language) == "2" else word

    return _WORD.sub(two, text)


_APART = "\ue000"  # a private-use character: text2num reads it as a word that ends a number
_KEPT_FIRST = 0xE100  # private-use characters from here on stand for the words text2num must not read, in order
_KEPT = re.compile(f"[{chr(_KEPT_FIRST)}-{chr(_KEPT_FIRST + 0xFF)}]")


def _keep(word: str, kept: list[str]) -> str:
    """A character that stands for ``word`` (appended to ``kept``) while text2num reads the text; ``word`` itself
    once there are more than 256."""
    if len(kept) > 0xFF:
        return word
    kept.append(word)
    return chr(_KEPT_FIRST + len(kept) - 1)


@functools.cache
def _not_numbers(language: str) -> re.Pattern[str] | None:
    """The translations' ``words.not_numbers`` of ``language`` as one whole-word pattern, or None."""
    kept = _lookup(language, "words.not_numbers") or ()
    return re.compile(rf"\b(?:{alternatives(map(str, kept))})\b", re.IGNORECASE) if kept else None


_ARTICLE = re.compile(r"\b(un|una|une|ein|eine|een|an?)(\s+)(?=([^\W\d_]+))", re.IGNORECASE)


def _article(m: re.Match[str], language: str, kept: list[str]) -> str:
    """An indefinite article before a cardinal number word, kept a word (see :func:`_keep`): text2num read "me
    hacen un treinta por ciento" as "1 30 %", "un millón" as "1 1000000" and "un vingt pour cent" as "1 20 %". An
    ordinal after it ("un cuarto de", a fraction) is left to text2num."""
    word = m.group(3)
    value = cardinal(word, language)
    if word.lower() in _ONE or value is None:
        return m.group(0)
    if re.fullmatch(r"10{2,}", value):  # "un millón", "eine Million", "a hundred": the word alone is the number
        return ""
    if m.group(1).lower() in ("a", "an"):
        return m.group(0)  # text2num leaves the English article alone ("a twenty percent tip")
    return _keep(m.group(1), kept) + m.group(2)


def _small_percent(pattern: str, text: str, language: str) -> str:
    """A small number said before a percent word, which text2num leaves a word ("un dos por ciento" was "un dos
    por 100", then "un 2 por 100"), as digits, so that the ``words.percent`` ``pattern`` (which follows a digit)
    makes it "2 %"."""
    if not pattern.startswith("(?<=\\d)"):
        return text
    follows = pattern[len("(?<=\\d)") :]

    def digit(m: re.Match[str]) -> str:
        return cardinal(m.group(1), language) or m.group(1)

    return re.sub(rf"\b([^\W\d_]+)(?={follows})", digit, text, flags=re.IGNORECASE)


def _amount(m: re.Match[str]) -> str:
    """One ``words.money`` match as one decimal: "143.50 euros" (or "137.60" when no currency was said)."""
    cur = m.groupdict().get("cur")
    return f"{m.group('n')}.{int(m.group('c')):02d}" + (f" {cur}" if cur else "")


def _money_numbers(text: str, language: str) -> str:
    """A small number word said before a currency ("zwei Euro 50", "un euro 10") as digits, and an article that
    says one ("a pound twenty", "einen Euro zwanzig": translations' ``words.one``): text2num leaves numbers below
    3 words, and the amount's cents were then read as another number."""
    units = _lookup(language, "words.currencies")
    if not units:
        return text
    ones = _ones(language)

    def digit(m: re.Match[str]) -> str:
        number = "1" if m.group(1).lower() in ones else cardinal(m.group(1), language)
        return f"{number or m.group(1)} {m.group(2)}"

    return re.sub(rf"\b([^\W\d_]+) ({units})\b", digit, text, flags=re.IGNORECASE)


@functools.cache
def _ones(language: str) -> frozenset[str]:
    """The translations' ``words.one`` of ``language``: the articles that say one ("a", "einen"), lower case."""
    return frozenset(word.lower() for word in str(_lookup(language, "words.one") or "").split("|") if word)


_MEASURES = (("words.metres", "words.centimetres", 2), ("words.kilos", "words.grams", 3))
"""A larger unit, its smaller one and how many decimal places the smaller one's number takes (100 cm to a
metre, 1000 g to a kilogram)."""


def _measures(text: str, language: str) -> str:
    """A length or a weight said in a unit and its smaller one as one decimal of the larger unit: "2 meter 40
    hoog" -> "2.4 meter hoog", "one metre 5" -> "1.05 metre", "1 Kilo 200 Gramm" -> "1.2 Kilo" (translations'
    ``words.metres``, ``centimetres``, ``kilos``, ``grams``; the smaller number is followed by its unit, the end
    of a sentence, or one of ``words.after_measure``: "5 meters 3 times" stays). The model read "twee meter
    veertig" as 2 and 40 metres."""
    after = _lookup(language, "words.after_measure")
    join = _lookup(language, "summary.and")
    ones = _ones(language)
    for larger, smaller, places in _MEASURES:
        units, parts = _lookup(language, larger), _lookup(language, smaller)
        if not (units and parts and after and join):
            continue

        def decimal(m: re.Match[str], places: int = places) -> str:
            said, part = m.group("n"), m.group("p")
            whole = "1" if said.lower() in ones else cardinal(said, language)
            if whole is None:
                return m.group(0)
            # "3 kilos 2" is 3.2 kg (hundreds of grams); "1 metre 5" is 1.05 m; "1.200" reads as 1200 in German
            digits = part if places == 3 and len(part) == 1 else f"{int(part):0{places}d}"
            return f"{f'{whole}.{digits}'.rstrip('0').rstrip('.')} {m.group('unit')}"

        end = r"\s*(?:$|[;:!?)]|[,.](?!\d))"
        text = re.sub(  # "2 kilos and 3 for my mother": after "and", only its unit or a sentence's end
            rf"(?<![\d.,])\b(?P<n>\d+|[^\W\d_]+) (?P<unit>{units}) (?:(?P<j>{join}) )?(?P<p>\d{{1,{places}}})"
            rf"(?:(?: (?:{parts})\b)|(?={end})|(?(j)(?!)|(?=\s*(?:{after})\b)))",
            decimal,
            text,
            flags=re.IGNORECASE,
        )
    return text


def _fractions(text: str, language: str) -> str:
    """A fraction that text2num read as an ordinal ("a third of ninety" -> "a 3rd of 90", "un cuarto de" ->
    "un 4º de") written as one: "1/3 of 90" (translations' ``words.fraction_of``, groups ``num``, a number or
    an article, and ``den``)."""
    for pattern in _lookup(language, "words.fraction_of") or ():

        def fraction(m: re.Match[str]) -> str:
            num = m.group("num")
            top = "1" if num.lower() in _ARTICLES else cardinal(num, language)
            return f"{top}/{m.group('den')} " if top else m.group(0)

        text = re.sub(str(pattern), fraction, text, flags=re.IGNORECASE)
    return text


_ARTICLES = frozenset({"a", "an", "un", "una", "uno", "een", "ein", "eine", "une", "der"})  # one part


def _hours_minutes(match: re.Match[str], language: str) -> str:
    """ "1 h 50 min" for a match of ``words.hours_then_minutes`` (groups ``h``: digits, a number word or "an",
    "une"..., and ``m``); the match itself when ``h`` is another word ("which hour 20")."""
    said = match.group("h")
    hours = said if said.isdigit() else cardinal(said, language) or ("1" if said.lower() in _ONE else None)
    return f"{hours} h {int(match.group('m'))} min" if hours is not None else match.group(0)


_THREE = frozenset({"three", "3", "drei", "trois", "tres", "tre", "drie"})
_ONE = frozenset({"a", "an", "one", "eine", "einer", "une", "una", "un", "een", "één"})


def _halves(text: str, language: str) -> str:
    """A number and a half as a decimal ("3 and a half hours" -> "3.5 hours", "dreieinhalb" -> "3.5",
    "anderthalb" -> "1.5", "2 kilos et demi" -> "2.5 kilos"), by the translations' ``words.halves`` patterns (the
    French, Spanish and Italian ones only the masculine half: "trois heures et demie" is also half past three)."""
    for fixed in _lookup(language, "words.one_and_a_half") or ():
        text = re.sub(rf"\b{re.escape(str(fixed))}\b", "1.5", text, flags=re.IGNORECASE)
    for pattern in _lookup(language, "words.quarters") or ():  # "2 and 3 quarters", "zweidreiviertel": 2.75

        def quarter(match: re.Match[str]) -> str:
            value = cardinal(match.group("n"), language)
            if value is None:
                return match.group(0)
            part = "75" if match.group("q").lower() in _THREE else "25"
            unit = match.groupdict().get("unit")
            return f"{value}.{part} {unit}" if unit else f"{value}.{part}"

        text = re.sub(str(pattern), quarter, text, flags=re.IGNORECASE)
    for pattern in _lookup(language, "words.halves") or ():

        def half(match: re.Match[str]) -> str:
            value = cardinal(match.group("n"), language)
            if value is None:
                return match.group(0)
            unit = match.groupdict().get("unit")
            whole = int(value) if value.isdigit() else 0
            scale = next((10**p for p in (12, 9, 6) if whole and whole % 10**p == 0), 0)  # "a million and a half"
            said = str(whole + scale // 2) if scale else f"{value}.5"
            return f"{said} {unit}" if unit else said

        text = re.sub(str(pattern), half, text, flags=re.IGNORECASE)
    return text


MAX_ASKED_DECIMALS = 12


def asked_decimals(text: str, language: str | None) -> int | None:
    """How many decimal places ``text`` asks for ("to 3 decimal places", "auf drei Nachkommastellen", by the
    translations' ``words.decimal_places``), or None; more than :data:`MAX_ASKED_DECIMALS` is None."""
    lang = normalize(language)
    for pattern in _lookup(lang, "words.decimal_places") or ():
        for match in re.finditer(str(pattern), text, flags=re.IGNORECASE):
            value = cardinal(match.group("n"), lang)
            if value is not None and int(value) <= MAX_ASKED_DECIMALS:
                return int(value)
    return None


_WORD = re.compile(r"\w+", re.UNICODE)
_HYPHENED = re.compile(r"-\w")  # "two-thirds", "two-way": a word of its own
_ZONES = frozenset({"UTC", "GMT", "CET", "CEST", "EST", "EDT", "PST", "PDT"})  # an offset from one is a number


def _operands(text: str, language: str) -> str:
    """Lone number words that are operands of arithmetic as digits: a number word, operator words, and a
    number or a time zone on their other side ("zwei plus zwei", "1.5 times two", "ten divided by two", "UTC
    plus one"); "una per favore" stays as it is."""
    operators = {w.lower() for w in words(language, "words.operators")}
    found = list(_WORD.finditer(text))
    values = [cardinal(m.group(), language) for m in found]
    out: list[str] = []
    last = 0
    for index, match in enumerate(found):
        value = values[index]
        if value is None or match.group().isdigit():
            continue
        for step in (1, -1):
            other = index + step
            while 0 <= other < len(found) and found[other].group().lower() in operators:
                other += step
            if (
                other != index + step
                and 0 <= other < len(found)
                and (values[other] is not None or found[other].group().upper() in _ZONES)
            ):
                out.append(text[last : match.start()] + value)
                last = match.end()
                break
    out.append(text[last:])
    return "".join(out)


def cardinal(word: str, language: str) -> str | None:
    """The digits of one word (or two: "twenty five") that is a cardinal number ("two" -> "2", "12" -> "12"),
    else None."""
    if word.isdecimal():  # not isdigit(): "²" is a digit that int() cannot read
        return word
    try:
        value = alpha2digit(word, language, threshold=0)
    except Exception:  # noqa: BLE001 - as in digits()
        return None
    return value if value.isdecimal() else None


def folded(text: str) -> str:
    """``text`` in lower case without accents, for comparing words ("Durée" -> "duree")."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).lower()


def for_model(said: str, language: str | None) -> str:
    """The user's text as the model gets it, from ``said`` (the text with its numbers and times already as
    digits, :func:`digits`): for a language other than English, a last line telling the model to answer (and
    print its sentence) in that language."""
    lang = normalize(language)
    if lang == DEFAULT:
        return said
    return f"{said}\n({ANSWER_IN.format(language=language_name(lang))})"
