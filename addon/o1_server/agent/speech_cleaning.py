"""Everything that makes an answer fit for the ear, in one place.

``speakable`` turns an LLM's reply or a program's output into short plain sentences for text-to-speech: code,
markdown, HTML, raw JSON and tool-call text are never read out as such, long decimals are rounded, ISO dates are
said as dates. ``AnswerStream`` builds a turn's answer and streams it sentence by sentence; ``describe_changes``
says what code did to the conversation folder when it printed nothing. This is not text-to-speech
(:mod:`o1_server.tts`). The rules, one by one: see docs/server.md.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable

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

# ---------------------------------------------------------------- numbers
# A decimal number that is not part of a dotted sequence (1.2.3, 192.168.1.1) or an exponent.
_DECIMAL = re.compile(r"(?<![\d.])(-?\d+)\.(\d+)(?![\d.]*\d)(?![eE][-+]?\d)(?!\.\d)")

_SENTENCE = re.compile(r"(?<=[.!?…])\s+")

# ---------------------------------------------------------------- dates and times (ISO 8601, as Python prints them)
_MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_ISO_DATE = re.compile(r"(?<![\d-])(\d{4})-(\d{2})-(\d{2})(?![\d-])")
_ISO_TIME = re.compile(r"(?<![\d:])(\d{1,2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[+-]\d{2}:\d{2}|Z)?(?![\d:])")


def _date_match(match: re.Match[str]) -> str:
    year, month, day = (int(g) for g in match.groups())
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return match.group(0)
    return f"{_MONTH_NAMES[month - 1]} {day}, {year}"


def _time_match(match: re.Match[str]) -> str:
    hour, minute = int(match.group(1)), int(match.group(2))
    if hour > 23 or minute > 59:
        return match.group(0)
    return f"{hour:02d}:{minute:02d}"


def dates_for_speech(text: str) -> str:
    """ISO dates and times as said: "2026-12-01 00:37:43.5" -> "December 1, 2026 00:37" (seconds dropped)."""
    text = _ISO_DATE.sub(_date_match, text)
    text = re.sub(r"(\d{4})T(?=\d{1,2}:)", r"\1 at ", text)
    return _ISO_TIME.sub(_time_match, text)


def round_for_speech(number: float) -> str:
    """Return ``number`` as a listener wants to hear it: no decimals from 1000, 1 from 10, 2 from 1, 3 under 1,
    two significant digits under 0.001; trailing zeros dropped ("12.0" -> "12")."""
    size = abs(number)
    if size >= 1000:
        text = f"{number:.0f}"
    elif size >= 10:
        text = f"{number:.1f}"
    elif size >= 1:
        text = f"{number:.2f}"
    elif size == 0:
        text = "0"
    elif size >= 0.001:
        text = f"{number:.3f}"
    else:  # tiny: two significant digits, never an exponent
        text = f"{number:.{min(1 - math.floor(math.log10(size)), 20)}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _round_match(match: re.Match[str]) -> str:
    whole, decimals = match.group(1), match.group(2)
    if len(decimals) <= 2 and decimals != "0" * len(decimals):
        return match.group(0)  # 12.5, 3.75: already how it is said
    return round_for_speech(float(f"{whole}.{decimals}"))


_EXPONENT = re.compile(r"(?<![\w.])(-?\d+(?:\.\d+)?)[eE]([-+]?\d+)\b")


def _exponent_match(match: re.Match[str]) -> str:
    mantissa, exponent = float(match.group(1)), int(match.group(2))
    value = mantissa * 10.0**exponent
    if -3 <= exponent <= 9:
        return round_for_speech(value)
    return f"{round_for_speech(mantissa)} times 10 to the power of {exponent}"


def round_numbers(text: str) -> str:
    """Round every long decimal number in ``text`` for speech (see ``round_for_speech``); numbers in
    scientific notation are said in full when small enough, else as "6.02 times 10 to the power of 23"."""
    return _DECIMAL.sub(_round_match, _EXPONENT.sub(_exponent_match, text))


# ---------------------------------------------------------------- JSON
def _json_phrase(value: object) -> str | None:
    """Speech for a small flat JSON object ("state on, temperature 21.5"), else None."""
    if (
        isinstance(value, dict)
        and 0 < len(value) <= 6
        and all((isinstance(k, str) and isinstance(v, (str, int, float, bool))) or v is None for k, v in value.items())
    ):
        words = []
        for key, item in value.items():
            said = "none" if item is None else ("yes" if item is True else "no" if item is False else str(item))
            words.append(f"{key.replace('_', ' ')} {said}")
        return ", ".join(words)
    if isinstance(value, list) and 0 < len(value) <= 6 and all(isinstance(v, (str, int, float)) for v in value):
        return ", ".join(str(v) for v in value)
    return None


def _is_tool_call(value: object) -> bool:
    return isinstance(value, dict) and (
        {"name", "arguments"} <= value.keys()
        or "function" in value
        or "tool_calls" in value
        or {"type", "function"} <= value.keys()
    )


def _drop_json(text: str) -> str:
    """Replace each JSON object or array in ``text`` by its speech (small and flat) or by nothing."""
    out: list[str] = []
    i = 0
    decoder = json.JSONDecoder()
    while i < len(text):
        ch = text[i]
        if ch in "{[":
            try:
                value, end = decoder.raw_decode(text, i)
            except ValueError:
                value, end = None, -1
            if end > i and isinstance(value, (dict, list)) and (ch == "{" or end - i > 2):
                phrase = None if _is_tool_call(value) else _json_phrase(value)
                out.append(f" {phrase} " if phrase else " ")
                i = end
                continue
            if ch == "{" and re.match(r'\{\s*"', text[i:]):
                # Unterminated JSON (cut off by a length limit, or a tool call mid-stream): drop the rest of
                # the line.
                nl = text.find("\n", i)
                i = len(text) if nl < 0 else nl
                out.append(" ")
                continue
        out.append(ch)
        i += 1
    return "".join(out)


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


def plain(text: str) -> str:
    """Markdown, HTML, tool calls and JSON out; long decimals rounded; spacing normalised (no truncation)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _TOOL_CALL.sub(" ", text)
    text = _FENCE.sub("\n", text)
    text = _FENCE_INLINE.sub(" ", text)
    text = _HTML_COMMENT.sub(" ", text)
    text = _AUTOLINK.sub(r" \1 ", text)
    text = _TABLE_RULE.sub("", text)
    text = _TABLE_ROW.sub(_table_row, text)
    text = re.sub(r"<br\s*/?>|</p>|</li>|</tr>|</h\d>", "\n", text, flags=re.I)
    text = _HTML_TAG.sub(" ", text)
    for entity, char in _ENTITIES.items():
        text = text.replace(entity, char)
    text = _drop_json(text)
    text = _IMAGE.sub(r" \1 ", text)
    text = _LINK.sub(r"\1", text)
    text = _REF_LINK.sub(r"\1", text)
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
    text = dates_for_speech(text)
    text = re.sub(r"\s*\|\s*", ", ", text)  # a table cell border left over (a row cut by a line break)
    text = round_numbers(text)
    text = " ".join(text.split())
    text = re.sub(r"\s+([,.;:!?])(?=\s|$)", r"\1", text)  # "word ." -> "word."
    text = re.sub(r"([.!?])[.]+(?=\s|$)", r"\1", text)  # "Done.." -> "Done."
    return text.strip()


