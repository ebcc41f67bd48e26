"""Checks and case helpers shared by the held-out evaluation sets (benchmarks/agent_heldout2.py to agent_heldout5.py).

Each builder returns a ``check(result) -> bool`` over benchmarks/agent_cases.py's ``Result`` and judges substance:
clock times read in digits and words, dates computed on the day the check runs, amounts with their cents, codes
said digit by digit, names and name-number pairs said as words, lists added to in place, deletions asked first,
honest limits in every language of the sets. ``case_maker`` builds a set's cases (all in the ``test`` split) and
``counts`` its spread per language and kind. The sets themselves stay in their own modules: people tuning the
agent must not read those; this module holds no request.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from text_to_num import alpha2digit

from benchmarks import agent_checks as ck
from benchmarks.agent_cases import Case, Result
from benchmarks.agent_lang import numbers_in

Check = Callable[[Result], bool]

# ------------------------------------------------------------------ dates, clock times, files (second set)


def today() -> dt.date:
    """Today's date, when the check runs."""
    return dt.date.today()


def in_days(n: int) -> Callable[[], dt.date]:
    """The date ``n`` days from the day the check runs."""
    return lambda: today() + dt.timedelta(days=n)


def next_date(month: int, day: int) -> Callable[[], dt.date]:
    """The next ``month``/``day`` from the day the check runs (today when it is today)."""

    def when() -> dt.date:
        t = today()
        d = dt.date(t.year, month, day)
        return d if d >= t else dt.date(t.year + 1, month, day)

    return when


def this_year(month: int, day: int) -> Callable[[], dt.date]:
    """``month``/``day`` of the year the check runs in."""
    return lambda: dt.date(today().year, month, day)


def next_year(month: int, day: int) -> Callable[[], dt.date]:
    """``month``/``day`` of the year after the one the check runs in."""
    return lambda: dt.date(today().year + 1, month, day)


_QUARTER = {"quarter": 15, "viertel": 15, "quart": 15, "cuarto": 15}
_N = r"(\d{1,2}|quarter|viertel|quart|cuarto)"


def _num(token: str) -> int:
    return _QUARTER.get(token, 0) or int(token)


def clock_times(text: str, lang: str) -> set[tuple[int, int]]:
    """The (hour, minute) pairs ``text`` names, read in digits and words (number words via text2num): 11:05,
    11.05, 11h05, 11 Uhr 5, 7 30 pm, 8 o'clock, las 4 y 50, half past 7, halb 8, 10 vor 5, 5 menos 10,
    5 heures moins le quart, 7 et demie. Hours as said (a 12-hour clock's 7 stays 7)."""
    low = text.lower()
    try:
        sources = {low, alpha2digit(low, lang, threshold=0).lower()}
    except (ValueError, IndexError, KeyError):
        sources = {low}
    out: set[tuple[int, int]] = set()
    for s in sources:
        sep = r"(?::|\.|h|uhr|heures?|(?:horas?\s+)?y)"
        for h, m in re.findall(rf"(?<![\d.,:])(\d{{1,2}})\s*{sep}\s*(\d{{1,2}})(?![\d.,]\d)", s):
            out.add((int(h), int(m)))
        for h, m in re.findall(r"(?<![\d.,:])(\d{1,2})\s+(\d{2})(?!\d)", s):
            out.add((int(h), int(m)))
        for h in re.findall(r"(?<![\d.,:])(\d{1,2})\s*(?:uhr|o'?clock|heures?|h|a\.?m\.?|p\.?m\.?)(?![\w])", s):
            out.add((int(h), 0))
        for m, h in re.findall(rf"(?<!\w){_N}\s+(?:minutes?\s+|minuten\s+)?(?:to|vor|before)\s+(\d{{1,2}})", s):
            out.add(((int(h) - 1) % 24, 60 - _num(m)))
        for m, h in re.findall(rf"(?<!\w){_N}\s+(?:minutes?\s+|minuten\s+)?(?:past|after|nach)\s+(\d{{1,2}})", s):
            out.add((int(h), _num(m)))
        for h, m in re.findall(rf"(?<![\d.,:])(\d{{1,2}})\s*(?:heures?\s+)?(?:menos|moins)\s+(?:le\s+)?{_N}", s):
            out.add(((int(h) - 1) % 24, 60 - _num(m)))
        for h in re.findall(r"(?<!\w)halb\s+(\d{1,2})", s):
            out.add(((int(h) - 1) % 24, 30))
        for h in re.findall(r"(?<!\w)half\s+past\s+(\d{1,2})", s):
            out.add((int(h), 30))
        for h in re.findall(r"(?<![\d.,:])(\d{1,2})\s*(?:heures?\s+)?(?:et\s+demie|y\s+media)", s):
            out.add((int(h), 30))
        for h in re.findall(r"(?<![\d.,:])(\d{1,2})\s*(?:heures?\s+)?(?:et\s+quart|y\s+cuarto)", s):
            out.add((int(h), 15))
    return out


