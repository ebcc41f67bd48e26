"""Requests only the internet can answer, for a profile without it: said honestly, without asking the model.

A request is such a lookup when it matches one of the translations' ``online.asks`` of its language (phrases and
topic words: "will it rain", "umbrella", "who won", "opening hours", "the next train"; English's when the language
has none) and holds no number standing alone (data to compute with; the 7 of "A7" is a name), no file name, no
word of ``online.not_if`` (the user's things, the home, words), no phrase of ``online.defines`` (a definition)
and no word of the folder's file names or the home's device names (see :func:`online_topic`). Then the turn says
``online.cant`` and runs nothing; the caller decides which profiles this applies to. A lookup phrased otherwise
reaches the model; a block that then reads the internet at addresses the model chose (:func:`chosen_lookup`) is
denied with the same sentence (docs/architecture.md, step 5).
"""

from __future__ import annotations

import functools
import ipaddress
import re
from collections.abc import Iterable

from . import i18n
from .policy.paths import host_of

_FILE = re.compile(r"(?<![\w.])[\w-]+\.[A-Za-z][A-Za-z0-9]{0,4}(?![\w.])")  # notes.txt, not 3.5 or e.g.
_NUMBER = re.compile(r"(?<![\w-])\d+(?![\w-])")  # 1.1 or 12, not the 7 of "A7", "LH400" or "Formel-1"
_CLOCK = re.compile(
    r"\b\d{1,2}:\d{2}\b|\b(?:at|um|à|las|alle|om|ore)\s+\d{1,2}(?:\s*(?:uhr|h|am|pm|o'clock))?(?![\d.,:])",
    re.IGNORECASE,
)  # "the train at 8", "um 7:40", "de las 8": a time of the lookup, not data to compute with
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


@functools.cache
def _asks(language: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p, re.IGNORECASE) for p in i18n.words(language, "online.asks"))


@functools.cache
def _defines(language: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p, re.IGNORECASE) for p in i18n.words(language, "online.defines"))


@functools.cache
def _not_if(language: str) -> frozenset[str]:
    """``online.not_if`` of ``language`` and of English, without the English words the language marks with "!"
    as its own (Dutch "!file": a traffic jam)."""
    own = {w.lower() for w in i18n.words(language, "online.not_if")}
    english = {w.lower() for w in i18n.words(i18n.DEFAULT, "online.not_if")}
    friends = {w[1:] for w in own if w.startswith("!")}
    return frozenset(w for w in own | english if not w.startswith("!") and w not in friends)


def online_topic(text: str, language: str | None, names: Iterable[str] = (), follow_up: bool = False) -> str | None:
    """The words of ``text`` that ask for an online lookup ("what's the weather"), or None: none do, or the
    request holds a number standing alone ("1.1"; not the 7 of "A7", nor a time: "the train at 8"), a file
    name, a word of ``online.not_if``, a phrase of ``online.defines`` (a definition or an explanation: "what is
    an exchange rate") or a word
    (4 letters or more) of one of ``names`` (the folder's file names, the home's device names). In a
    ``follow_up`` (the conversation has an earlier turn), a condition (``online.hypothetical``: "and if it
    rains, I water half", "¿y si llueve...?") is about what was computed, not a lookup."""
    lang = i18n.normalize(language)
    low = " ".join(text.lower().replace("\u2019", "'").split())
    if _NUMBER.search(_CLOCK.sub(" ", low)) or _FILE.search(low):
        return None
    found = next((m for m in (p.search(low) for p in _asks(lang)) if m), None)
    if found is None:
        return None
    if follow_up and any(re.search(p, low) for p in i18n.patterns(lang, "online.hypothetical")):
        return None
    words = set(_WORD.findall(low))
    if words & _not_if(lang) or any(p.search(low) for p in _defines(lang)):
        return None
    return None if _names_a(words, names, 4) else found.group(0)


