"""Answers whose shape is not the one the user asked for: a list sorted the other way ("from the oldest to the
newest", sorted with ``reverse=True``), one item where the user asked for several ("the 3 top scorers",
answered with ``max()``), a word printed whole where the user asked to spell it, one line per row where the
user asked for a total, a date where the user asked for a day of the week, no rounding up or down where the
user asked for it. Read from the user's words (the translations' ``words.ascending``, ``descending``, ``top``,
``spell``, ``how_much``, ``weekday``, ``round_up``, ``round_down``, in the conversation's language and English)
and the block's code or output; a block with such a mismatch is asked again once (:func:`.repair.repair_request`).
All were misses of dev sets (``dx-libri-it``, ``dx-goleadores-es``, the seventh held-out set's spellings, rows,
weekdays and rounding).
"""

from __future__ import annotations

import ast
import difflib
import functools
import re
import unicodedata
from collections.abc import Callable, Collection
from typing import Literal

from babel.dates import get_day_names

from . import i18n
from .declines import widens
from .slips import handed_block, parsed, text_literals
from .units import measured

ORDER = "The user asked for {order}, and your code sorts the other way"
UNSORTED = "The user asked for the items in an order, and your code never sorts them"
TOP = "The user asked for the top {count}, and your code keeps only the one largest or smallest value"
SPELL = "The user asked to spell a word letter by letter, and your code printed it whole"
ROWS = "The question asks for one total, and your code printed the same sentence once per row"
SPELL_COPY = "The user's word is {word}, and your code spelled {spelled}"
REVERSE = "The user asked for {word!r} backwards ({reversed!r}), and your code did not print it"
ROUND = "The user asked to round {way}, and your code never does"
_ROUNDING = {  # what rounds up or down in code: "//" and divmod also in -(-a // b), (a + b - 1) // b, q + (r > 0)
    "up": {"ceil", "//", "divmod", "ROUND_UP", "ROUND_CEILING"},
    "down": {"floor", "int", "//", "divmod", "trunc", "ROUND_DOWN", "ROUND_FLOOR"},
}
WEEKDAY = "The question asks for a day of the week, and your code printed no weekday's name"
BELOW_ONE = "The question asks how many, and your code printed {number}, less than one"
_MONEY_BEFORE = re.compile(r"(?:[$€£]|\b(?:EUR|USD|GBP|CHF))\s*$")
COUNT_WORDS = "The user asked how many words, and your code counts the characters of {text!r}"
COUNT_LETTERS = "The user asked how many letters, and your code also counts the spaces and signs of {text!r}"
_MONEY_OR_SHARE = re.compile(
    r"\s*(?:%|[€$£]|(?:euros?|dollars?|dollari|pounds?|pence|cents?|céntimos?|centimes?|centesimi|franken|francs?|"
    r"EUR|USD|GBP|CHF|percent|prozent|pour cent|por ciento|per cento|procent)\b)",
    re.I,
)
MAX_ROWS = 50  # more lines than this are a listing, not rows a total forgot
_ORDER_WORDS = {
    "ascending": "the smallest, oldest, earliest or cheapest first (ascending)",
    "descending": "the largest, newest, latest or most expensive first (descending)",
}
_SORTS = frozenset({"sorted", "sort"})
_OTHER_ORDERS = frozenset({"reversed", "reverse", "nlargest", "nsmallest", "most_common", "sort_values", "argsort"})
_EXTREMES = frozenset({"max", "min", "idxmax", "idxmin", "argmax", "argmin"})
_ORDERING = frozenset({"sort_index", "heappush", "heappop", "heapify", "order_by", "bisect", "insort"})
_MANY = frozenset({"sorted", "sort", "nlargest", "nsmallest", "most_common", "sort_values", "head", "argsort"})
MAX_COUNT = 20  # "the 3 biggest" is a top; "the 50 ..." is not a list to say


