"""The conversation's language as speech needs it: its Babel locale, list joining, and the few words Babel does
not hold (yes, no, none, "2 more", powers of ten, what code did to the folder)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from babel import Locale, UnknownLocaleError
from babel.lists import format_list

ENGLISH = Locale.parse("en")

# Words per language (Babel's CLDR data has no yes/no or "n more"); a language missing here is said in English.
_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "yes": "yes",
        "no": "no",
        "none": "none",
        "more": "{} more",
        "power": "{} times 10 to the power of {}",
        "did": "I {}.",
        "created": "created {}",
        "updated": "updated {}",
        "deleted": "deleted {}",
    },
    "de": {
        "yes": "ja",
        "no": "nein",
        "none": "keine",
        "more": "{} weitere",
        "power": "{} mal 10 hoch {}",
        "did": "Ich habe {}.",
        "created": "{} erstellt",
        "updated": "{} geändert",
        "deleted": "{} gelöscht",
    },
    "fr": {
        "yes": "oui",
        "no": "non",
        "none": "aucun",
        "more": "{} autres",
        "power": "{} fois 10 puissance {}",
        "did": "J'ai {}.",
        "created": "créé {}",
        "updated": "modifié {}",
        "deleted": "supprimé {}",
    },
    "es": {
        "yes": "sí",
        "no": "no",
        "none": "ninguno",
        "more": "{} más",
        "power": "{} por 10 elevado a {}",
        "did": "He {}.",
        "created": "creado {}",
        "updated": "modificado {}",
        "deleted": "eliminado {}",
    },
    "it": {
        "yes": "sì",
        "no": "no",
        "none": "nessuno",
        "more": "altri {}",
        "power": "{} per 10 elevato alla {}",
        "did": "Ho {}.",
        "created": "creato {}",
        "updated": "modificato {}",
        "deleted": "eliminato {}",
    },
    "nl": {
        "yes": "ja",
        "no": "nee",
        "none": "geen",
        "more": "nog {}",
        "power": "{} keer 10 tot de macht {}",
        "did": "Ik heb {}.",
        "created": "{} aangemaakt",
        "updated": "{} bijgewerkt",
        "deleted": "{} verwijderd",
    },
}


@lru_cache(maxsize=64)
def locale_for(language: str) -> Locale:
    """The Babel locale of ``language`` ("de", "de-DE", "fr_FR"); English for an empty or unknown one."""
    try:
        return Locale.parse((language or "en").replace("-", "_"))
    except (ValueError, TypeError, UnknownLocaleError):
        return ENGLISH


def word(language: str, key: str) -> str:
    """One of the words of ``_WORDS`` ("yes", "none", "more" ...) in ``language`` (English when missing)."""
    return _WORDS.get(locale_for(language).language, _WORDS["en"])[key]


def join(items: Sequence[str], language: str) -> str:
    """``items`` said as a list in ``language`` ("a, b and c", "a, b und c"), via Babel's ``format_list``.
    English is joined without the serial comma (CLDR's en_GB pattern): "a, b and c"."""
    if not items:
        return word(language, "none")
    locale = locale_for(language)
    if locale.language == "en":
        locale = Locale.parse("en_GB")
    return format_list(list(items), locale=locale)