def split_sentences(text: str) -> list[str]:
    """Split plain text into sentences; a list number ("2.") stays with its item."""
    sentences: list[str] = []
    for piece in _SENTENCE.split(text):
        if not piece:
            continue
        if sentences and re.fullmatch(r"\d{1,3}\.", sentences[-1]):
            sentences[-1] += " " + piece
        else:
            sentences.append(piece)
    return sentences


def speakable(text: str, max_sentences: int = 3, max_chars: int = 400) -> str:
    """Return ``text`` as plain speech (the rules of docs/server.md), at most ``max_sentences`` sentences and about
    ``max_chars`` characters (cut at a word, marked with "…")."""
    text = plain(text)
    sentences = split_sentences(text)
    text = " ".join(sentences[:max_sentences])
    if len(text) > max_chars:
        text = text[:max_chars].rsplit(" ", 1)[0].rstrip(",;:") + "…"
    return text.strip()


def describe_changes(created: Iterable[str], changed: Iterable[str], deleted: Iterable[str]) -> str | None:
    """One sentence about what code did to the conversation folder ("I created shopping_list.txt."), or None."""

    def names(items: list[str]) -> str:
        items = sorted(items)
        if len(items) > 3:
            return f"{', '.join(items[:3])} and {len(items) - 3} more"
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]

    parts = []
    for verb, items in (("created", list(created)), ("updated", list(changed)), ("deleted", list(deleted))):
        if items:
            parts.append(f"{verb} {names(items)}")
    if not parts:
        return None
    return "I " + (", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]) + "."


_SENTENCE_END = re.compile(r"[.!?](?=\s)|\n")
_LIST_NUMBER = re.compile(r"(^|\n)[ \t]*\d{1,3}$")  # "2" before the "." of "2. Eggs": not a sentence end


class AnswerStream:
    """Builds a turn's spoken answer and streams it out sentence by sentence.

    ``feed`` takes the LLM's text deltas; with ``live`` each complete sentence is made speakable and passed to
    ``emit`` as soon as it ends (so text-to-speech can start before the turn ends); a code fence holds the
    stream back until it closes, so code is never cut in the middle and read. ``finish`` adds the tail (a
    confirmation question, a refusal, or what the code found), emits what is left and returns the whole
    answer. The texts passed to ``emit``, concatenated, always equal the returned answer.
    """

    def __init__(self, emit: Callable[[str], None] | None, live: bool, max_sentences: int = 3) -> None:
        self._emit = emit
        self._live = live
        self._max = max_sentences
        self._buffer = ""
        self._raw: list[str] = []
        self._parts: list[str] = []

    def _say(self, text: str) -> None:
        text = speakable(text)
        if not text or len(self._parts) >= self._max:
            return
        if self._emit is not None:
            self._emit((" " if self._parts else "") + text)
        self._parts.append(text)

    def feed(self, delta: str) -> None:
        """Take one LLM text delta."""
        self._raw.append(delta)
        if not self._live:
            return
        self._buffer += delta
        while True:
            if self._buffer.count("```") % 2 == 1 or re.search(r"<tool_call>(?![\s\S]*</tool_call>)", self._buffer):
                return  # inside a code fence or a tool call: wait for its end
            match = next(
                (m for m in _SENTENCE_END.finditer(self._buffer) if not _LIST_NUMBER.search(self._buffer[: m.start()])),
                None,
            )
            if match is None or self._open_markup(self._buffer[: match.end()]):
                return
            sentence, self._buffer = self._buffer[: match.end()], self._buffer[match.end() :]
            self._say(sentence)

    @staticmethod
    def _open_markup(text: str) -> bool:
        """True when ``text`` ends inside JSON (more "{" than "}"): the sentence is not over."""
        return text.count("{") > text.count("}") or text.count("[") > text.count("]")

    @property
    def model_text(self) -> str:
        """Everything the LLM said this turn, speakable."""
        return speakable("".join(self._raw))

    @property
    def live(self) -> bool:
        """Whether sentences are streamed as they come (else everything is said at ``finish``)."""
        return self._live

    def finish(self, tail: str | None = None) -> str:
        """Flush the buffer (live mode), then add ``tail``; return the whole answer."""
        if self._live:
            self._say(self._buffer)
            self._buffer = ""
        if tail:
            self._max = max(self._max, len(self._parts) + 1)
            self._say(tail)
        return " ".join(self._parts)
