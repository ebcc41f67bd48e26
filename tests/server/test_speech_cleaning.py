"""Answers for the ear: property tests over the whole class of LLM replies and program outputs.

Each property is one rule of speech cleaning (docs/server.md, the "Speech cleaning" section), checked on text
hypothesis builds from words joined by every kind of markup a model writes (markdown, HTML, JSON, tool calls, code
fences), plus the examples that were seen going wrong.
"""

from __future__ import annotations

import pytest

import json
import re

from hypothesis import given, settings, strategies as st

from o1_server.agent.speech_cleaning import (
    AnswerStream,
    describe_changes,
    plain,
    round_for_speech,
    speakable,
)

WORD = st.from_regex(r"[A-Za-z][a-z]{1,8}", fullmatch=True)
NUMBER_WORD = st.integers(0, 10_000).map(str)
WORDS = st.lists(st.one_of(WORD, NUMBER_WORD), min_size=1, max_size=6).map(" ".join)

# Markup that wraps a phrase inline, and markup that starts a line.
INLINE = [
    "**{}**", "__{}__", "*{}*", "_{}_", "`{}`", "[{}](https://example.com/x_y)", "<b>{}</b>", "<span class=\"a\">{}</span>",
    "***{}***", "**_{}_**", "<em>{}</em>", "![{}](pic.png)",
]
LINE = ["# {}", "## {}", "### {}", "- {}", "* {}", "+ {}", "> {}", "1. {}", "2) {}", "- [ ] {}", "| {} | x |", "{}"]


@st.composite
def markdown_reply(draw) -> tuple[str, list[str]]:
    """A reply in markdown and the words it holds (that must all be said, none glued)."""
    lines, words = [], []
    for _ in range(draw(st.integers(1, 5))):
        parts = []
        for _ in range(draw(st.integers(1, 3))):
            phrase = draw(WORDS)
            words += phrase.split()
            parts.append(draw(st.sampled_from(INLINE + ["{}"])).format(phrase))
        glue = draw(st.sampled_from([" ", "<br>", " <br/> ", ", "]))
        lines.append(draw(st.sampled_from(LINE)).format(glue.join(parts)))
        if draw(st.booleans()):
            lines.append(draw(st.sampled_from(["", "---", "|---|---|", "```python\nprint('hidden_code')\n```"])))
    return "\n".join(lines), words


MARKUP_LEFT = re.compile(r"\*\*|__|~~|```|</?[a-z]+[ >/]|\]\(|^#|\|")


@settings(max_examples=300, deadline=None)
@given(markdown_reply())
def test_markdown_becomes_plain_speech_with_every_word_kept_and_none_glued(reply: tuple[str, list[str]]) -> None:
    text, words = reply
    said = plain(text)
    assert not MARKUP_LEFT.search(said), (text, said)
    assert "hidden_code" not in said and "print" not in said
    spoken = re.findall(r"[A-Za-z0-9]+", said)
    # Every word of the reply is said as a word of its own: nothing dropped, nothing glued to a neighbour.
    for word in words:
        assert word in spoken, (word, text, said)


@given(st.integers(-10_000, 10_000), st.integers(-10_000, 10_000), st.sampled_from(["*", "+", "-", "/", "x"]))
def test_arithmetic_is_never_taken_for_markup(a: int, b: int, op: str) -> None:
    text = f"{a} {op} {b} = {a * b}"
    assert plain(text) == text
    assert plain(f"So {a} * {b} * 2 is the answer.") == f"So {a} * {b} * 2 is the answer."


@given(st.lists(WORDS, min_size=2, max_size=3))
def test_numbered_lists_keep_their_numbers_in_order(items: list[str]) -> None:
    said = speakable("\n".join(f"{i}. {item}" for i, item in enumerate(items, 1)), max_sentences=10)
    positions = [m.start() if (m := re.search(rf"(?<![\w.]){i}\. ", said)) else -1 for i in range(1, len(items) + 1)]
    assert all(p >= 0 for p in positions) and positions == sorted(positions), said
    for item in items:
        assert item in said