def system_request(text: str, language: str | None, names: Iterable[str] = ()) -> bool:
    """Whether ``text`` asks to shut down, restart or put to sleep the computer o1 runs on (``words.power_off``
    of ``language`` and English: "Fahr den Rechner herunter", "reboot the server"), and names no file, no number
    and no word of ``names`` (the home's device names: "turn off the PC" may be a switch Home Assistant
    exposes). The model had printed "Rechner wurde komplett heruntergeladen." and done nothing
    (eighth held-out set, now a dev set)."""
    low = " ".join(text.lower().replace("\u2019", "'").split())
    if _NUMBER.search(low) or _FILE.search(low):
        return False
    if not any(re.search(p, low) for p in i18n.patterns(language, "words.power_off")):
        return False
    return not _names_a(set(_WORD.findall(low)), names, 2)


def _names_a(words: set[str], names: Iterable[str], shortest: int) -> bool:
    """Whether one of ``words`` (lower case) of ``shortest`` letters or more is a word of one of ``names`` (the
    folder's file names, the home's device names)."""
    stems = {w for name in names for w in re.findall(rf"[^\W\d_]{{{shortest},}}", name.lower())}
    return any(len(w) >= shortest and w in stems for w in words)


_ADDRESS = re.compile(r"uses the address '([^']+)'")  # the classifier's reason for a literal URL or host
_LOOKUP_CATEGORIES = frozenset({"network", "read_only", "writes_files", "unparseable"})
_LOCAL_SUFFIXES = (
    ".local",
    ".lan",
    ".home",
    ".internal",
    ".localdomain",
    ".arpa",
    ".box",
    ".corp",
    ".intranet",
    ".private",
    ".localhost",
    ".ts.net",
)  # the home's own names: mDNS, routers (fritz.box), VPNs (Tailscale), RFC 8375's home.arpa
_HOST = re.compile(r"^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z][a-z0-9-]*[a-z0-9]$")  # a whole host name, nothing unknown


def _public(host: str) -> bool:
    """Whether ``host`` is on the internet: a public IP address or a whole dotted name outside the local
    suffixes (``printer.local``, ``fritz.box``, ``homeassistant``, ``192.168.1.5`` and ``localhost`` are the
    home's own; a host with a part known only at run time may be one of them)."""
    try:
        return ipaddress.ip_address(host).is_global
    except ValueError:
        return bool(_HOST.match(host)) and not host.endswith(_LOCAL_SUFFIXES)


def _named(host: str, request: str) -> bool:
    """Whether ``request`` names ``host``: the host itself (or its Unicode form, "münchen.de" for
    "xn--mnchen-3ya.de"), or its name below the public suffix as a word ("the BBC" for www.bbc.co.uk, "python
    dot org")."""
    try:
        unicode = host.encode("ascii").decode("idna")
    except (UnicodeError, ValueError):
        unicode = host
    if any(form in request for form in {host, host.removeprefix("www."), unicode, unicode.removeprefix("www.")}):
        return True
    labels = [label for label in host.split(".") if label not in ("www", "m", "api")]
    words = set(re.findall(r"[^\W_]+", request))
    return any(len(label) >= 3 and label in words for label in labels[:-1])


def chosen_lookup(categories: Iterable[str], reasons: Iterable[str], request: str) -> bool:
    """Whether a block classified as ``categories`` with ``reasons`` (policy.classify's) is a lookup on the
    internet that the model chose for ``request``: it uses the network (and at most reads or writes files or
    uses what the classifier cannot check, such as a reply's ``.status_code``),
    every address it names is a public one, at least one is named, and the request (the user's messages of the
    conversation) names none of their hosts (a site the user gave is theirs to confirm)."""
    found = set(categories)
    if "network" not in found or not found <= _LOOKUP_CATEGORIES:
        return False
    hosts = {host_of(m.group(1)).lower() for reason in reasons for m in [_ADDRESS.search(reason)] if m}
    if not hosts or not all(host and _public(host) for host in hosts):
        return False
    asked = request.lower()
    return not any(_named(host, asked) for host in hosts)
