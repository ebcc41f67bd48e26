"""Which language a block printed its answer in (py3langid, restricted to the languages o1 speaks).

The model is told the conversation's language (``i18n.for_model``), yet the embedded model often prints its
sentence in English inside a German or French conversation ("Butter added to the To-Do list." for "schreib
Butter auf meine To-do-Liste"): the user then hears English. :func:`printed_in_english` tells such an output
from one in the conversation's language, so the turn can say o1's own sentence of what the code changed (in
the language) or ask the model once for the sentence in the language (agent/repair.py).
"""

from __future__ import annotations

import re
import threading
from typing import Any

from . import i18n

LANGUAGES = ("en", "de", "fr", "es", "nl", "it")
"""The languages the identifier chooses among: those of the translation files."""
MIN_WORDS = 3
"""Words of three letters or more an output needs before its language is judged: "Erledigt." or "Total: 42"
are too short to tell."""
MIN_PROBABILITY = 0.9
"""How sure the identifier must be that the output is English (probabilities normalized over
:data:`LANGUAGES`). Measured on the dev split's outputs: English sentences of 3 to 8 words score 0.91-0.999,
German, French and Spanish ones below 0.3 for English."""

SHORT_WORDS = 3
"""Words of two letters or more that make a sentence worth judging when it has fewer than :data:`MIN_WORDS`
long ones ("Tokyo time is 23:20" in an Italian conversation: the user heard English)."""
SHORT_ENGLISH = 0.5
"""For such a short sentence: English must be the identifier's first choice, at least this sure ..."""
SHORT_OWN = 0.1
"""... and the conversation's language at most this likely. Measured on short sentences in the six languages
("Tokyo time is": en 0.85, it 0.07; "Sono le", "Het is", "Son las", "Ça fait euros": their own language first)."""

_IDENTIFIER: Any = None
_LOCK = threading.Lock()
_WORD = re.compile(r"[^\W\d_]{3,}")
_SHORT_WORD = re.compile(r"[^\W\d_]{2,}")
_ENGLISH_GLUE = frozenset(
    {"the", "is", "are", "was", "were", "it", "you", "your", "will", "has", "have", "there", "this", "that", "of", "to"}
)  # a short English sentence holds one of these; one of names and nouns ("Office Light an") holds none
_NAMES = re.compile(r"\S+\.\w{2,4}\b|\b\w+_\w+\b")  # file names and snake_case names say no language


def _identifier() -> Any:
    """py3langid's identifier over :data:`LANGUAGES`, loaded once (about 0.6 s) on first use."""
    global _IDENTIFIER
    with _LOCK:
        if _IDENTIFIER is None:
            from py3langid.langid import MODEL_FILE, LanguageIdentifier

            identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
            identifier.set_languages(list(LANGUAGES))
            _IDENTIFIER = identifier
    return _IDENTIFIER


_LABEL_COLON = re.compile(r"(?<!\d):(?!\d)")


def printed_in_english(text: str, language: str | None) -> bool:
    """Whether ``text`` (what a block printed) is English while the conversation's ``language`` is another one.
    Only a one-line output is judged, and of it only the words before a colon (the model's label; what follows
    is data: the user's English entries, Home Assistant states). False for an English conversation, for fewer
    than :data:`MIN_WORDS` words (file names and numbers left out) and whenever the identifier is not at
    least :data:`MIN_PROBABILITY` sure; a sentence with fewer long words but :data:`SHORT_WORDS` of two letters
    or more, one of them an English function word ("is", "the"), is judged by :data:`SHORT_ENGLISH` and
    :data:`SHORT_OWN`."""
    lang = i18n.normalize(language)
    if lang == "en" or lang not in LANGUAGES:
        return False
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) != 1:
        return False  # lines of data (a list read back from the user's file): not the model's sentence
    # "Du hast 3 Termine: Dentist, Lunch with Anna": the label speaks (the colon of a clock time, 23:20, is none)
    sentence = _LABEL_COLON.split(lines[0], maxsplit=1)[0]
    plain = _NAMES.sub(" ", sentence)
    words = _WORD.findall(plain)
    if len(words) < MIN_WORDS:
        short = _SHORT_WORD.findall(plain)
        if len(short) < SHORT_WORDS or not _ENGLISH_GLUE & {word.lower() for word in short}:
            return False  # "Living Room an", "Tu as 2 meetings": English names, the sentence is the language's
        ranked: dict[str, float] = dict(_identifier().rank(" ".join(short)))
        return (
            max(ranked, key=ranked.__getitem__) == "en" and ranked["en"] >= SHORT_ENGLISH and ranked[lang] <= SHORT_OWN
        )
    found, probability = _identifier().classify(" ".join(words))
    return bool(found == "en" and probability >= MIN_PROBABILITY)