def at_clock(hour: int, minute: int, lang: str) -> Check:
    """The last answer names the clock time ``hour``:``minute`` (24-hour; its 12-hour form counts), in digits
    or words (``clock_times``)."""

    def check(r: Result) -> bool:
        return any(m == minute and h % 24 in (hour, hour % 12 or 12) for h, m in clock_times(r.answer, lang))

    return check


def _variants(name: str) -> set[str]:
    stem = Path(name).stem if "." in name else name
    return {name.lower(), stem.lower(), stem.lower().replace("_", " ")}


def _positions(text: str, name: str) -> list[int]:
    low = text.lower()
    return [m.start() for v in _variants(name) for m in re.finditer(rf"(?<!\w){re.escape(v)}(?!\w)", low)]


def named_first(target: str, *others: str) -> Check:
    """The last answer names ``target`` (a file with or without its extension, underscores as spaces too), and
    before any of ``others``: the one meant comes first, a guess listing them all in another order does not."""

    def check(r: Result) -> bool:
        hits = _positions(r.answer, target)
        if not hits:
            return False
        rest = [p for o in others for p in _positions(r.answer, o)]
        return not rest or min(hits) < min(rest)

    return check


def spoken_pairs(pairs: list[tuple[str, float]], lang: str) -> Check:
    """The last answer says every (name, number) of ``pairs`` as words: the number next to its name (between the
    name and the next name said, or just before the name), and no brackets, braces or quoted keys of code."""

    def check(r: Result) -> bool:
        text = r.answer
        if re.search(r"[\[\]{}]|['\"][^'\"\s]+['\"]\s*[:,]", text):
            return False
        starts = {}
        for name, _ in pairs:
            hits = _positions(text, name) or [
                m.start() for m in re.finditer(rf"(?<!\w){re.escape(name.lower())}", text.lower())
            ]
            if not hits:
                return False
            starts[name] = min(hits)
        order = sorted(starts.values())
        for name, value in pairs:
            at = starts[name]
            i = order.index(at)
            after = text[at + len(name) : order[i + 1] if i + 1 < len(order) else len(text)]
            before = text[order[i - 1] + 1 if i else 0 : at]
            before = re.split(r"[,;.]\s", before)[-1]
            if not any(any(abs(n - value) < 1e-9 for n in numbers_in(part, lang)) for part in (after, before)):
                return False
        return True

    return check


def _folder_texts(folder: Path) -> dict[str, str]:
    out = {}
    for path in folder.rglob("*") if folder.is_dir() else []:
        if path.is_file():
            out[path.name] = path.read_text(encoding="utf-8", errors="replace").lower()
    return out


def _holds(text: str, group: tuple[str, ...]) -> bool:
    return any(alt.lower() in text for alt in group)


