"""The sentences that name the fix of a failed block's error: the error line read from its output, then the
standard fix of the common mistakes small models make again when told only the error (:data:`_HINTS`), and
the date shapes a file's text is written in (:func:`date_format`). Used by the repair requests (repair.py) and
the decimal-comma rerun (decimal_commas.py).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable

from .folder_prompt import data_field


def error_line(language: str, output: str) -> str:
    """The line of a failed block's output that says what went wrong, as the model should read it
    ("ZeroDivisionError: division by zero"); "" when Python printed no error (a plain ``sys.exit(1)``)."""
    lines = [line.strip() for line in output.splitlines() if line.strip() and not line.startswith("[output cut")]
    if language == "python":
        lines = [line for line in lines if re.match(r"^[\w.]+(Error|Exception|Interrupt|Exit)\b", line)]
    return lines[-1][:200] if lines else ""


_DATE_FORMATS = (
    "%B %d, %Y",
    "%b %d, %Y",
    "%d %B %Y",
    "%d %b %Y",
    "%B %d %Y",
    "%Y-%m-%d",
    "%d/%m/%Y",
    "%m/%d/%Y",
    "%d.%m.%Y",
    "%Y/%m/%d",
    "%Y-%m-%dT%H:%M:%S",
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%d %H:%M",
    "%d.%m.%Y %H:%M",
    "%Y-%m",
)  # the shapes dates are written in, tried in order ("03/04/2020" is read day first; "2025-01" a month)


def date_format(value: str) -> str | None:
    """The :meth:`datetime.datetime.strptime` format ``value`` is a date in ("July 30, 1951": "%B %d, %Y";
    English month names), or None."""
    for shape in _DATE_FORMATS:
        try:
            datetime.datetime.strptime(value.strip(), shape)
        except ValueError:
            continue
        return shape
    return None


DATE_TEXT = (
    " That value is a date written as text: parse it with datetime.datetime.strptime(value, '{shape}')"
    " (after `import datetime`), then compare or subtract dates (.year for a year)."
)
DATE_LIKE = re.compile(
    r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?|\d{1,2}[./]\d{1,2}[./]\d{4}|\d{4}/\d{2}/\d{2}"
    r"|[A-Z][a-z]{2,8} \d{1,2},? \d{4}|\d{1,2} [A-Z][a-z]{2,8} \d{4}|(?<![\d.-])\d{4}-[01]\d(?![\d-])"
)  # candidates for date_format: ISO dates and times, day.month.year, "July 30, 1951", "30 July 1951", "2025-01"
TEXT_OPERAND = re.compile(
    r"unsupported operand type\(s\) for [^:']{1,6}: '(?:str' and '[\w.]+|[\w.]+' and 'str)'"
    r"|not supported between instances of '(?:str' and '[\w.]+|[\w.]+' and 'str)'"
    r"|must be real number, not str|can't compare [\w.]+ to str"
)  # text used as a number: in data that holds only dates, the text is a date
_LONE_NUMBER = re.compile(r"(?<![\w.:/-])\d+(?:\.\d+)?(?![\w.:/-])")


def dates_in(text: str) -> str | None:
    """The strptime format of the first date written in ``text`` (a file's data, as :func:`.folder_prompt.sample`
    gives it), or None: also None when the data holds numbers beside its dates (a temperature next to its day:
    the number is what the code got wrong, a csv cell being text)."""
    shape = next((shape for found in DATE_LIKE.findall(text) if (shape := date_format(found))), None)
    if shape is None or _LONE_NUMBER.search(DATE_LIKE.sub(" ", text)):
        return None
    return shape


def _date_hint(found: re.Match[str]) -> str | None:
    """The hint for a number read from text that is a date (group 1 or 2 of the match), with its format; None
    for any other text."""
    shape = date_format(found.group(1) or found.group(2))
    return None if shape is None else DATE_TEXT.format(shape=shape)


def _strptime_hint(found: re.Match[str]) -> str | None:
    """The hint for ``strptime`` given a text that is not a date in its format (groups: the text, the format):
    a header word ('date'), a date written another way ('2026-03-04' for '%d/%m/%Y'), or no date at all (a
    note's title line)."""
    value, wanted = found.group(1), found.group(2)
    if (shape := date_format(value)) is not None:
        return None if shape == wanted else f" That date is written as '{shape}', not '{wanted}': use that format."
    said = data_field(value)  # a file's text: one line, no delimiters
    if not any(c.isdigit() for c in value):
        return (
            f" '{said}' is a header (a column's name), not a date: skip the header row (next(reader)), or read"
            " the rows with csv.DictReader and parse row['column']."
        )
    return (
        f" '{said}' is not a date: parse only the text that holds the date (look at how the file begins in the"
        " folder section: which line or column has it, and how it is written)."
    )


_HINTS: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str | None]], ...] = (
    (
        # The header row's 'date' parsed as a date (its repair wrote the same code again); a note's title line.
        re.compile(r"time data '([^']{1,60})' does not match format '([^']{1,30})'"),
        _strptime_hint,
    ),
    (
        # A German or French spreadsheet's file read with commas: "invalid literal for int(): 'Januar;187'".
        re.compile(r"(?:could not convert string to float|invalid literal for int\(\) with base 10): '[^';]*;"),
        " The file is separated by ';': read it with csv.reader(f, delimiter=';') (or csv.DictReader(f,"
        " delimiter=';')), and numbers written with a decimal comma with float(value.replace(',', '.')).",
    ),
    (
        # '187,40', not '1,234' (a thousands separator)
        re.compile(r"(?:could not convert string to float|invalid literal for int\(\) with base 10): '-?\d+,\d{1,2}'"),
        " The number has a decimal comma: float(value.replace(',', '.')).",
    ),
    (
        # Before the header hint: told "that is text" for "July 30, 1951", the model used float() again.
        re.compile(
            r"could not convert string to float: '([^']{4,40})'"
            r"|invalid literal for int\(\) with base 10: '([^']{4,40})'"
        ),
        _date_hint,
    ),
    (
        re.compile(r"could not convert string to float: '[^\W\d]|invalid literal for int\(\) with base 10: '[^\W\d]"),
        " That value is text, not a number: a header row is skipped (next(reader), or csv.DictReader), and only"
        " the columns that hold numbers are converted.",
    ),
    (
        re.compile(r"invalid literal for int\(\) with base 10: '-?\d*\.\d+'"),
        " The value has a decimal point: read numbers with float(), not int().",
    ),
    (
        re.compile(
            r"unsupported operand type\(s\) for [-+*/]+=?: '(?:(?:int|float)' and 'str|str' and '(?:int|float))'"
        ),
        " Text cannot be added to numbers: convert each value with float() first (what a file holds is text).",
    ),
    (
        re.compile(r"can only concatenate str \(not \"(?:int|float)\"\) to str"),
        " Put numbers into a sentence with an f-string: print(f'Total: {total}').",
    ),
    (
        re.compile(r"object of type '[\w.]*(reader|DictReader|generator|map|filter|zip|enumerate)' has no len\(\)"),
        " It has no len(): make a list of it first (rows = list(reader)) and count that.",
    ),
    (
        re.compile(
            r"'[\w.]*(reader|DictReader|generator|map|filter|zip|enumerate|dict_keys|dict_values)' object is not"
            r" subscriptable"
        ),
        " It cannot be indexed or sliced: make a list of it first (rows = list(reader)), then rows[1:] or rows[0].",
    ),
    (
        re.compile(r"'(?:float|int)' object has no attribute '(?:strftime|hour|minute|date|weekday|day|month|year)'"),
        " That value is a number, not a date or a time: make a datetime (datetime.datetime.strptime('19:30',"
        " '%H:%M'), datetime.date(2026, 5, 1)) and add a datetime.timedelta(minutes=...) to it. A file's time"
        " (os.path.getmtime, time.time()) is seconds since 1970: datetime.datetime.fromtimestamp(seconds).",
    ),
    (
        re.compile(
            r"(type object 'datetime\.datetime'|'method_descriptor' object) has no attribute "
            r"'(date|datetime|timedelta|time|today|timezone)'"
        ),
        " After `from datetime import datetime` the name datetime is the class: write `import datetime` and"
        " use datetime.date.today(), datetime.datetime.now(), datetime.timedelta(...).",
    ),
    (
        re.compile(
            r"unsupported operand type\(s\) for [-+]=?: "
            r"'(?:datetime\.time' and '[\w.]+|[\w.]+' and 'datetime\.time)'"
        ),
        " A clock time (datetime.time) has no arithmetic: write `import datetime`, make it a datetime with"
        " datetime.datetime.strptime('20:15', '%H:%M'), add or subtract a datetime.timedelta, and print"
        " .strftime('%H:%M').",
    ),
    (
        # A follow-up's block used a variable of the last turn's that was not carried (a date, an open file: only
        # plain values are, see carried.py): every block is a new process.
        re.compile(r"name '(\w{1,40})' is not defined"),
        lambda found: (
            f" Each block runs on its own: only plain values (numbers, texts, lists, dicts) of earlier blocks"
            f" carry over. Define {found.group(1)} in this block (or write its value in)."
        ),
    ),
    (
        # A csv reader read again after its `with` block (a second sum over the same rows: everyday dev set).
        re.compile(r"I/O operation on closed file"),
        " The file is closed once its `with` block ends, and a reader gives its rows once: read them into a"
        " list inside the block (rows = list(reader)) and compute every total from that list after it.",
    ),
    (
        re.compile(r"'str' object has no attribute 'strftime'"),
        " Parse the text first: datetime.datetime.strptime(text, '%H:%M').",
    ),
    (
        re.compile(r"not supported between instances of '(?:dict' and '\w+|\w+' and 'dict)'"),
        " Each item is a dict: compare one of its values, item['key'] (the folder section lists the keys).",
    ),
    (
        re.compile(r"'(?:int|float)' object is not iterable"),
        " sum(), min() and max() take a list: sum([a, b, c]), or add the values with +.",
    ),
    (
        re.compile(r"string indices must be integers"),
        " That value is text, not a dict: read the file with json.load(f) and use the data it gives.",
    ),
    (
        re.compile(r"list indices must be integers or slices, not str"),
        " The data is a list: loop over its items (for item in data: item['key']).",
    ),
)
"""(error pattern, what to say after the error, or a function of the match that says it or None to go on): the
errors small models make again when told only the error line (on the agent benchmark's dev split, the repair of
``int('310.5')`` and of ``len(csv.reader(...))`` wrote the same code twice): a kind of mistake, named with the
standard fix."""


def error_hint(error: str) -> str:
    """The sentence that names the fix of a common mistake behind ``error`` (a failed block's error line),
    with a leading space; "" when none is known (see :data:`_HINTS`)."""
    for pattern, hint in _HINTS:
        if (found := pattern.search(error)) and (said := hint if isinstance(hint, str) else hint(found)):
            return said
    return ""
