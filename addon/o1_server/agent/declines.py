"""Answers to a held confirmation: a yes that says what it agrees to, or a no, or a new request.

:func:`restates` reads a yes that goes on ("Yes, delete it.", "Oui, supprime-le"): after the yes words, a short
rest with no "but" and no other file or number, whose words agree (``words.agree``; ``words.agree_change`` to a
block that changes files and deletes none) or are the held question's ("Yes, turn on the oven" for "turn off"
is not one), and no widening word when one file is held ("yes, delete all the files"). :func:`declines` tells
a no ("no", "not now", "okay, cancel that") from a new request ("no, delete b.txt instead"): short, no
question, no file, a ``declines`` word of its language or English (agent/translations/*.yaml). Anything else
is a request. The rules in full: each function's docstring.
"""

from __future__ import annotations

import functools
import re

from . import i18n

SHORT_WORDS = 5  # a longer reply is a request, whatever it holds ("no, turn on the kitchen light instead")
RESTATE_WORDS = 6  # "yes, go ahead and delete the old draft" is a yes; a longer rest is a request
_FILE = re.compile(r"[\w-]+\.[^\W\d_]\w{0,4}\b")  # notes.txt
_NAME = re.compile(r"[\w-]+\.[^\W\d_]\w{0,4}\b|\d+(?:[.,]\d+)?")  # a file name (notes.txt) or a number (3, 2.5)


@functools.cache
def _pattern(language: str) -> re.Pattern[str]:
    said = i18n.words(language, "declines") + i18n.words(i18n.DEFAULT, "declines")
    return re.compile(rf"(?<!\w)(?:{_either(said)})(?!\w)", re.IGNORECASE | re.UNICODE)


def _either(phrases: tuple[str, ...] | list[str]) -> str:
    """:func:`.i18n.alternatives` of ``phrases`` whose words may be apart by a comma too ("ja, maar")."""
    return i18n.alternatives(phrases, r"[\s,]+")


@functools.cache
def _yes_start(language: str) -> re.Pattern[str]:
    """Yes and please words at the start, at least one a yes (thanks alone opens a no: "Thanks, I'm fine")."""
    yes = _either(i18n.yes_words(language))
    words = i18n.words(language, "words.please") + i18n.words(i18n.DEFAULT, "words.please")
    thanks = set(i18n.words(language, "words.thanks") + i18n.words(i18n.DEFAULT, "words.thanks"))
    please, first = _either(words), _either([w for w in words if w not in thanks])  # "Danke, passt schon": a no
    sep = r"(?:[\s,.!:;…-]+|$)"
    return re.compile(
        rf"^[\s¡¿]*(?:(?:{first}){sep})*(?:{yes}){sep}(?:(?:{yes}|{please}){sep})*", re.IGNORECASE | re.UNICODE
    )


@functools.cache
def _asks_back(language: str) -> tuple[re.Pattern[str], ...]:
    """The translations' ``words.asks_back`` of ``language`` and English: the start of a question."""
    said = i18n.words(language, "words.asks_back") + i18n.words(i18n.DEFAULT, "words.asks_back")
    return tuple(re.compile(p, re.IGNORECASE | re.UNICODE) for p in dict.fromkeys(said))


@functools.cache
def _other(language: str) -> re.Pattern[str]:
    said = (
        i18n.words(language, "declines")
        + i18n.words(i18n.DEFAULT, "declines")
        + i18n.words(language, "words.but")
        + i18n.words(i18n.DEFAULT, "words.but")
    )
    return re.compile(rf"(?<![\w'])(?:{_either(said)})(?![\w'])", re.IGNORECASE | re.UNICODE)