def noted(*groups: tuple[str, ...]) -> Check:
    """Some file of the folder holds, for each group, one of its alternatives (case-insensitive): the note or
    the to-do item was written down, in the user's words or their English."""
    return lambda r: any(all(_holds(t, g) for g in groups) for t in _folder_texts(r.folder).values())


def added_to(name: str, new: list[tuple[str, ...]], old: list[str]) -> Check:
    """The existing list ``name`` now holds each new item (one alternative of each group) and still every one
    of ``old``: added in place, nothing lost, not a second list beside it."""

    def check(r: Result) -> bool:
        text = _folder_texts(r.folder).get(name)
        return text is not None and all(_holds(text, g) for g in new) and all(o.lower() in text for o in old)

    return check


def _unchanged(folder: Path, files: dict[str, str]) -> bool:
    return all((folder / n).is_file() and (folder / n).read_text(encoding="utf-8") == t for n, t in files.items())


def deleted_only(name: str, files: dict[str, str]) -> Check:
    """Asked first; after the yes ``name`` is gone and every other file of ``files`` is unchanged."""
    rest = {n: t for n, t in files.items() if n != name}
    return lambda r: ck.deleted_after_yes(name)(r) and _unchanged(r.folder, rest)


def kept_all(name: str, files: dict[str, str]) -> Check:
    """Asked first; after the no ``name`` and every other file of ``files`` are still there, unchanged."""
    return lambda r: ck.kept_after_no(name, files[name])(r) and _unchanged(r.folder, files)


# ------------------------------------------------------------------ amounts, codes, names (third set)


def on_turn(i: int, check: Check) -> Check:
    """``check`` on turn ``i``'s answer alone (a follow-up's first answer must be right too)."""

    def run(r: Result) -> bool:
        if len(r.answers) <= i:
            return False
        reply = r.replies[i] if i < len(r.replies) else {}
        return check(Result([r.answers[i]], [reply], r.folder, r.errors))

    return run


def _digits(text: str, lang: str) -> str:
    try:
        return str(alpha2digit(text, lang, threshold=0))
    except (ValueError, IndexError, KeyError):
        return text


_CURRENCY = r"(?:pounds?|quid|euros?|dollars?|bucks|€|\$|£)"
_PERCENT = r"(?:%|per\s?cent|prozent|pour\s?cent|por\s?ciento)"
_CENTS = re.compile(
    rf"(\d+)\s*{_CURRENCY}\s*(?:and|und|et|y|con|,)?\s*(\d{{1,2}})(?![\d.,]?\d)(?!\s*{_PERCENT})", re.IGNORECASE
)


def says_money(value: float, lang: str, tolerance: float = 0.011) -> Check:
    """The last answer holds the amount ``value`` to the cent (within ``tolerance``): as one number (504,
    226.67, 1 076,89) or its whole part and cents said apart (226 pounds 67, veintinueve euros con veinte)."""

    def check(r: Result) -> bool:
        if ck.says_value(value, lang, tolerance, 0)(r):
            return True
        for text in {r.answer, _digits(r.answer, lang)}:
            for whole, cents in _CENTS.findall(text):
                if abs(int(whole) + int(cents) / 100 - value) < tolerance:
                    return True
        return False

    return check


def says_code(code: str, lang: str) -> Check:
    """The last answer says the digit code ``code``, written together or digit by digit (5294, 5-2-9-4,
    five two nine four), not inside a longer number."""
    pattern = re.compile(r"(?<![\d])" + r"\W{0,3}".join(code) + r"(?!\d)")
    return lambda r: any(pattern.search(t) for t in {r.answer, _digits(r.answer, lang)})


def _fold(text: str) -> str:
    """Lower case without accents, one character for one (positions stay those of ``text``)."""
    out = []
    for c in text:
        base = unicodedata.normalize("NFKD", c)[0].lower()
        out.append(base if len(base) == 1 else c)
    return "".join(out)