def shape_request(text: str, code: str, output: str, language: str | None, told: Collection[str]) -> str | None:
    """The first repair request of :func:`order_request`, :func:`spell_request` and :func:`top_request` for a
    block (Python ``code``, "" for another language, and its ``output``) whose kind ("order", "spell", "top")
    is not in ``told`` (asked once per turn each), or None."""
    requests: tuple[tuple[str, Callable[[], str | None]], ...] = (
        ("order", lambda: order_request(text, code, language)),
        ("unsorted", lambda: unsorted_request(text, code, output, language)),
        ("spell", lambda: spell_request(text, output, language)),
        ("reverse", lambda: reverse_request(text, output, language)),
        ("top", lambda: top_request(text, code, language)),
        ("rows", lambda: rows_request(text, output, language)),
        ("weekday", lambda: weekday_request(text, output, language)),
        ("round", lambda: round_request(text, code, language, output)),
        ("below_one", lambda: below_one_request(text, output, language)),
        ("count", lambda: count_request(text, code, language)),
    )
    return next((message for kind, make in requests if kind not in told and (message := make())), None)


_KINDS = (
    (ORDER, "order"),
    (TOP, "top"),
    (UNSORTED, "unsorted"),
    (SPELL, "spell"),
    (SPELL_COPY, "spell"),
    (REVERSE, "reverse"),
    (WEEKDAY, "weekday"),
    (ROUND, "round"),
    (ROWS, "rows"),
    (BELOW_ONE, "below_one"),
    (COUNT_WORDS, "count"),
    (COUNT_LETTERS, "count"),
)


def shape_kind(message: str) -> str | None:
    """The kind of a repair request :func:`shape_request` made ("order", "spell", "count"...), or None for
    another message."""
    return next((kind for start, kind in _KINDS if message.startswith(start.split("{", 1)[0])), None)


def order_request(text: str, code: str, language: str | None) -> str | None:
    """The repair request for a Python block ``code`` that sorts in the order opposite to the one the user's
    ``text`` asks for, or None (no order asked, both asked, or the code's order is not plainly one way)."""
    asked = asked_order(text, language)
    if asked is None or code_order(code) not in _ORDER_WORDS.keys() - {asked}:
        return None
    how = "without reverse=True" if asked == "ascending" else "with reverse=True"
    return (
        ORDER.format(order=_ORDER_WORDS[asked])
        + f". Sort {how}, keep everything else your code does, and print the answer."
        " Write one corrected ```python block."
    )


def unsorted_request(text: str, code: str, output: str, language: str | None) -> str | None:
    """The repair request for a Python block ``code`` that printed (``output``) without sorting or picking by
    value (no ``sorted``, ``.sort``, ``max``, ``reversed``, ``most_common``...) where the user's ``text`` asks for
    an order (``words.ascending``, ``words.descending``, ``words.sort_asked``: "in alphabetical order", "in the
    order they come round in the year"), or None. "read out the birthdays ... in the order they come round in
    the year" printed the file's lines as they were (eighth held-out set, now a dev set)."""
    if not code or not output.strip() or (tree := parsed(code)) is None:
        return None
    folded = text.lower()
    keys = ("words.sort_asked", *(f"words.{key}" for key in _ORDER_WORDS))
    if not any(re.search(p, folded) for key in keys for p in i18n.patterns(language, key)):
        return None
    called = {n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "") for n in ast.walk(tree)
              if isinstance(n, ast.Call)}  # fmt: skip
    if called & (_SORTS | _OTHER_ORDERS | _EXTREMES | _ORDERING) or "[::-1]" in code or "order by" in code.lower():
        return None
    return (
        UNSORTED + ": sort them as asked (sorted(items, key=...): a name alphabetically, a number as a number, a"
        " date in the year by (month, day)) and print them in that order. Write one corrected ```python block."
    )


def top_request(text: str, code: str, language: str | None) -> str | None:
    """The repair request for a Python block ``code`` that keeps one extreme value (``max``, ``min``) where the
    user's ``text`` asks for several ("the 3 biggest"), or None."""
    count = asked_count(text, language)
    if count is None or not keeps_one(code):
        return None
    return (
        TOP.format(count=count)
        + f". Sort all of them by that value and print the first {count}, each with its value, in one sentence."
        " Write one corrected ```python block."
    )


