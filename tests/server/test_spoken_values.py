"""What is spoken never changes a value, and numbers, dates and lists are said in the conversation's language.

Each test is one rule of speech cleaning (docs/server.md, "Speech cleaning"): the digits the code printed are
kept, float noise is undone honestly, money keeps its cents, Python reprs are said as words, and the language
tag passed by the session picks Babel's decimal sign, grouping, date format and list conjunction.
"""

from __future__ import annotations

import datetime
import json
import re
import shutil
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from o1_server.agent.speech_cleaning import AnswerStream, describe_changes, plain, speakable, spoken_boolean
from tests.server.test_answers import code, output_agent
from tests.support.scripted_llm import ScriptedLLM

POWER = {"en": " times 10 to the power of ", "de": " mal 10 hoch ", "fr": " fois 10 puissance "}


def heard(said: str, language: str) -> Decimal:
    """The value a listener hears in ``said`` (one number, written the way ``language`` writes numbers)."""
    mantissa, _, power = said.partition(POWER[language])
    mantissa = mantissa.replace("\u00a0", "").replace("\u202f", "")
    if language == "en":
        mantissa = mantissa.replace(",", "")
    else:
        mantissa = mantissa.replace(".", "").replace(",", ".") if language == "de" else mantissa.replace(",", ".")
    assert re.fullmatch(r"-?\d+(\.\d+)?", mantissa), said
    return Decimal(mantissa).scaleb(int(power)) if power else Decimal(mantissa)


def decimals(printed: str) -> int:
    mantissa = printed.lower().partition("e")[0]
    return len(mantissa.partition(".")[2])


PRINTED = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False, allow_subnormal=False).map(repr),
    st.integers(-(10**15), 10**15).map(str),
    st.builds(lambda n, k: repr(n / 10**k), st.integers(-(10**9), 10**9), st.integers(0, 4)),
    st.builds(lambda x, k: f"{x:.{k}f}", st.floats(-1e7, 1e7, allow_nan=False), st.integers(0, 4)),
)


# Where "." groups thousands, "1.500" (1 to 3 digits, a dot, 3 digits ending in 0) is read as the locale writes it:
# a thousands group. Python's repr never prints it; only a format such as f"{1.5:.3f}" does.
LOCALE_GROUP = re.compile(r"-?[1-9]\d{0,2}\.\d\d0")


@settings(max_examples=400, deadline=None)
@example("1.500", "de").via("a thousands group in German")
@example("-0.0", "en").via("no minus zero")
@example("100001.0", "de").via("a whole float is not a lone group")
@given(PRINTED, st.sampled_from(["en", "de", "fr"]))
def test_a_printed_number_is_heard_with_the_value_printed(printed: str, language: str) -> None:
    assume(decimals(printed) <= 4)
    if language == "de" and LOCALE_GROUP.fullmatch(printed):
        assert speakable(printed, language=language) == printed
        return
    said = speakable(printed, language=language)
    assert heard(said, language) == Decimal(printed), (printed, said)
    # The session says a block's output, then the tail built from it: a second pass changes nothing.
    assert speakable(f"The result is {said}", language=language) == f"The result is {said}"


@settings(max_examples=200, deadline=None)
@given(st.floats(-1e9, 1e9, allow_nan=False, allow_subnormal=False), st.sampled_from(["en", "de"]))
def test_long_floats_are_shortened_honestly(x: float, language: str) -> None:
    printed = repr(x)
    assume(decimals(printed) > 4 and "e" not in printed)
    said = speakable(printed, language=language)
    value = heard(said, language)
    assert abs(value - Decimal(printed)) <= max(Decimal("0.005") * abs(Decimal(printed)), Decimal("1e-9")), said
    if value == value.to_integral_value():
        assert Decimal(printed) == value.to_integral_value() or abs(Decimal(printed) - value) < Decimal("1e-6"), said


