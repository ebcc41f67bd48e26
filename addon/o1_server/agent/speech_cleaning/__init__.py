"""Everything that makes an answer fit for the ear, in one place.

``speakable`` turns an LLM's reply or a program's output into short plain sentences for text-to-speech, in the
conversation's language: code, markdown, HTML, raw JSON and tool-call text are never read out as such, Python
reprs are said as words, numbers keep the value they were printed with and dates are said as dates.
``AnswerStream`` builds a turn's answer and streams it sentence by sentence; ``describe_changes`` says what code
did to the conversation folder when it printed nothing. This is not text-to-speech (:mod:`o1_server.tts`). The
rules, one by one: see docs/server.md.
"""

from __future__ import annotations

import re

from babel.dates import get_month_names

from .language import join, locale_for, word
from .numbers import (
    dates_for_speech,
    names_for_speech,
    numbers_for_speech,
    round_for_speech,
    round_numbers,
    seconds_for_speech,
    shorten,
)
from .values import say_bytes, values_for_speech, without_factories

READ_ON_SENTENCES = 3
"""Sentences said of a long answer's rest for each "read on" (and at most ``READ_ON_CHARS`` characters)."""
READ_ON_CHARS = 400

__all__ = [
    "READ_ON_CHARS",
    "READ_ON_SENTENCES",
    "AnswerStream",
    "dates_for_speech",
    "describe_changes",
    "is_read_on",
    "join",
    "locale_for",
    "names_for_speech",
    "numbers_for_speech",
    "plain",
    "round_for_speech",
    "round_numbers",
    "say_bytes",
    "seconds_for_speech",
    "shorten",
    "speakable",
    "speakable_parts",
    "split_sentences",
    "spoken_boolean",
    "values_for_speech",
    "word",
]