def spell_request(text: str, output: str, language: str | None) -> str | None:
    """The repair request for a block whose ``output`` holds no word spelled out (three or more single letters
    in a row: "W e d n e s d a y", "W, E, D") where the user's ``text`` asks to spell one (``words.spell``:
    "spell", "buchstabiere", "lettre par lettre"), or None. ``print("Wednesday")`` answered "spell Wednesday
    letter by letter" (seventh held-out set, a dev set since)."""
    folded = text.lower()
    if not output.strip() or not any(re.search(p, folded) for p in i18n.patterns(language, "words.spell")):
        return None
    if spelled := re.search(r"(?<!\w)\w(?:[\s,;.\-–]+\w(?!\w)){2,}", output):
        return _misspelled("".join(re.findall(r"[^\W\d_]", spelled.group())), text)
    word = next(filter(None, (_asked_word(printed, text) for printed in re.findall(r"[^\W\d_]{4,}", output))), "word")
    return (
        SPELL + f". Print the word's letters one by one, separated by spaces: print(' '.join({word!r}))."
        " Write one corrected ```python block."
    )


_ORDERED = re.compile(r"\b(?:order|reihenfolge|ordre|orden|ordine|volgorde|list|liste|lista|lijst|elenco)\b", re.I)
"""A list or an order named: "in umgekehrter Reihenfolge", "read my list backwards" reverse no word."""
_QUOTED = re.compile(r"(?:[«\"“„]|(?<![^\W\d_])')([^\W\d_]{2,})(?:[»\"”“]|'(?![^\W\d_]))")  # not "d'aujourd'hui"


def reverse_request(text: str, output: str, language: str | None) -> str | None:
    """The repair request for a block whose ``output`` lacks the word the user's ``text`` asks for backwards
    (``words.reverse``: "backwards", "al revés", "rückwärts"; the word in quotes, or the one right after one of
    ``words.word_noun``, "the word", "la palabra", of four letters or more), letters alone compared, or None;
    none for a list or an order ("in reverse order", :data:`_ORDERED`). "¿Cómo se dice la palabra caramelo al
    revés?" was printed "melacón" twice (eighth held-out set, now a dev set): the request hands the one line
    that prints it."""
    folded = text.lower()
    reverse = i18n.patterns(language, "words.reverse")
    if not any(re.search(p, folded) for p in reverse) or asked_order(text, language) or _ORDERED.search(text):
        return None
    nouns = "|".join(i18n.patterns(language, "words.word_noun"))
    named = re.search(rf"(?:{nouns})\s+([^\W\d_]{{4,}})(?![\w'’])", text, re.IGNORECASE) if nouns else None
    if named and any(re.search(p, named.group(1).lower()) for p in reverse):
        named = None  # "das Wort rückwärts: Erdbeere"
    if (found := _QUOTED.search(text) or named) is None:
        return None
    word = found.group(1)
    letters = "".join(re.findall(r"[^\W\d_]", output)).lower()
    if word[::-1].lower() in letters:
        return None
    return REVERSE.format(word=word, reversed=word[::-1]) + f". Run this block:\n```python\nprint({word!r}[::-1])\n```"


def _asked_word(printed: str, text: str) -> str | None:
    """The word of the user's ``text`` that ``printed`` is, or nearly is ("Épémère" printed for "éphémère": the
    request then names the user's word, not the model's copy of it), or None."""
    asked = {word.lower(): word for word in re.findall(r"[^\W\d_]{4,}", text)}
    close = difflib.get_close_matches(printed.lower(), list(asked), n=1, cutoff=0.75)
    return asked[close[0]] if close else None


def _misspelled(spelled: str, text: str) -> str | None:
    """The repair request for letters that spell no word of the user's ``text`` but nearly one ("é p é m è r e"
    for "éphémère": the model copied the word wrong, seventh held-out set), or None."""
    word = _asked_word(spelled, text) if spelled else None
    if word is None or word.lower() == spelled.lower():
        return None
    if len(spelled) > len(word):  # "houses" for "the plural of house", "necessary" for "necesary": a changed form
        return None
    return (
        SPELL_COPY.format(word=word, spelled=spelled) + f": print(' '.join({word!r})). Write one corrected"
        " ```python block."
    )