def restates(text: str, language: str | None, held: str, code: str = "") -> bool:
    """Whether ``text`` is a yes that goes on with what it agrees to ("Ja, lösch sie."), for the held block
    whose summary is ``held`` and whose code is ``code``. A plain yes is :func:`.i18n.confirms`' (this is False
    for it only when it holds nothing after the yes words). Its words (two letters or more: "on" for "turn
    off" is not a yes) must be agreeing ones or the summary's, never only the code's ("lock" is in the code of
    an unlock); its file names and numbers must be whole ones of the summary or the code ("notes.txt" is not
    "old_notes.txt", 3 is not 30). The rest is at most ``RESTATE_WORDS`` words with no ``declines`` or
    ``words.but`` word and no question; a verb of ``words.agree_change`` ("overwrite") agrees only when ``code``
    deletes nothing; a ``words.widening`` word ("all") is more than a held question naming one file would do."""
    lang = i18n.normalize(language)
    text = text.replace("\u2019", "'").strip()
    start = _yes_start(lang).match(text)
    if start is None or not start.group(0).strip() or text.endswith("?"):
        return False
    rest = text[start.end() :]
    words = re.findall(r"[\w'-]+", rest, re.UNICODE)
    if not words or len(words) > RESTATE_WORDS or _other(lang).search(text):
        return False
    if any(p.search(rest.lstrip(" ,.!…")) for p in _asks_back(lang)):
        return False  # "ok what is it about": a question whose "?" speech-to-text dropped
    known = {name.lower() for name in _NAME.findall(f"{held}\n{code}")}
    if not all(name.lower() in known for name in _NAME.findall(rest)):
        return False
    if len(set(_FILE.findall(held))) == 1 and widens(rest, lang):
        return False  # "yes, delete all the files" to one held file asks for more than it would do
    agree, held_words = _agree(lang), {w for w in re.findall(r"[^\W\d_]+", i18n.folded(held)) if len(w) >= 3}
    if code and not _DELETES.search(code):
        agree |= _agree_change(lang)
    return all(
        len(word) < 2 or any(_same_word(word, known) for known in agree | held_words)
        for word in re.findall(r"[^\W\d_]+", i18n.folded(_NAME.sub(" ", rest)))
    )


def widens(rest: str, language: str) -> bool:
    """Whether the words after a yes hold one of ``words.widening`` ("all", "alle", "todos"...) of ``language``
    or English."""
    widening = {
        i18n.folded(w) for w in i18n.words(language, "words.widening") + i18n.words(i18n.DEFAULT, "words.widening")
    }
    return any(word in widening for word in re.findall(r"[^\W\d_]+", i18n.folded(rest)))


def _same_word(said: str, held: str) -> bool:
    """One word in two forms ("lösch" and "löschen", "borralo" and "borrar": the same first five letters and
    lengths at most two apart, not "Steuerbescheid" and "steuer"; "alten" and "alt": a word of three letters or
    more with an ending of at most two)."""
    return (
        said == held
        or (len(said) >= 5 and said[:5] == held[:5] and abs(len(said) - len(held)) <= 2)
        or (len(held) >= 3 and said.startswith(held) and len(said) - len(held) <= 2)
    )


_DELETES = re.compile(r"\b(?:remove|unlink|rmtree|rmdir|removedirs|rm|del|delete|truncate)\b")


@functools.cache
def _agree_change(language: str) -> frozenset[str]:
    """``words.agree_change`` of ``language`` and English, folded: verbs of changing a file ("overwrite",
    "überschreib"), agreeing only to a held block that deletes nothing."""
    said = i18n.words(language, "words.agree_change") + i18n.words(i18n.DEFAULT, "words.agree_change")
    return frozenset(i18n.folded(w) for w in said)


@functools.cache
def _agree(language: str) -> frozenset[str]:
    said = i18n.words(language, "words.agree") + i18n.words(i18n.DEFAULT, "words.agree")
    one_word = [w for w in i18n.words(language, "words.yes") + i18n.words(language, "words.please") if " " not in w]
    # A yes phrase's words alone are not agreeing ones: the "on" of "go on" is the opposite of "turn off".
    return frozenset(w for phrase in (*said, *one_word) for w in re.findall(r"[^\W\d_]+", i18n.folded(phrase)))


def declines(text: str, language: str | None = None) -> bool:
    """Whether ``text``, said to a confirmation question that it does not confirm, only declines it (True) or
    is a new request to answer (False). ``language`` as :func:`.i18n.normalize` takes it (None: English)."""
    text = text.replace("\u2019", "'")
    lang = i18n.normalize(language)
    if text.rstrip().endswith("?") or _FILE.search(text):
        return False  # a question, a file named: something to answer ("No, delete b.txt instead")
    words = re.findall(r"[\w']+", text, re.UNICODE)
    if len(words) <= 1:
        return True
    return len(words) <= SHORT_WORDS and _pattern(lang).search(text) is not None


def is_yes(text: str, language: str | None = None, held: str = "", code: str = "") -> bool:
    """Whether a reply to a confirmation question is a yes in ``language`` or English: a plain one (see
    :func:`.i18n.yes_pattern`: "Ja, mach das.") or one that says what it agrees to, for the held block whose
    summary is ``held`` and whose code is ``code`` (see :func:`restates`: "Yes, delete it."). "Ja, aber nicht
    jetzt." and "Okay, cancel that." are not."""
    return i18n.confirms(text, language) or restates(text, language, held, code)