def test_digits_the_code_chose_are_kept() -> None:
    assert speakable(f"{2 ** 0.5:.3f}") == "1.414"  # "the square root of 2 to 3 decimal places"
    assert speakable("2.995 euros") == "2.995 euros"
    assert speakable("The result is 3.1416") == "The result is 3.1416"
    assert speakable(str(64 / 3)) == "21.33" and speakable(f"{64 / 3} dollars") == "21.33 dollars"
    assert speakable(str(0.1 + 0.2)) == "0.3" and speakable(str(1.1 * 3)) == "3.3"
    assert speakable(str(200 / 9)) == "22.22" and speakable("2.99512345") == "2.995"  # never rounded to a whole
    assert speakable("1.414213 or 1.414287") == "1.4142 or 1.4143"  # two values stay two values


def test_money_keeps_its_cents() -> None:
    assert speakable(f"${64 / 3}") == "$21.33" and speakable(f"€{12.5}") == "€12.50"
    assert speakable("That is 12.0 euros") == "That is 12.00 euros"
    assert speakable("It costs 7 pounds") == "It costs 7 pounds"
    assert speakable(f"{10 / 3} EUR", language="de") == "3,33 EUR"
    assert speakable("12,50 Euro", language="de") == "12,50 Euro"
    # Printed with 3 or 4 decimals, money is said in cents too ("29,1125 euros" was said so); 2.995 stays 2.995,
    # not 3.00 (the rounding would end in a carried zero: "2.995 euros" was heard as "3 euros").
    assert speakable("Cada uno paga 29.1125 euros.", language="es") == "Cada uno paga 29,11 euros."
    assert speakable("You pay 74.6895 euros") == "You pay 74.69 euros" and speakable("$21.333") == "$21.33"
    assert speakable("It was 2.995 euros") == "It was 2.995 euros"
    assert speakable("The root is 1.414") == "The root is 1.414"  # not money: as printed


def test_what_is_not_a_decimal_is_left_as_written() -> None:
    for text in ("version 1.2.3", "ip 192.168.1.1", "at 12:05", "on 1.12.2026", "Python 3.11", "-3.5 degrees",
                 "12.5% of it", "v2.0", "file_2.txt"):
        assert speakable(text) == text
        assert speakable(text, language="de") == text.replace("-3.5", "-3,5").replace("12.5%", "12,5%")
    assert speakable("6.02e+23") == "6.02 times 10 to the power of 23"
    assert speakable("6.02e+23", language="de") == "6,02 mal 10 hoch 23"
    assert speakable("2.5e-3", language="de") == "0,0025"


def test_numbers_in_the_conversation_language() -> None:
    assert [speakable("21.33", language=lang) for lang in ("en", "de", "fr", "es", "de-DE", "fr_FR", "xx")] == [
        "21.33", "21,33", "21,33", "21,33", "21,33", "21,33", "21.33"]
    assert speakable("There are 77728452608 bytes") == "There are 77,728,452,608 bytes"
    assert speakable("Es sind 77728452608 Bytes", language="de") == "Es sind 77.728.452.608 Bytes"
    assert speakable("2026 and 10000") == "2026 and 10000"  # years and small numbers as written
    assert speakable("total 1,234,567.891", language="de") == "total 1.234.567,891"  # Python's f"{x:,}"
    # Where "." groups thousands, a text written the locale's way keeps its groups; Python's decimals convert.
    assert speakable("Berlin hat 3.755.251 Einwohner", language="de") == "Berlin hat 3.755.251 Einwohner"
    assert speakable("Es sind 1.234 Meter und 3,5 Kilometer", language="de") == "Es sind 1.234 Meter und 3,5 Kilometer"
    assert speakable("Die Wurzel ist 1.414", language="de") == "Die Wurzel ist 1,414"
    assert speakable("Die Strecke ist 1.500 Meter lang", language="de") == "Die Strecke ist 1.500 Meter lang"
    assert speakable("-0.0") == "0"