def round_request(text: str, code: str, language: str | None, output: str = "") -> str | None:
    """The repair request for a Python block (``code``; "" for another language) with no ceiling where the
    user's ``text`` asks to round up (``words.round_up``: "aufrunden", "arrondir au supérieur"), or no floor,
    ``int()`` or ``//`` where it asks to round down (``words.round_down``), or no rounding at all and a number
    with decimals in its ``output`` where it asks how many whole ones (``words.whole_count``: "hoeveel hele
    banen", 4,17 said; a floor for the ones got out of something, a ceiling for the ones needed), or None.
    "Auf den nächsten vollen Euro aufrunden" was coded ``27.40 * 1.1 + 0.5`` (seventh held-out set, a dev set)."""
    if not code:
        return None
    folded = text.lower()
    for way, rounds in _ROUNDING.items():
        asked = any(re.search(p, folded) for p in i18n.patterns(language, f"words.round_{way}"))
        if asked and not rounds & _roundings(code):
            call = "math.ceil(x)" if way == "up" else "math.floor(x)"
            return ROUND.format(way=way) + f": use {call}. Write one corrected ```python block that prints the answer."
    whole = any(re.search(p, folded) for p in i18n.patterns(language, "words.whole_count"))
    decimals = re.search(r"(?<![\w.,])\d+[.,]\d+(?![\w.,]\d)", output)  # "full moons" counted are whole already
    if whole and decimals and not (_ROUNDING["up"] | _ROUNDING["down"] | {"round"}) & _roundings(code):
        return (
            ROUND.format(way="to whole ones") + ": use math.floor(x) for the whole ones you get out of something,"
            " math.ceil(x) for the whole ones you need. Write one corrected ```python block that prints the"
            " answer."
        )
    return None


def _roundings(code: str) -> set[str]:
    """The names of the functions ``code`` calls (``math.ceil``: "ceil") and "//" if it floor-divides; all of
    both ways' when it does not parse (no request for a block the gate already judged)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {"ceil", "floor"}
    found = {name for node in ast.walk(tree) if isinstance(node, ast.Call) and (name := _called(node))}
    found |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}  # decimal.ROUND_UP
    found |= {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    if any(isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv) for node in ast.walk(tree)):
        found.add("//")
    return found


def weekday_request(text: str, output: str, language: str | None) -> str | None:
    """The repair request for a block whose ``output`` names no day of the week (Babel's names in o1's
    languages) where the user's ``text`` asks for one (``words.weekday``: "what day
    of the week", "il tombera quel jour", "welcher Wochentag"), or None. The model printed "18/05" for "Mon
    anniversaire, c'est le dix-huit mai. En 2033, il tombera quel jour ?" (seventh held-out set, a dev set since)."""
    folded = text.lower()
    if not output.strip() or not any(re.search(p, folded) for p in i18n.patterns(language, "words.weekday")):
        return None
    printed = set(re.findall(r"[^\W\d_]+", _plain(output.lower())))
    if printed & _weekdays(i18n.normalize(language)):
        return None
    return (
        WEEKDAY + ". Print the weekday's name in the user's language (from a list of the seven names, indexed"
        " by the_date.weekday()), with the date if you print one. Write one corrected ```python block."
    )


@functools.cache
def _weekdays(language: str) -> frozenset[str]:
    """The days of the week's names, lower case: wide in every language o1 speaks (a name in another language
    than the conversation's is the language check's business), and English's short ones in an English
    conversation only. Other languages' short names are common words ("mon" is French for "my", German "so",
    Dutch "zo", Italian "mar"): with them, "mon anniversaire sera le 18/05" named a weekday."""
    names: set[str] = {"sonnabend"}  # German, not in Babel's list
    for locale in i18n.LANGUAGES:
        widths: tuple[Literal["wide", "abbreviated"], ...] = (
            ("wide", "abbreviated") if locale == language == i18n.DEFAULT else ("wide",)
        )
        for width in widths:
            names.update(_plain(str(name).lower()).rstrip(".") for name in get_day_names(width, locale=locale).values())
    if language == i18n.DEFAULT:
        names.update(("tues", "weds", "thur", "thurs"))  # English short forms Babel does not list
    return frozenset(names)


