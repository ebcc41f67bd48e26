"""A turn's spoken answer, streamed sentence by sentence (``AnswerStream``, which keeps what it did not say of a
long answer), whether a message asks for the rest (``is_read_on``), and the sentences said for what code did
when it printed nothing (``describe_changes``, ``spoken_boolean``). Rules: docs/server.md, docs/speech.md."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from .. import i18n
from . import speakable
from .language import join, locale_for, word


def is_read_on(text: str, language: str = "en") -> bool:
    """Whether ``text`` asks for the rest of a long answer and nothing else ("Read on.", "continue please",
    "Weiter!"): the ``speech.read_on`` words of ``language`` or English (agent/translations/), with "please"."""
    lang = locale_for(language).language
    said = re.sub(r"[^\w\s']+", " ", text.replace("\u2019", "'")).lower().split()
    please = {w.lower() for w in i18n.words(lang, "words.please") + i18n.words("en", "words.please")}
    while said and said[0] in please:
        said = said[1:]
    while said and said[-1] in please:
        said = said[:-1]
    phrases = {w.lower() for w in i18n.words(lang, "speech.read_on") + i18n.words("en", "speech.read_on")}
    return " ".join(said) in phrases


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
    always equal the returned answer. Sentences past ``max_sentences`` are not said but kept: with the rest a
    caller cut off itself, ``finish`` ends the answer with its ``more`` sentence and keeps them in ``unsaid``.
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
        self._dropped: list[str] = []  # sentences past the limit, not said
        self.unsaid = ""
        """What ``finish`` left unsaid of a long answer, plain text ("" when all was said)."""

    def _say(self, text: str) -> None:
        # Not cut here: a caller's tail was cut already (speakable_parts), and a live sentence is one sentence.
        text = speakable(text, max_sentences=10**6, max_chars=10**9, language=self._language)
        if not text:
            return
        if len(self._parts) >= self._max:
            self._dropped.append(text)
            return
        self._put(text)

    def _put(self, text: str) -> None:
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
    def model_raw(self) -> str:
        """Everything the LLM said this turn, as it wrote it."""
        return "".join(self._raw)

    @property
    def live(self) -> bool:
        """Whether sentences are streamed as they come (else everything is said at ``finish``)."""
        return self._live

    def finish(self, tail: str | None = None, rest: str = "", more: str | None = None) -> str:
        """Flush the buffer (live mode), then add ``tail``; return the whole answer. ``rest``: plain text the
        caller cut off ``tail`` (see ``speakable_parts``). When sentences were left unsaid (past the limit, or
        ``rest``) and ``more`` is given ("There is more; say 'read on'."), ``more`` is said last and the unsaid
        text is kept in ``unsaid``; without ``more`` it is dropped."""
        if self._live:
            self._say(self._buffer)
            self._buffer = ""
        if tail:
            self._max = max(self._max, len(self._parts) + 1)
            self._say(tail)
        unsaid = " ".join(part for part in (*self._dropped, rest.strip()) if part)
        if unsaid and more and self._parts:
            self.unsaid = unsaid
            self._put(more)
        return " ".join(self._parts)