def test_dates_in_the_conversation_language() -> None:
    assert speakable("2026-12-01") == "December 1, 2026"
    assert speakable("2026-12-01", language="de") == "1. Dezember 2026"
    assert speakable("2026-12-01", language="fr") == "1 décembre 2026"
    assert speakable("2026-12-01 00:37:43", language="es") == "1 de diciembre de 2026 00:37"
    assert speakable(repr(datetime.date(2026, 12, 1)), language="de") == "1. Dezember 2026"
    assert speakable(repr(datetime.datetime(2026, 12, 1, 9, 5, 30))) == "December 1, 2026 09:05"


def test_a_printed_timedelta_is_a_duration_not_a_time_of_day() -> None:
    assert speakable("The trip takes 2:20:00") == "The trip takes 2 hours and 20 minutes"
    assert speakable("The difference is 0:45:00.250000") == "The difference is 45 minutes"
    assert speakable("Left: 1 day, 3:05:00") == "Left: 1 day, 3 hours, and 5 minutes"
    assert speakable("Die Fahrt dauert 2:20:00", language="de") == "Die Fahrt dauert 2 Stunden und 20 Minuten"
    assert speakable("Il reste 3 days, 0:00:30", language="fr") == "Il reste 3 jours et 30 secondes"
    # Found by a breaker: an unpadded time of day by its words, and fractions of a second, keep their value.
    assert speakable("The bus leaves at 9:05:30.") == "The bus leaves at 09:05."
    assert speakable("9:05:30 PM") == "09:05 PM"
    assert speakable("It took 0:00:01.9") == "It took 1.9 seconds"
    assert speakable("It took 0:59:59.9999") == "It took 1 hour"
    # Without a word saying it is a duration, it is a time of day the code kept as a timedelta.
    assert speakable("Arrival: 9:05:00") == "Arrival: 09:05"
    # A time of day as Python prints it (zero-padded hours) stays one.
    assert speakable("You arrive at 08:45:00") == "You arrive at 08:45"
    assert speakable("You arrive at 11:05:00") == "You arrive at 11:05"
    # Every duration Python prints is heard with its own value, padded ones after a word saying what they are.
    assert speakable(f"It takes {datetime.timedelta(seconds=86399)}") == "It takes 23 hours, 59 minutes, and 59 seconds"
    for seconds in (0, 59, 60, 3599, 3600, 35999, 36000, 86399, 86400, 90061, 10 * 86400 + 1):
        said = speakable(f"It takes {datetime.timedelta(seconds=seconds)}")
        total = sum(
            int(n) * {"day": 86400, "hour": 3600, "minute": 60, "second": 1}[unit]
            for n, unit in re.findall(r"(\d+) (day|hour|minute|second)s?", said)
        )
        assert total == seconds, said


@pytest.mark.parametrize(
    ("language", "printed", "said"),
    [
        # A breaker's finds: labels and compounds that name a span ("Total time", "Reisedauer", "Reistijd"), a
        # span a clock never shows ("0:25:00", with seconds: "3:12:45"), and zero-padded ones after a duration
        # word were said as times of day ("Travel time: 01:45", "Elapsed: 00:00": the seconds were lost).
        ("en", "Total time: 2:20:00", "Total time: 2 hours and 20 minutes"),
        ("en", "Uptime: 3:12:45", "Uptime: 3 hours, 12 minutes, and 45 seconds"),
        ("en", "Timer set for 0:25:00", "Timer set for 25 minutes"),
        ("en", "Your run took 00:42:17", "Your run took 42 minutes and 17 seconds"),
        ("en", "Elapsed: 00:00:07", "Elapsed: 7 seconds"),
        ("en", "Average pace: 0:05:32 per km", "Average pace: 5 minutes and 32 seconds per km"),
        ("de", "Reisedauer: 2:20:00", "Reisedauer: 2 Stunden und 20 Minuten"),
        ("de", "Deine Laufzeit: 00:42:17", "Deine Laufzeit: 42 Minuten und 17 Sekunden"),
        ("fr", "Temps de trajet : 2:20:00", "Temps de trajet: 2 heures et 20 minutes"),
        ("es", "Tiempo de viaje: 2:20:00", "Tiempo de viaje: 2 horas y 20 minutos"),
        ("it", "Ci vogliono 1:45:00", "Ci vogliono 1 ora e 45 minuti"),
        ("nl", "Reistijd: 2:20:00", "Reistijd: 2 uur en 20 minuten"),
        # A negative timedelta as Python prints it is said as what it is ("-1 day, 23:00:00" was read as 23:00).
        ("en", "Time until the meeting: -1 day, 23:00:00", "Time until the meeting: -1 hour"),
        # A clock word nearest before it keeps a time of day one, whatever else the sentence says.
        ("en", "Arrival time: 11:05:00", "Arrival time: 11:05"),
        ("en", "Current time: 09:05:00", "Current time: 09:05"),
        ("en", "Last train: 5:45:00", "Last train: 05:45"),
        ("de", "Abfahrtszeit: 08:45:00", "Abfahrtszeit: 08:45"),
        ("nl", "Vertrektijd: 08:45:00", "Vertrektijd: 08:45"),
        ("es", "Llegada: 11:05:00", "Llegada: 11:05"),
    ],
)
def test_a_span_is_told_from_a_time_of_day_by_its_words_and_its_shape(language: str, printed: str, said: str) -> None:
    assert speakable(printed, language=language) == said


