"""Turn an LLM's reply into short, plain text fit for text-to-speech."""

from __future__ import annotations

import re

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
