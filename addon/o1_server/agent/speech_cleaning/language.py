"""The conversation's language as speech needs it: its Babel locale, list joining, and the few words Babel does
not hold (yes, no, none, "2 more", powers of ten, what code did to the folder)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from babel import Locale, UnknownLocaleError
from babel.lists import format_list

from .. import i18n

ENGLISH = Locale.parse("en")


@lru_cache(maxsize=64)
def locale_for(language: str) -> Locale:
    """The Babel locale of ``language`` ("de", "de-DE", "fr_FR"); English for an empty or unknown one."""
    try:
        return Locale.parse((language or "en").replace("-", "_"))
    except (ValueError, TypeError, UnknownLocaleError):
        return ENGLISH


def word(language: str, key: str) -> str:
    """One of the words Babel lacks ("yes", "none", "more" ...: the ``spoken`` section of the translation files,
    agent/translations/) in ``language``, English when missing; ``{}`` fields are left for the caller."""
    return i18n.words(locale_for(language).language, f"spoken.{key}")[0]


def join(items: Sequence[str], language: str) -> str:
    """``items`` said as a list in ``language`` ("a, b and c", "a, b und c"), via Babel's ``format_list``.
    English is joined without the serial comma (CLDR's en_GB pattern): "a, b and c"."""
    if not items:
        return word(language, "none")
    locale = locale_for(language)
    if locale.language == "en":
        locale = Locale.parse("en_GB")
    return format_list(list(items), locale=locale)


def spoken_word(language: str, key: str) -> str:
    """One of the words the text-to-speech cleaning says for a sign ("yes" for a check mark, "degrees", "times"
    ...: the ``speech`` section of agent/translations/) in ``language``, English when missing; ``{}`` and
    ``{name}`` fields are left for the caller."""
    return i18n.words(locale_for(language).language, f"speech.{key}")[0]