def test_a_long_duration_in_seconds_is_also_said_in_hours_and_minutes() -> None:
    """``timedelta.total_seconds()`` printed: the value as printed, then in the units a listener counts."""
    said = speakable("The duration is 5460.0 seconds")
    assert said == "The duration is 5460 seconds, that is 1 hour and 31 minutes", said
    assert speakable("Es dauert 7200 Sekunden", language="de") == "Es dauert 7200 Sekunden, also 2 Stunden"
    assert speakable("Il reste 86400 secondes", language="fr") == "Il reste 86400 secondes, soit 1 jour"
    # Found by a breaker: cleaned twice (the session does) it is said once; a decimal comma, a sign and a
    # value past any clock are left as printed.
    assert speakable(speakable("5460 seconds")) == "5460 seconds, that is 1 hour and 31 minutes"
    assert speakable("Es dauerte 0.375 Sekunden.", language="de") == "Es dauerte 0,375 Sekunden."
    once = speakable("Es dauerte 0.375 Sekunden.", language="de")
    assert speakable(once, language="de") == "Es dauerte 0,375 Sekunden."
    assert speakable("Das dauerte 1,234 Sekunden.", language="de") == "Das dauerte 1,234 Sekunden."
    assert speakable("T-5460 seconds") == "T-5460 seconds"
    assert speakable(f"{10**30} seconds") == f"{10**30} seconds"
    # Under two minutes, or not a whole number of seconds: said as printed only.
    assert speakable("It took 45 seconds") == "It took 45 seconds"
    assert speakable("It took 119 seconds") == "It took 119 seconds"
    assert speakable("It took 2.5 seconds") == "It took 2.5 seconds"
    # Every whole number of seconds is heard with its own value in the larger units too.
    for seconds in (120, 3599, 3600, 3661, 86399, 90061):
        said = speakable(f"It takes {seconds} seconds").partition("that is ")[2]
        total = sum(
            int(n) * {"day": 86400, "hour": 3600, "minute": 60, "second": 1}[unit]
            for n, unit in re.findall(r"(\d+) (day|hour|minute|second)s?", said)
        )
        assert total == seconds, said


def test_decimal_hours_are_also_said_in_hours_and_minutes() -> None:
    said = speakable("Die Dauer von 12:48 bis 14:09 ist 1.35 Stunden.", language="de")
    assert said == "Die Dauer von 12:48 bis 14:09 ist 1,35 Stunden, also 1 Stunde und 21 Minuten.", said
    assert speakable(said, language="de") == said  # cleaned twice, said once
    assert speakable("It takes 2.25 hours") == "It takes 2.25 hours, that is 2 hours and 15 minutes"
    assert speakable("It takes 1.33 hours") == "It takes 1.33 hours"  # not a whole number of minutes