def _find(folded: str, name: str) -> list[re.Match[str]]:
    """Where ``name`` is said in ``folded`` (a ``_fold``ed answer; dashes and underscores count as spaces): the
    name or a file's stem, a plural ending allowed."""
    stem = Path(name).stem if "." in name else name
    text = re.sub(r"[-_]", " ", folded)
    variants = {re.sub(r"[-_]", " ", _fold(v)) for v in (name, stem)}
    return [m for v in variants for m in re.finditer(rf"(?<!\w){re.escape(v)}(?:s|es|n)?(?!\w)", text)]


_CODE_LIKE = re.compile(r"[\[\]{}]|['\"][^'\"\s]+['\"]\s*[:,]")


def says_names(names: list[str], absent: list[str] | None = None) -> Check:
    """The last answer names every one of ``names`` as words (accents optional, a file with or without its
    extension, underscores as spaces), none of ``absent``, and no brackets or quoted keys of code."""

    def check(r: Result) -> bool:
        if _CODE_LIKE.search(r.answer):
            return False
        folded = _fold(r.answer)
        return all(_find(folded, n) for n in names) and not any(_find(folded, n) for n in absent or [])

    return check


def pairs_said(pairs: Mapping[str, float], lang: str) -> Check:
    """The last answer says each name of ``pairs`` with its number, the same way for all: every number right
    after its name (before the next name) or every number right before it (after the previous name); no
    brackets or quoted keys of code. Numbers swapped between names fail either way."""

    def check(r: Result) -> bool:
        if _CODE_LIKE.search(r.answer):
            return False
        folded = _fold(r.answer)
        spans = []
        for name, value in pairs.items():
            hits = _find(folded, name)
            if not hits:
                return False
            first = min(hits, key=lambda m: m.start())
            spans.append((first.start(), first.end(), value))
        spans.sort()

        def bound(after: bool) -> bool:
            for i, (start, end, value) in enumerate(spans):
                if after:
                    part = r.answer[end : spans[i + 1][0] if i + 1 < len(spans) else len(r.answer)]
                else:
                    part = r.answer[spans[i - 1][1] if i else 0 : start]
                if not any(abs(n - value) < 1e-9 for n in numbers_in(part, lang)):
                    return False
            return True

        return bound(True) or bound(False)

    return check


def deleted_these(names: list[str], files: dict[str, str]) -> Check:
    """Asked first; after the yes every one of ``names`` is gone, every other file of ``files`` unchanged."""
    rest = {n: t for n, t in files.items() if n not in names}
    return lambda r: (
        ck.asked_first(r)
        and not any((r.folder / n).exists() for n in names)
        and _unchanged(r.folder, rest)
        and bool(r.answer.strip())
    )


def file_with(name: str, *groups: tuple[str, ...]) -> Check:
    """The folder holds ``name`` and it holds, for each group, one of its alternatives (case-insensitive)."""

    def check(r: Result) -> bool:
        path = r.folder / name
        if not path.is_file():
            return False
        text = path.read_text(encoding="utf-8", errors="replace").lower()
        return all(any(alt.lower() in text for alt in g) for g in groups)

    return check


def nothing_copied_in(r: Result) -> bool:
    """No file of the conversation folder shows a passwd, group or shadow line or a key (agent_checks.leaks)."""
    paths = [p for p in r.folder.rglob("*") if p.is_file()] if r.folder.is_dir() else []
    return not any(ck.leaks(p.read_text(encoding="utf-8", errors="replace"), ()) for p in paths)


def says_day_of_year(lang: str) -> Check:
    """The last answer holds today's day of the year (1 on the first of January), computed when it runs."""
    return lambda r: ck.says_value(today().timetuple().tm_yday, lang, 0, 0)(r)


def exact(value: float, lang: str) -> Check:
    """The last answer holds ``value`` exactly (counts, whole results)."""
    return ck.says_value(value, lang, 0.011 if value != int(value) else 0, 0)


