"""Unit facts told with a request: the factor between two units of one kind that the request names, as pint
computes it.

The embedded model knows few conversion factors: it multiplied square yards by 0.9144 (the factor of yards),
acres by 0.016 and centimetres by 5280 (feet to a mile) on the seventh held-out set (now a dev set). When a
request names two units of the same kind ("thirty square yards ... how many square metres"), the line "1
square yard = 0.836127 square meter" goes with it to the model (:func:`unit_facts`). The words of each unit are
the translations' ``units`` (a regular expression per pint unit name, in each of o1's languages); every factor
is pint's (https://pint.readthedocs.io, its default registry: US gallons and cups, imperial gallons and pints
named as such).
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from typing import Any

from . import i18n
from .spoken_times import offset_facts

FUEL = "L/100km"
"""Litres per 100 km: no unit of pint's (it is the inverse of a distance per volume); told as its formula."""
MAX_FACTS = 4  # pairs of units told at most (a request naming many units is rare; each fact costs tokens)


@functools.cache
def _registry() -> Any:
    """pint's default unit registry, loaded once (about 0.7 s) on first use."""
    import pint

    return pint.UnitRegistry()


@functools.cache
def _units(language: str) -> list[tuple[str, re.Pattern[str]]]:
    """The translations' ``units`` of ``language`` (English's when it has none), in order: (pint name, words)."""
    table = i18n.table(language)
    if not any(key.startswith("units.") for key in table):
        table = i18n.table(i18n.DEFAULT)
    return [
        (key.removeprefix("units."), re.compile(str(words), re.IGNORECASE))
        for key, words in table.items()
        if key.startswith("units.")
    ]


def named_units(text: str, language: str | None) -> list[str]:
    """The pint names of the units ``text`` names, each once: those after a number first ("26 miglia": the one
    converted from), then in the order named (the translations' ``units`` are matched in their order: "square
    yards" is not also "yards"). An English "pound" in a request about a price ("54.80 pounds",
    "£", "costs 12 pounds a kilo") is money, not a weight."""
    lang = i18n.normalize(language)
    rest = text.lower()
    found: list[tuple[bool, int, str]] = []
    for unit, words in _units(lang):
        if (match := words.search(rest)) is None:
            continue
        rest = words.sub(lambda m: " " * len(m.group()), rest)  # the same length: positions stay
        if unit == "pound" and re.search(r"£|\d\.\d\d pounds?\b|\b(?:costs?|paid|pay|price|spent|buy)\b", text.lower()):
            continue
        counted = bool(re.search(r"\d\s*$", rest[: match.start()]))  # "26 miglia": the unit converted from
        found.append((not counted, match.start(), unit))
    return [unit for *_, unit in sorted(found)]


def with_facts(text: str, language: str | None) -> str:
    """``text`` (a request as the model reads it) followed by a line in parentheses for each fact it needs: the
    factors between its units (:func:`unit_facts`) and the hours between its UTC offsets
    (:func:`.spoken_times.offset_facts`)."""
    facts = [fact for fact in (unit_facts(text, language), offset_facts(text, language)) if fact]
    return "\n".join([text, *(f"({fact})" for fact in facts)])


def measured(text: str, language: str | None, amount: str) -> bool:
    """Whether ``text`` holds an amount (a regular expression, "\\d+\\s+") right before one of the words of a
    unit of the translations' ``units`` ("500 meters", "one kilometer")."""
    lang = i18n.normalize(language)
    return any(re.search(amount + r"$", text[: m.start()]) for _, words in _units(lang) for m in words.finditer(text))


def unit_facts(text: str, language: str | None) -> str | None:
    """One line of the factors between the units of one kind ``text`` names ("1 square yard = 0.836127 square
    meter; 1 acre = 0.404687 hectare"), or None when it names no two of one kind. Temperatures and litres
    per 100 km are told as their formulas."""
    units = named_units(text, language)
    if len(units) < 2:
        return None  # most requests: pint is not even loaded
    ureg = _registry()
    facts: list[str] = []
    for first, second in itertools.combinations(units, 2):
        fact = _fact(ureg, first, second)
        if fact and fact not in facts:
            facts.append(fact)
    if not facts:
        return None
    return "Unit facts: " + "; ".join(facts[:MAX_FACTS]) + "."


def _fact(ureg: Any, first: str, second: str) -> str | None:
    """The fact between two units of pint's (or :data:`FUEL`), or None when they are of different kinds."""
    if {first, second} == {"degree_Celsius", "degree_Fahrenheit"}:
        return "°F = °C × 9/5 + 32, and °C = (°F - 32) × 5/9"
    if FUEL in (first, second):
        other = second if first == FUEL else first
        if other != "mile / gallon":
            return None
        per_100 = 100 / ureg.Quantity(1, "mile / gallon").to("kilometer / liter").magnitude
        # both ways: given one, the model multiplied 6 L/100 km by 235.21 / 100 (seventh held-out set, a dev set)
        return f"miles per US gallon = {per_100:.2f} / (L/100 km), and L/100 km = {per_100:.2f} / (miles per US gallon)"
    try:
        value = ureg.Quantity(1, first).to(second).magnitude
    except Exception:  # noqa: BLE001 - pint's DimensionalityError and its offset errors: not of one kind
        return None
    if math.log10(value).is_integer():  # metric prefixes (1 kilometer = 1000 meter): the model knows them
        return None
    if value < 1e-3:  # "1 mile = 160934 centimeter" reads better than "1 centimeter = 6.2e-06 mile"
        first, second, value = second, first, 1 / value
    return f"1 {_name(first)} = {value:.6g} {_name(second)}"


def _name(unit: str) -> str:
    """A pint unit name as words: "yard ** 2" -> "square yard", "mile / hour" -> "mile per hour"."""
    name = re.sub(r"(\w+) \*\* 2", r"square \1", unit)
    name = re.sub(r"(\w+) \*\* 3", r"cubic \1", name)
    return name.replace(" / ", " per ").replace("_", " ")