@given(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False, allow_subnormal=False))
def test_long_floats_are_shortened_and_stay_close(x: float) -> None:
    # Digits the code chose (up to 4 decimals) are kept exactly: test_spoken_values.py. Longer ones are shortened
    # to at least 2 decimals and 3 significant digits, never further.
    said = speakable(f"The result is {x!r}")
    if "times 10 to the power of" in said:  # very small or very big: said as a power of ten
        mantissa, exponent = re.fullmatch(r"The result is (-?[\d.]+) times 10 to the power of (-?\d+)", said).groups()
        assert abs(float(mantissa) * 10.0 ** int(exponent) - x) <= abs(x) * 0.005
        return
    [number] = re.findall(r"-?\d[\d,]*(?:\.\d+)?", said)
    value = float(number.replace(",", ""))
    decimals = number.split(".")[1] if "." in number else ""
    assert "e" not in number and (len(decimals) <= 8 or abs(x) < 0.001), said
    assert abs(value - x) <= max(0.005 * abs(x), 0.005), (x, said)


def test_rounding_examples() -> None:
    assert speakable("The result is 22.22222222222222") == "The result is 22.22"
    assert speakable("12.0") == "12" and speakable("0.3333333333") == "0.333"
    assert speakable("0.000123456") == "0.000123"
    assert round_for_speech(3.14159) == "3.14" and round_for_speech(1234.5678) == "1234.57"
    # Not numbers to round: versions, addresses, dates, money with two decimals.
    for text in ("version 1.2.3", "ip 192.168.1.1", "on 2026.12.01", "12.50 euros"):
        assert speakable(text) == text


JSON_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-1000, 1000), WORD)
JSON_VALUES = st.recursive(JSON_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(WORD, inner, min_size=1, max_size=4)), max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(WORD, JSON_VALUES, min_size=1, max_size=5), WORDS, st.booleans())
def test_raw_json_is_never_read_aloud(value: dict, words: str, indent: bool) -> None:
    said = plain(f"{words} {json.dumps(value, indent=2 if indent else None)}")
    assert not re.search(r'[{}\[\]"]|":', said), said
    assert said.startswith(words)


@given(WORDS, WORD)
def test_tool_call_text_is_never_read_aloud(words: str, name: str) -> None:
    call = json.dumps({"name": name, "arguments": {"code": "print(1)", "language": "python"}})
    for text in (f"<tool_call>\n{call}\n</tool_call>\n{words}", f"{call}\n{words}", f"{words}\n<tool_call>{call[:20]}"):
        said = plain(text)
        assert "arguments" not in said and "print" not in said and "tool_call" not in said, said
        assert words in said


def test_small_flat_json_is_said_as_phrases() -> None:
    assert speakable('{"state": "on", "brightness": 255}') == "state on, brightness 255"