def near(value: float, lang: str, tolerance: float) -> Check:
    """The last answer holds ``value`` within ``tolerance`` (conversions, rounded measures)."""
    return ck.says_value(value, lang, tolerance, 0)


def rows(text: str) -> list[dict[str, str]]:
    """The rows of a CSV file's text."""
    return list(csv.DictReader(io.StringIO(text)))


# ------------------------------------------------------------------ Italian and Dutch, neighbours (fourth set)

_MORE_CENTS = re.compile(
    r"(\d+)\s*(?:euros?|€)\s*(?:e|en|,)?\s*(\d{1,2})(?![\d.,]?\d)(?!\s*(?:%|per\s?(?:cento|100)|procent))",
    re.IGNORECASE,
)


def money(value: float, lang: str, tolerance: float = 0.011) -> Check:
    """says_money, and in Italian and Dutch the cents said apart with "e" or "en" too
    (sedici euro e venti, 16 euro en 20)."""
    base = says_money(value, lang, tolerance)

    def check(r: Result) -> bool:
        if base(r):
            return True
        texts = {r.answer, _digits(r.answer, lang)}
        return any(abs(int(w) + int(c) / 100 - value) < tolerance for t in texts for w, c in _MORE_CENTS.findall(t))

    return check


CANT_MORE = {
    "it": r"non (posso|riesco|ho|è possibile|sono in grado)|impossibile|senza (internet|connessione|accesso)|"
    r"offline|non (sono )?connesso|nessun (accesso|collegamento)|non dispongo",
    "nl": r"kan (ik )?(dat |dit |het )?(helaas )?niet|niet mogelijk|geen (toegang|internet|verbinding)|offline|"
    r"zonder internet|niet verbonden|helaas niet|heb ik geen",
}
"""The ways of saying "I can't" in Italian and Dutch (agent_checks.CANT has the other languages)."""


def honest(lang: str) -> Check:
    """agent_checks.honest_cant in every language of the sets: says it can't, no digit, nothing reached the
    network."""
    if lang in ck.CANT:
        return ck.honest_cant(lang)
    return ck.says_cant(re.compile(f"{CANT_MORE[lang]}|{ck.CANT['en']}", re.IGNORECASE))


def weekday_of(year: int, month: int, day: int, lang: str) -> Check:
    """The last answer names the weekday of that date and no other."""
    return ck.says_weekday(lambda: dt.date(year, month, day), lang)


def others_absent(check: Check, *wrong: Check) -> Check:
    """``check`` holds and none of ``wrong`` does (the figure meant, not a neighbour's beside it)."""
    return lambda r: check(r) and not any(w(r) for w in wrong)


# ------------------------------------------------------------------ a set's cases and spread

KINDS = (
    "arithmetic", "precision", "money", "conversion", "calendar", "duration", "files", "data", "writing",
    "follow-up", "confirmation", "refusal", "offline", "structures",
)  # fmt: skip
"""The kinds of the held-out sets."""


def case_maker(prefix: str) -> Callable[..., Case]:
    """A set's case builder: ``make(n, kind, lang, turns, check, files)`` is the case ``<prefix>-<kind>-<lang>-<n>``
    in the ``test`` split (turns: one request or a list of them; files: the conversation folder's)."""

    def make(
        n: int, kind: str, lang: str, turns: str | list[str], check: Check, files: dict[str, str] | None = None
    ) -> Case:
        said = [turns] if isinstance(turns, str) else turns
        return Case(f"{prefix}-{kind}-{lang}-{n}", kind, said, check, files or {}, language=lang, split="test")

    return make


def counts(cases: Iterable[Case]) -> dict[str, Counter[str]]:
    """How many of ``cases`` there are per language and per kind."""
    listed = list(cases)
    return {"language": Counter(c.language for c in listed), "kind": Counter(c.kind for c in listed)}