@pytest.mark.parametrize(
    ("request_text", "language", "places"),
    [
        ("what is the square root of 2 to three decimal places", "en", 3),
        ("was ist sechsundfünfzig geteilt durch 13 auf drei Nachkommastellen", "de", 3),
        ("arrondis pi à deux décimales", "fr", 2),
        ("calcula la raíz de 10 con cuatro decimales", "es", 4),
        ("wat is 10 gedeeld door 3 op 2 decimalen", "nl", 2),
        ("quanto fa 10 diviso 3 con 2 decimali", "it", 2),
        ("what is 2 plus 2", "en", None),
    ],
)
def test_the_decimal_places_a_request_asks_for(request_text: str, language: str, places: int | None) -> None:
    from o1_server.agent import i18n

    assert i18n.asked_decimals(i18n.digits(request_text, language), language) == places


async def test_a_long_number_is_said_with_the_places_asked_for(make_agent, llm: ScriptedLLM) -> None:
    """The code printed the whole float; the user asked for three places: "4.308", not the shortest "4.31"."""
    from o1_server.agent.speech_cleaning.numbers import ASKED_DECIMALS

    agent = make_agent()
    llm.script(code("print('56 divided by 13 is', 56 / 13)"))
    reply = await agent.ask("what is 56 divided by 13 to three decimal places", "c-places", profile="default")
    assert reply.answer == "56 divided by 13 is 4.308", reply.answer
    llm.script(code("print('56 divided by 13 is', 56 / 13)"))
    reply = await agent.ask("and what is 56 divided by 13", "c-places", profile="default")
    assert reply.answer == "56 divided by 13 is 4.31", reply.answer  # asked for no places: the shortest
    assert ASKED_DECIMALS.get() is None  # the turn's setting ends with the turn


def test_python_reprs_are_said_as_words() -> None:
    assert speakable(repr(["garden.txt", "budget.csv"])) == "garden.txt and budget.csv"
    assert speakable(repr(["a", "b", "c"]), language="de") == "a, b und c"
    assert [speakable(repr(("x", "y", "z")), language=lang) for lang in ("fr", "es", "nl", "it")] == [
        "x, y et z", "x, y y z", "x, y en z", "x, y e z"]
    assert speakable(repr([1, 2.5, 64 / 3])) == "1, 2.5 and 21.33"
    assert speakable("[]") == "none" and speakable("[]", language="de") == "keine"
    assert speakable(repr({"milk": 2, "eggs": 12})) == "milk 2, eggs 12"
    assert speakable(repr({"ok": True, "left": None})) == "ok yes, left none"
    assert speakable(repr(set())) == "none" and speakable(repr({"x"})) == "x"
    # A list is said whole up to 20 items (a word spelled out, a shopping list of 8: "and 3 more" lost the
    # answer); a longer one says its first 19 and how many more, never nothing (a JSON list of 20 was dropped).
    assert speakable(repr(list("Schmetterling"))) == "S, c, h, m, e, t, t, e, r, l, i, n and g"
    assert speakable(repr(list(range(20))), max_chars=1000) == ", ".join(map(str, range(19))) + " and 19"
    assert plain(json.dumps(list(range(30)))) == ", ".join(map(str, range(19))) + " and 11 more"
    assert plain(repr([[i, i] for i in range(25)])) == ", ".join(f"{i} and {i}" for i in range(19)) + " and 6 more"
    assert speakable(repr(datetime.timedelta(days=3, hours=2, seconds=5.5))) == "3 days, 2 hours and 5.5 seconds"
    assert speakable(repr(datetime.timedelta(minutes=90)), language="de") == "1 Stunde und 30 Minuten"
    assert speakable(repr(datetime.timedelta(microseconds=1500))) == "0.0015 seconds"
    assert speakable(repr(datetime.timedelta(0))) == "0 seconds"
    assert speakable("Found ['a.txt', 'b.txt'] in drafts.") == "Found a.txt and b.txt in drafts."


