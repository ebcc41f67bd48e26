"""Turn an LLM's reply into short, plain text fit for text-to-speech."""

from __future__ import annotations

import re
from collections.abc import Callable

_FENCE = re.compile(r"```.*?(```|$)", re.S)
_INLINE = re.compile(r"`([^`]*)`")
_MARKS = re.compile(r"(\*\*|__|\*|#+\s|^>\s?|^\s*[-+]\s+)", re.M)
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def speakable(text: str, max_sentences: int = 3, max_chars: int = 400) -> str:
    """Strip markdown and code from ``text``; keep at most ``max_sentences`` sentences / ``max_chars`` chars."""
    text = _FENCE.sub(" ", text)
    text = _LINK.sub(r"\1", text)
    text = _INLINE.sub(r"\1", text)
    text = _MARKS.sub("", text)
    text = " ".join(text.split())
    sentences = [s for s in _SENTENCE.split(text) if s]
    text = " ".join(sentences[:max_sentences])
    if len(text) > max_chars:
        text = text[:max_chars].rsplit(" ", 1)[0] + "…"
    return text.strip()


_SENTENCE_END = re.compile(r"[.!?](?=\s)|\n")


class AnswerStream:
    """Builds a turn's spoken answer and streams it out sentence by sentence.

    ``feed`` takes the LLM's text deltas; with ``live`` each complete sentence is made speakable and passed to
    ``emit`` as soon as it ends (so text-to-speech can start before the turn ends). ``finish`` adds the tail
    (a confirmation question, a refusal, or the code's output), emits what is left and returns the whole
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
        while match := _SENTENCE_END.search(self._buffer):
            sentence, self._buffer = self._buffer[: match.end()], self._buffer[match.end():]
            self._say(sentence)

    @property
    def model_text(self) -> str:
        """Everything the LLM said this turn, speakable (used when nothing was streamed live)."""
        return speakable("".join(self._raw))

    def finish(self, tail: str | None = None) -> str:
        """Flush the buffer (live mode), then add ``tail``; return the whole answer."""
        if self._live:
            self._say(self._buffer)
            self._buffer = ""
        if tail:
            self._max = max(self._max, len(self._parts) + 1)
            self._say(tail)
        return " ".join(self._parts)