# ---------------------------------------------------------------- markdown and markup
_FENCE = re.compile(r"(^|\n)[ \t]*(```|~~~).*?(\n[ \t]*\2[ \t]*(?=\n|$)|$)", re.S)
_FENCE_INLINE = re.compile(r"```.*?(```|$)", re.S)  # a fence opened mid-line (small models do that)
_TOOL_CALL = re.compile(r"<(tool_call|function_call|tool_response)>.*?(</\1>|$)", re.S | re.I)
_HTML_COMMENT = re.compile(r"<!--.*?(-->|$)", re.S)
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9_:-]*(\s[^<>]*)?/?>")
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_REF_LINK = re.compile(r"\[([^\]]+)\]\[[^\]]*\]")
_AUTOLINK = re.compile(r"<((?:https?|mailto):[^<>\s]+)>")
_INLINE_CODE = re.compile(r"`+([^`]*)`+")
_STRIKE = re.compile(r"~~(?=\S)(.*?)(?<=\S)~~", re.S)
_BOLD = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1", re.S)
_ITALIC_STAR = re.compile(r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])", re.S)
_ITALIC_UNDERSCORE = re.compile(r"(?<![\w_])_(?=[^\s_])(.+?)(?<=[^\s_])_(?![\w_])", re.S)
_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+(.*?)[ \t#]*$", re.M)
_SETEXT = re.compile(r"^[ \t]*(=+|-+)[ \t]*$", re.M)
_QUOTE = re.compile(r"^[ \t]*(>[ \t]?)+", re.M)
_RULE = re.compile(r"^[ \t]*([-*_])([ \t]*\1){2,}[ \t]*$", re.M)
_BULLET = re.compile(r"^[ \t]*[-*+•][ \t]+(\[[ xX]\][ \t]+)?", re.M)
_NUMBERED = re.compile(r"^[ \t]*(\d{1,3})[.)][ \t]+", re.M)
_TABLE_RULE = re.compile(r"^[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$", re.M)
_TABLE_ROW = re.compile(r"^[ \t]*\|(.*)\|[ \t]*$", re.M)
_LEFTOVER_MARKS = re.compile(r"(\*\*|__|~~|(?<!\S)#+(?=\s)|`)")
_ENTITIES = {"&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&nbsp;": " "}

_SPACES = re.compile(r"[^\S\u00a0]+")
# A Python boolean printed as a value ("Door open: True", "locked=False"): said as yes or no in the language.
_BOOLEAN = re.compile(r"(?<=[:=])(\s*)\b(True|False)\b(?=\s*(?:$|[,.;!?)\n]))", re.M)
_SENTENCE = re.compile(r"(?<=[.!?…])(?<!\b[A-Z]\.)\s+")  # not after an initial: "K. Adeyemi"
# A month's name in one of o1's languages (Babel's), as a date written "28. Dezember" goes on after its day.
_MONTH_FIRST = re.compile(
    "(?:"
    + "|".join(
        sorted(
            {
                re.escape(name)
                for lang in ("en", "de", "fr", "es", "it", "nl")
                for width in ("wide", "abbreviated")
                for name in get_month_names(width, locale=lang).values()
            },
            key=len,
            reverse=True,
        )
    )
    + r")(?!\w)",
    re.IGNORECASE,
)


# ---------------------------------------------------------------- the whole
def _table_row(match: re.Match[str]) -> str:
    cells = [c.strip() for c in match.group(1).split("|")]
    return ", ".join(c for c in cells if c) + "."


def _end_line(line: str) -> str:
    """End a list item or heading with a full stop so it is said as its own sentence."""
    line = line.rstrip()
    if line and line[-1] not in ".!?:;,…":
        line += "."
    return line


def plain(text: str, language: str = "en", *, group: bool = False) -> str:
    """``text`` without markdown, HTML, code and tool calls; JSON and Python reprs as words, dates and numbers
    said in ``language`` ("de", "de-DE", "fr_FR"; unknown: English) with their printed value; large integers
    grouped only with ``group``; spacing normalised (no truncation)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _TOOL_CALL.sub(" ", text)
    text = _FENCE.sub("\n", text)
    text = _FENCE_INLINE.sub(" ", text)
    text = without_factories(_HTML_COMMENT.sub(" ", text))
    text = _AUTOLINK.sub(r" \1 ", text)
    text = _TABLE_RULE.sub("", text)
    text = _TABLE_ROW.sub(_table_row, text)
    text = re.sub(r"<br\s*/?>|</p>|</li>|</tr>|</h\d>", "\n", text, flags=re.I)
    text = _HTML_TAG.sub(" ", text)
    for entity, char in _ENTITIES.items():
        text = text.replace(entity, char)
    text = _IMAGE.sub(r" \1 ", text)
    text = _LINK.sub(r"\1", text)
    text = _REF_LINK.sub(r"\1", text)
    text = values_for_speech(text, language)
    text = _BOOLEAN.sub(lambda m: m.group(1) + word(language, "yes" if m.group(2) == "True" else "no"), text)
    text = _INLINE_CODE.sub(lambda m: f" {m.group(1).strip()} " if m.group(1).strip() else " ", text)
    text = _RULE.sub("\n", text)
    text = _SETEXT.sub("", text)
    text = _HEADING.sub(lambda m: _end_line(m.group(1)), text)
    text = _QUOTE.sub("", text)
    lines = []
    for line in text.split("\n"):
        bullet = _BULLET.match(line)
        numbered = _NUMBERED.match(line)
        if bullet:
            line = _end_line(line[bullet.end() :])
        elif numbered:
            line = f"{numbered.group(1)}. " + _end_line(line[numbered.end() :])
        lines.append(line)
    text = "\n".join(lines)
    text = _STRIKE.sub(" ", text)  # struck-through text is what no longer holds: not said
    for _ in range(2):  # nested emphasis (***x***, **_x_**)
        text = _BOLD.sub(r"\2", text)
        text = _ITALIC_STAR.sub(r"\1", text)
        text = _ITALIC_UNDERSCORE.sub(r"\1", text)
    text = _LEFTOVER_MARKS.sub(" ", text)
    text = dates_for_speech(text, language)
    text = seconds_for_speech(text, language)
    text = names_for_speech(text, language)
    text = re.sub(r"\s*\|\s*", ", ", text)  # a table cell border left over (a row cut by a line break)
    text = numbers_for_speech(text, language, group)
    # Lines are heard apart: "12" and "345" on two lines are not 12 345, nor "Milk Eggs Bread" one thing.
    text = re.sub(r"(?<=[^\s.,;:!?…])[ \t]*\n\s*(?=\S)", ", ", text)
    text = _SPACES.sub(" ", text)  # a no-break space inside a grouped number stays
    text = re.sub(r"\s+([,.;:!?])(?=\s|$)", r"\1", text)  # "word ." -> "word."
    text = re.sub(r"([.!?])[.]+(?=\s|$)", r"\1", text)  # "Done.." -> "Done."
    return text.strip()


def split_sentences(text: str) -> list[str]:
    """Split plain text into sentences; a list number ("2.") stays with its item."""
    sentences: list[str] = []
    for piece in _SENTENCE.split(text):
        if not piece:
            continue
        if sentences and (
            re.fullmatch(r"\d{1,3}\.", sentences[-1])
            or (re.search(r"(?<![\d.])\d{1,2}\.$", sentences[-1]) and _MONTH_FIRST.match(piece))
        ):  # "2." of a list, "28. Dezember" of a German date
            sentences[-1] += " " + piece
        else:
            sentences.append(piece)
    return sentences


def speakable(text: str, max_sentences: int = 3, max_chars: int = 400, *, language: str = "en") -> str:
    """Return ``text`` as plain speech in ``language`` (the rules of docs/server.md: ``plain`` with large integers
    grouped the locale's way), at most ``max_sentences`` sentences and about ``max_chars`` characters (cut at a
    word, marked with "…"). ``language``: a language tag ("en", "de-DE", "fr_FR"); unknown ones are English."""
    text = plain(text, language, group=True)
    sentences = split_sentences(text)
    text = " ".join(sentences[:max_sentences])
    if len(text) > max_chars:
        text = text[:max_chars].rsplit(" ", 1)[0].rstrip(",;:") + "…"
    return text.strip()


def speakable_parts(
    text: str, max_sentences: int = READ_ON_SENTENCES, max_chars: int = READ_ON_CHARS, *, language: str = "en"
) -> tuple[str, str]:
    """``(said, rest)``: ``text`` as plain speech (``plain`` with large integers grouped), cut after at most
    ``max_sentences`` whole sentences and ``max_chars`` characters (one sentence longer than that is cut at a
    word, marked with "…", and goes on in ``rest``); ``rest`` is the plain text not said ("" when all of it
    is), ready to be cut again."""
    sentences = split_sentences(plain(text, language, group=True))
    said: list[str] = []
    for sentence in sentences[:max_sentences]:
        if said and len(" ".join([*said, sentence])) > max_chars:
            break
        said.append(sentence)
    rest = sentences[len(said) :]
    head = " ".join(said).strip()
    if len(head) > max_chars:
        cut = head[:max_chars].rsplit(" ", 1)[0]
        rest.insert(0, head[len(cut) :].strip())
        head = cut.rstrip(",;:") + "…"
    return head, " ".join(rest).strip()


from .stream import AnswerStream, describe_changes, is_read_on, spoken_boolean  # noqa: E402  (they use speakable)
