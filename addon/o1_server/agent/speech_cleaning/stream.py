"""A turn's spoken answer, streamed sentence by sentence (``AnswerStream``), and the sentences said for what code
did when it printed nothing (``describe_changes``, ``spoken_boolean``). Rules: docs/server.md."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from . import speakable
from .language import join, word


def describe_changes(
    created: Iterable[str], changed: Iterable[str], deleted: Iterable[str], *, language: str = "en"
) -> str | None:
    """One sentence in ``language`` about what code did to the conversation folder ("I created shopping_list.txt
    and deleted old.txt.", "Ich habe shopping_list.txt erstellt."), or None when nothing changed. Each list:
    file names relative to the folder; more than 3 are said as "a, b, c and 2 more"."""

    def names(items: list[str]) -> str:
        items = sorted(items)
        if len(items) > 3:
            items = [*items[:3], word(language, "more").format(len(items) - 3)]
        return join(items, language)

    parts = [
        word(language, verb).format(names(items))
        for verb, items in (("created", list(created)), ("updated", list(changed)), ("deleted", list(deleted)))
        if items
    ]
    return word(language, "did").format(join(parts, language)) if parts else None


def spoken_boolean(output: str, language: str = "en") -> str | None:
    """ "Yes." or "No." in ``language`` ("Ja.", "Oui.") when a program's whole output is Python's ``True`` or
    ``False``; None for any other output."""
    value = output.strip()
    if value not in ("True", "False"):
        return None
    said = word(language, "yes" if value == "True" else "no")
    return said[:1].upper() + said[1:] + "."


_SENTENCE_END = re.compile(r"[.!?](?=\s)|\n")
_LIST_NUMBER = re.compile(r"(^|\n)[ \t]*\d{1,3}$")  # "2" before the "." of "2. Eggs": not a sentence end


class AnswerStream:
    """Builds a turn's spoken answer and streams it out sentence by sentence.

    ``feed`` takes the LLM's text deltas; with ``live`` each complete sentence is made speakable and passed to
    ``emit`` as soon as it ends (so text-to-speech can start before the turn ends); a code fence holds the
    stream back until it closes, so code is never cut in the middle and read. ``finish`` adds the tail (a
    confirmation question, a refusal, or what the code found), emits what is left and returns the whole
    answer. Every text is said in ``language`` (see ``speakable``). The texts passed to ``emit``, concatenated,
    always equal the returned answer.
    """

    def __init__(
        self, emit: Callable[[str], None] | None, live: bool, max_sentences: int = 3, *, language: str = "en"
    ) -> None:
        self._emit = emit
        self._language = language
        self._live = live
        self._max = max_sentences
        self._buffer = ""
        self._raw: list[str] = []
        self._parts: list[str] = []

    def _say(self, text: str) -> None:
        text = speakable(text, language=self._language)
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
        return speakable("".join(self._raw), language=self._language)

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