def _plain(text: str) -> str:
    """``text`` without its accents ("giovedì" and "giovedi" are one name)."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def below_one_request(text: str, output: str, language: str | None) -> str | None:
    """The repair request for a block whose ``output`` holds a number between 0 and 1 that the user's ``text``
    (as the model read it) does not, where the text asks for a count (``words.count_of``: "how many", "wie
    viele", "combien de") that is no conversion (a number and a unit after the question: "how many hours is 30
    minutes", the translations' ``units`` and ``words.time_units``) and no rate (``words.rate``: "per cookie",
    "each"), or None. Money and percents may be below one. On the dev sets every such answer was wrong: a ratio
    the wrong way round ("how many days does a bag last": 0.025) or a unit factor misused (14000 steps
    "0.000439 miles", 40 acres "0,64 hectáreas")."""
    low = text.lower()
    asked = [m for p in i18n.patterns(language, "words.count_of") if (m := re.search(p, low))]
    if not asked:
        return None
    question = re.split(r"[.?!;]", low[min(m.start() for m in asked) :], maxsplit=1)[0]
    if any(re.search(p, question) for p in i18n.patterns(language, "words.rate")) or _converts(question, language):
        return None
    given = {float(n.replace(",", ".")) for n in re.findall(r"\d+(?:[.,]\d+)?", text)}
    for match in re.finditer(r"(?<![\w.,\-−])(\d+(?:[.,]\d+)?(?:[eE]-\d+)?)(?![\w.,]\d)", output):  # 2.5e-02
        number = float(match.group(1).replace(",", "."))
        money = _MONEY_BEFORE.search(output[: match.start()]) or _MONEY_OR_SHARE.match(output, match.end())
        if 0 < number < 1 and number not in given and not money:
            return (
                BELOW_ONE.format(number=match.group(1)) + ": check that each division is the right way round (a"
                " total divided by the amount per day, per item or per step) and each unit factor (multiply to go"
                " to a smaller unit, divide to go to a larger one). Write one corrected ```python block that prints"
                " the answer."
            )
    return None


def _converts(question: str, language: str | None) -> bool:
    """Whether a count question ("how many hours is 30 minutes", "how many miles is one kilometer") gives an
    amount with a unit to convert (the translations' ``units`` and ``words.time_units``)."""
    times = "|".join(i18n.patterns(language, "words.time_units"))
    amount = rf"(?:\d+(?:[.,]\d+)?|{'|'.join(sorted(i18n.words(language, 'words.one') or ('one',)))})\s+"
    return bool(re.search(rf"{amount}(?:{times})\b", question, re.IGNORECASE)) or measured(question, language, amount)


def count_request(text: str, code: str, language: str | None) -> str | None:
    """The repair request, with the block corrected (:func:`.slips.handed_block`), for Python ``code`` that
    takes ``len()`` of a text (a literal, or a name bound to one) where the user's ``text`` asks how many words
    (``words.count_words``: the count of its ``split()``) or letters (``words.count_letters``: its letters
    only), or None. "¿Cuántas palabras tiene la frase ...?" was answered with the characters of the text, 93."""
    folded = text.lower()
    words = any(re.search(p, folded) for p in i18n.patterns(language, "words.count_words"))
    letters = not words and any(re.search(p, folded) for p in i18n.patterns(language, "words.count_letters"))
    if not (words or letters) or not code or re.search(r"split|findall|isalpha|isalnum|re\.sub|replace", code):
        return None
    if (tree := parsed(code)) is None:
        return None
    texts = text_literals(tree)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len"):
            continue
        if len(node.args) != 1 or node.keywords:
            continue
        arg = node.args[0]
        said = arg.value if isinstance(arg, ast.Constant) else texts.get(getattr(arg, "id", ""))
        if not isinstance(said, str) or not re.search(r"[^\w]", said.strip()):
            continue  # one word: its characters are its letters, and it is one word
        if words:
            node.args = [ast.Call(ast.Attribute(arg, "split", ast.Load()), [], [])]
            return COUNT_WORDS.format(text=said) + ": count the words of its split()." + handed_block(tree)
        node.func.id = "sum"
        letter = ast.Call(ast.Attribute(ast.Name("c", ast.Load()), "isalpha", ast.Load()), [], [])
        node.args = [ast.GeneratorExp(letter, [ast.comprehension(ast.Name("c", ast.Store()), arg, [], 0)])]
        return COUNT_LETTERS.format(text=said) + ": count only its letters." + handed_block(tree)
    return None


def rows_request(text: str, output: str, language: str | None) -> str | None:
    """The repair request for a block whose ``output`` is one sentence printed once per row, its numbers aside
    ("Jonas hat 42 km im Mai gefahren." twice), where the user's ``text`` asks how much or how many
    (``words.how_much``, ``words.how_many``) and not about each one (``words.widening``), or None."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    if not 2 <= len(lines) <= MAX_ROWS:
        return None
    shapes = {re.sub(r"\d+(?:[.,]\d+)*", "#", line) for line in lines}
    if len(shapes) != 1 or "#" not in next(iter(shapes)):
        return None
    folded = text.lower()
    keys = ("words.how_much", "words.how_many")
    asked = any(re.search(p, folded) for key in keys for p in i18n.patterns(language, key))
    if not asked or widens(text, i18n.normalize(language)):
        return None
    return (
        ROWS + f" ({len(lines)} lines). Add the rows' values up (or count the rows) and print one sentence with the"
        " total. Write one corrected ```python block."
    )


def asked_order(text: str, language: str | None) -> str | None:
    """The order the user's ``text`` asks for, "ascending" or "descending", when it asks for one only; else
    None."""
    folded = text.lower()
    found = {key for key in _ORDER_WORDS if any(re.search(p, folded) for p in i18n.patterns(language, f"words.{key}"))}
    return found.pop() if len(found) == 1 else None


def asked_count(text: str, language: str | None) -> int | None:
    """How many items the user's ``text`` asks for the most of ("the 3 biggest files": 3), from 2 to
    :data:`MAX_COUNT`; None when it asks for no such number (number words are digits already: i18n.digits)."""
    lang = i18n.normalize(language)
    for pattern in i18n.patterns(language, "words.top"):
        for match in re.finditer(pattern, text.lower()):
            said = i18n.cardinal(match.group("n"), lang) or i18n.cardinal(match.group("n"), i18n.DEFAULT)
            if said is not None and 2 <= int(said) <= MAX_COUNT:  # "two": text2num keeps it a word in a text
                return int(said)
    return None


def code_order(code: str) -> str | None:
    """The order every sort of ``code`` sorts in, "ascending" or "descending" (``sorted``, ``.sort``, by their
    ``reverse`` argument; a key that starts with a minus flips it); None when it has no sort, sorts both ways, or
    orders in another way too (``reversed``, ``[::-1]``, ``most_common``...) or does not parse."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return None
    orders: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Slice) and node.step is not None:
            return None
        if not isinstance(node, ast.Call):
            continue
        name = _called(node)
        if name in _OTHER_ORDERS:
            return None
        if name in _SORTS:
            order = _sort_order(node)
            if order is None:
                return None
            orders.add(order)
    return orders.pop() if len(orders) == 1 else None


def keeps_one(code: str) -> bool:
    """Whether ``code`` finds an extreme value (``max``, ``min``, ``idxmax``) and never sorts, ranks or slices:
    it can only name one item."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return False
    called = {_called(n) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    sliced = any(isinstance(n, ast.Slice) for n in ast.walk(tree))
    return bool(called & _EXTREMES) and not (called & _MANY) and not sliced


def _sort_order(call: ast.Call) -> str | None:
    """The order of one ``sorted``/``.sort`` call; None when its ``reverse`` is not a literal."""
    descending = False
    for keyword in call.keywords:
        if keyword.arg == "reverse":
            if not isinstance(keyword.value, ast.Constant):
                return None
            descending = bool(keyword.value.value)
        elif keyword.arg == "key" and isinstance(keyword.value, ast.Lambda):
            body = keyword.value.body
            if isinstance(body, ast.UnaryOp) and isinstance(body.op, ast.USub):
                descending = not descending
        elif keyword.arg is None:
            return None
    return "descending" if descending else "ascending"


def _called(call: ast.Call) -> str | None:
    """The plain name a call calls (``sorted``; ``sort`` of ``rows.sort``), or None."""
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