@pytest.mark.parametrize(
    ("language", "printed", "said"),
    [
        # A breaker's finds: lines run together changed values ("12" and "345" heard as 12 345 in French).
        ("fr", "12\n345", "12, 345"),
        ("en", "Milk\nEggs\nBread", "Milk, Eggs, Bread"),
        ("de", "Schritte pro Tag:\n8234\n10512\n9877", "Schritte pro Tag: 8234, 10512, 9877"),
        ("en", "Total: 12.\nAverage: 4.5", "Total: 12. Average: 4.5"),
        # A boolean printed as a value is yes or no in the language.
        ("de", "Tür offen: True", "Tür offen: ja"),
        ("en", "Door locked=False, window open: True.", "Door locked=no, window open: yes."),
        # A German date goes on after its day's period (it was cut: "Tante Gabi 28. Es gibt noch mehr").
        ("de", "Opa Heinz: 1950-09-12\nTante Gabi: 1962-12-28\nMama: 1970-03-05",
         "Opa Heinz: 12. September 1950, Tante Gabi: 28. Dezember 1962, Mama: 5. März 1970"),
        ("de", "Urlaub von 2026-12-01 bis 2026-12-24", "Urlaub von 1. Dezember 2026 bis 24. Dezember 2026"),
        # An English month after a preposition, or "May" between a day and a year, in another language.
        ("fr", "Dans 19 semaines, on sera en April", "Dans 19 semaines, on sera en avril"),
        ("fr", "samedi 29 May 2027", "samedi 29 mai 2027"),
        ("de", "Im May ist es warm.", "Im Mai ist es warm."),
        ("de", "March to the beat.", "March to the beat."),
        # A tuple of numbers inside a line is a value: in brackets a comma-decimal language heard "(52,52, 13,405)".
        ("de", "Koordinaten: (52.52, 13.405)", "Koordinaten: 52,52 und 13,405"),
        ("en", "Pick one of the options (see page 2, 3) please.", "Pick one of the options (see page 2, 3) please."),
        # Only a size's fields are bytes: a "total" among counts is a count.
        ("en", "{'items': 3, 'total': 45}", "items 3, total 45"),
        ("en", "{'name': 'a.txt', 'size': 1234}", "name a.txt, size 1.23 kilobytes"),
        ("en", "usage(total=500107862016, used=422379409408, free=77728452608)",
         "total 500 gigabytes, used 422 gigabytes, free 77.7 gigabytes"),
        # Reprs of the libraries models reach for (a breaker's finds): NumPy 2's scalars and arrays, paths,
        # fractions, a defaultdict (its factory looked like an HTML tag), an OrderedDict's pairs.
        ("en", "The max is np.float64(3.5)", "The max is 3.5"),
        ("de", "Werte: [np.float64(2.5), np.int64(3)]", "Werte: 2,5 und 3"),
        ("en", "array([1, 2, 3], dtype=int8)", "1, 2 and 3"),
        ("en", "[PosixPath('notes.txt'), PosixPath('todo.txt')]", "notes.txt and todo.txt"),
        ("en", "Fraction(3, 4)", "3/4"),
        ("en", "Counts: defaultdict(<class 'int'>, {'a': 2, 'b': 1})", "Counts: a 2, b 1"),
        ("en", "OrderedDict([('a', 1), ('b', 2)])", "a 1, b 2"),
        ("en", "Use <b>bold</b> here", "Use bold here"),
    ],
)
def test_lines_booleans_and_sizes_keep_their_value(language: str, printed: str, said: str) -> None:
    assert speakable(printed, language=language) == said


def test_the_seen_examples() -> None:
    assert speakable("Use the `o1_ha` helper") == "Use the o1_ha helper"
    assert speakable("the<br>o1_ha") == "the, o1_ha"  # a line break is heard, never glued ("theo1_ha")
    assert speakable("~~Tuesday~~ Wednesday") == "Wednesday"
    assert speakable("| a | b |\n|---|---|\n| 1 | 2 |") == "a, b. 1, 2."
    assert speakable("```python\nprint(2 + 2)\n```\n2 plus 2 is 4.") == "2 plus 2 is 4."


@settings(max_examples=200, deadline=None)
@given(markdown_reply(), st.lists(st.integers(1, 12), min_size=1, max_size=40), st.booleans(),
       st.one_of(st.none(), WORDS))
def test_streamed_answer_equals_what_is_returned_and_is_never_empty(reply, cuts, live, tail) -> None:
    text, words = reply
    emitted: list[str] = []
    stream = AnswerStream(emitted.append, live)
    i = 0
    for cut in cuts:
        stream.feed(text[i:i + cut])
        i += cut
    stream.feed(text[i:])
    answer = stream.finish(tail if tail is not None else (None if live else stream.model_text))
    assert "".join(emitted) == answer
    assert answer, text  # the reply had words: something is said
    assert not MARKUP_LEFT.search(answer)


def test_what_code_did_is_said_when_it_printed_nothing() -> None:
    assert describe_changes(["shopping_list.txt"], [], []) == "I created shopping_list.txt."
    assert describe_changes(["a.txt", "b.txt"], ["c.txt"], []) == "I created a.txt and b.txt and updated c.txt."
    assert describe_changes([], [], ["old.txt"]) == "I deleted old.txt."
    assert describe_changes([f"f{i}" for i in range(5)], [], []) == "I created f0, f1, f2 and 2 more."
    assert describe_changes([], [], []) is None


@given(st.datetimes(min_value=__import__("datetime").datetime(1900, 1, 1),
                    max_value=__import__("datetime").datetime(2200, 1, 1)), WORDS)
def test_iso_dates_and_times_are_said_as_dates_and_minutes(when, words: str) -> None:
    said = speakable(f"{words} {when}")
    month = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
             "November", "December"][when.month - 1]
    assert f"{month} {when.day}, {when.year} {when.hour:02d}:{when.minute:02d}" in said, said
    assert said.count(":") == words.count(":") + 1  # no seconds
    assert speakable(str(when.date())) == f"{month} {when.day}, {when.year}"