def test_disk_usage_is_said_in_units() -> None:
    usage = shutil.disk_usage("/")
    said = speakable(repr(usage))
    assert re.fullmatch(r"total [\d.]+ \w+bytes, used [\d.]+ \w+bytes, free [\d.]+ \w+bytes", said), said
    assert "=" not in said and "usage" not in said and "(" not in said
    free = repr(usage.__class__(250_790_436_864, 173_061_984_256, 77_728_452_608))
    assert speakable(free) == "total 251 gigabytes, used 173 gigabytes, free 77.7 gigabytes"
    assert speakable(free, language="de") == "total 251 Gigabyte, used 173 Gigabyte, free 77,7 Gigabyte"


def test_ordinary_brackets_are_left_alone() -> None:
    for text in ("See the notes (above) for more.", "It is [citation needed] true.", "I think (1, 2) is fine.",
                 "Call max(3, 4) there.", "The set {a, b} holds two."):
        assert speakable(text) == text


def test_a_whole_boolean_output_is_yes_or_no() -> None:
    assert spoken_boolean("True\n") == "Yes." and spoken_boolean("False", "de") == "Nein."
    assert spoken_boolean("True", "fr-FR") == "Oui." and spoken_boolean("It is True") is None
    assert speakable(repr([True, False])) == "yes and no"


def test_the_stream_and_the_folder_sentence_speak_the_language() -> None:
    said: list[str] = []
    stream = AnswerStream(said.append, live=True, language="de")
    for piece in ("Das sind ", "21.333333333333332 Euro. ", "Am 2026-12-01."):
        stream.feed(piece)
    assert stream.finish() == "Das sind 21,33 Euro. Am 1. Dezember 2026." == "".join(said)
    assert describe_changes(["a.txt", "b.txt"], ["c.txt"], [], language="de") == (
        "Ich habe a.txt und b.txt erstellt und c.txt geändert.")
    assert describe_changes([], [], ["old.txt"], language="fr") == "J'ai supprimé old.txt."
    assert describe_changes(["f0", "f1", "f2", "f3"], [], [], language="es") == "He creado f0, f1, f2 y 1 más."


async def test_what_the_code_printed_is_heard_with_its_value(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    agent = output_agent(make_agent, tmp_path)
    llm.script(code("print(round(2 ** 0.5, 3))"))
    assert (await agent.ask("the square root of 2 to 3 decimal places", "c-v1", profile="spoken")).answer == (
        "The result is 1.414")
    llm.script(code("print(f'{64 / 3} dollars each')"))
    assert (await agent.ask("split 64 dollars three ways", "c-v2", profile="spoken")).answer == "21.33 dollars each"
    llm.script(code("import shutil\nprint(shutil.disk_usage('.'))"))
    said = (await agent.ask("how much disk is free", "c-v3", profile="spoken")).answer
    assert re.fullmatch(r"total [\d.]+ \w+bytes, used [\d.]+ \w+bytes, free [\d.]+ \w+bytes", said), said


async def test_thousands_grouped_by_the_code_are_not_heard_as_decimals(make_agent, llm) -> None:
    """``f"{n:,}"`` prints 45,678 (Python groups thousands with ","), which a German, French, Spanish, Dutch or
    Italian voice reads as 45.678; a block that swaps the signs itself printed a decimal comma, kept as it is."""
    agent = make_agent()
    llm.script("```python\nprint(f'Die Stadt hat {45678:,} Einwohner.')\n```")
    reply = await agent.ask("Wie viele Einwohner hat die Stadt laut Liste?", "g1", profile="default", language="de")
    assert "45678 Einwohner" in reply.answer and "45,678" not in reply.answer
    llm.script("```python\nprint(f'Die Wurzel ist {1.4142:.3f}'.replace('.', ','))\n```")
    reply = await agent.ask("Wurzel aus zwei auf drei Stellen", "g2", profile="default", language="de")
    assert "1,414" in reply.answer
