"""Arithmetic slips a block's own structure shows (agent/slips.py): what is found, what is left alone, and a real
turn (Open Interpreter, gate, sandbox, scripted LLM) that is asked once and says the corrected answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from o1_server.agent.slips import FILTERED_MEAN, FLOORED_HOURS, ONE_CASE, code_slip
from tests.server.conftest import conversation_files
from tests.support.scripted_llm import ScriptedLLM

RUNS = [{"runner": "Priya", "km": 5}, {"runner": "Tom", "km": 3}, {"runner": "Priya", "km": 7}]
LOAD = "import json\nwith open('running_club.json') as f:\n    data = json.load(f)\n"


@pytest.mark.parametrize(
    ("src", "start"),
    [
        (LOAD + "total = sum(r['km'] for r in data if r['runner'] == 'Priya')\nprint(total / len(data))", FILTERED_MEAN),
        (LOAD + "print(sum([r['km'] for r in data if r['runner'] == 'Priya']) / len(data))", FILTERED_MEAN),
        (
            LOAD + "total = 0\nfor r in data:\n    if r['runner'] == 'Priya':\n        total += r['km']\n"
            "print('average', total / len(data))",
            FILTERED_MEAN,
        ),
        (
            "import datetime\nstart = datetime.datetime(2026, 1, 1, 6, 40)\nend = datetime.datetime(2026, 1, 1, 10, 15)\n"
            "print((end - start).seconds // 3600, 'ore')",
            FLOORED_HOURS,
        ),
        ("text = 'Erdbeermarmelade'\nprint(text.count('e'))", ONE_CASE),
        ("print('Anna and Alex'.count('a'))", ONE_CASE),
    ],
)
def test_a_slip_is_named(src: str, start: str) -> None:
    found = code_slip(src)
    assert found is not None and found.startswith(start.split("{", 1)[0]), found


@pytest.mark.parametrize(
    "src",
    [
        # the mean over the rows the filter kept, or over every row
        LOAD + "kept = [r['km'] for r in data if r['runner'] == 'Priya']\nprint(sum(kept) / len(kept))",
        LOAD + "print(sum(r['km'] for r in data) / len(data))",
        LOAD + "total = 0\nfor r in data:\n    total += r['km']\nprint(total / len(data))",
        # hours with their minutes, or whole hours with nothing left over to drop
        "s = 12900\nh, rest = divmod(s, 3600)\nprint(h, rest // 60)",
        "s = 12900\nprint(s // 3600, 'h', s % 3600 // 60, 'min')",
        "s = 12900\nprint(s / 3600)",
        "print(7200 // 60)",
        # a letter counted in either case, or in a word that holds it in one case only
        "text = 'Erdbeermarmelade'\nprint(text.lower().count('e'))",
        "print('banana'.count('a'))",
        "print('Erdbeere'.count('r'))",
        "print(1 +",  # does not parse
    ],
)
def test_sound_code_has_no_slip(src: str) -> None:
    assert code_slip(src) is None


def code(src: str) -> str:
    return f"```python\n{src}\n```"


async def test_a_mean_over_the_filtered_rows_is_asked_again(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    """"Going by running_club.json, what's Priya's average distance per run": the sum of her runs divided by
    every runner's (seventh held-out set, now a dev set). Asked once, the model divides by her runs."""
    agent = make_agent()
    conversation_files(tmp_path, "c-mean", {"running_club.json": json.dumps(RUNS)})
    wrong = LOAD + "total = sum(r['km'] for r in data if r['runner'] == 'Priya')\nprint('Priya runs', total / len(data), 'km')"
    right = LOAD + "kept = [r['km'] for r in data if r['runner'] == 'Priya']\nprint('Priya runs', sum(kept) / len(kept), 'km')"
    llm.script(code(wrong), code(right))
    reply = await agent.ask("Going by running_club.json, what's Priya's average distance per run?", "c-mean", profile="default")
    assert reply.retries == 1 and "6" in reply.answer and "4" not in reply.answer, reply.answer
    told = str(llm.requests[1]["messages"][-1]["content"])
    assert "len(data), the count of all of them" in told, told


@pytest.mark.parametrize(
    ("wrong", "said"),
    [
        ("total = sum(r['km'] for r in data if r['runner'] == 'Priya')\nprint('Priya runs', total / len(data), 'km')", "6"),
        ("print('Priya runs', sum([r['km'] for r in data if r['runner'] == 'Priya']) / len(data), 'km')", "6"),
        ("total = 0\nfor r in data:\n    if r['runner'] == 'Priya':\n        total += r['km']\n"
         "print('Priya runs', total / len(data), 'km')", None),  # a loop's sum: told, not handed a block
    ],
)
async def test_a_mean_over_the_filtered_rows_is_handed_back_corrected(
    make_agent, llm: ScriptedLLM, tmp_path: Path, wrong: str, said: str | None
) -> None:
    """Told the slip, the embedded model wrote the same division again (seventh held-out set, run of this
    round): the request now holds the block corrected, dividing by the rows the filter kept; a model that runs
    it says Priya's real mean (6 km, not 4)."""
    agent = make_agent()
    conversation_files(tmp_path, "c-mean-handed", {"running_club.json": json.dumps(RUNS)})
    right = "kept = [r['km'] for r in data if r['runner'] == 'Priya']\nprint('Priya runs', sum(kept) / len(kept), 'km')"
    llm.script(code(LOAD + wrong), llm.handed if said else code(LOAD + right))
    reply = await agent.ask("Going by running_club.json, what's Priya's average distance per run?", "c-mean-handed", profile="default")
    told = str(llm.requests[1]["messages"][-1]["content"])
    assert reply.retries == 1 and "len(data), the count of all of them" in told, told
    assert ("Run this corrected block" in told) is (said is not None), told
    if said:
        assert "Priya runs 6" in reply.answer and "4" not in reply.answer, reply.answer


async def test_hours_floored_from_a_duration_are_asked_again(make_agent, llm: ScriptedLLM) -> None:
    """6:40 to 10:15 said as "3 ore": the minutes were floored away. Asked once, the model says 3 h 35 min."""
    agent = make_agent()
    timing = "import datetime\nd = datetime.datetime.strptime('10:15', '%H:%M') - datetime.datetime.strptime('6:40', '%H:%M')\n"
    llm.script(
        code(timing + "print(f'Il viaggio è durato {d.seconds // 3600} ore.')"),
        code(timing + "h, rest = divmod(d.seconds, 3600)\nprint(f'Il viaggio è durato {h} ore e {rest // 60} minuti.')"),
    )
    reply = await agent.ask("Sono partito alle 6:40 e arrivato alle 10:15. Quanto è durato il viaggio?", "c-hours", profile="default", language="it")
    assert reply.retries == 1 and "3 ore e 35 minuti" in reply.answer, reply.answer
    assert "drops its minutes" in str(llm.requests[1]["messages"][-1]["content"])


@pytest.mark.parametrize(
    ("text", "src", "unused"),
    [
        ("and over 46 working weeks in the year", "print('That is', 91.2 * 52, 'miles')", "46"),
        ("prendo 2 caffè a 1.20 euro l'uno, quanto spendo in 5 giorni?", "print(1.20 * 2)", "5"),
        # context: two (often "my two kids"), this year, an index or a range's end
        ("My 2 kids are 5 and 7. How old together in 3 years?", "print(5 + 3 + 7 + 3)", None),
        ("Sum the numbers from 1 to 20", "print(sum(range(1, 21)))", None),
        ("What's in line 5 of notes.txt?", "print(open('notes.txt').read().splitlines()[4])", None),
        ("what is 5 times 3", "x = " + "1" * 400 + "\nprint(5 * 3)", None),  # a literal too big for a float
        # used: as written, in another unit, as a percent, in a filter's text, in a format spec, a clock time
        ("12 kilo bags and 300 grams a day", "print(12000 / 300)", None),
        ("27,40 euros plus 10 %", "print(27.40 * 1.1)", None),
        ("what did we spend in 2025?", "rows = [r for r in data if r['date'].startswith('2025')]\nprint(len(rows))", None),
        ("the square root of 2 to 3 decimal places", "import math\nprint(f'{math.sqrt(2):.3f}')", None),
        ("if I leave at 8:45 and drive 2 hours", "print(10, 45 + 0 * 2)", None),
        ("4 years at 250 a month", "print(48 * 250)", None),
        ("what is in notes 2.txt and report_3.csv", "print(open('notes 2.txt').read())", None),
        ("how many is 1 and 0", "print(5)", None),
        ("7:30 pm UTC-5, what time is it in UTC+2", "import datetime\nprint(datetime.timedelta(hours=19 + 7, minutes=30))", None),
    ],
)
def test_a_number_the_question_gives_and_the_code_ignores(text: str, src: str, unused: str | None) -> None:
    from o1_server.agent.given import unused_number

    assert unused_number(text, src) == unused


@pytest.mark.parametrize(
    ("language", "text", "src", "unused"),
    [
        ("it", "Ogni mattina prendo 2 caffè al bar a 1.20 euro l'uno. Quanto spendo in 5 giorni?", "print(1.20 * 5)", "2"),
        ("en", "I buy 2 coffees at 3.40 each, what do I spend in 5 days", "print(3.40 * 5)", "2"),
        ("de", "Ich kaufe 2 Brötchen zu je 0.60 Euro an 6 Tagen", "print(0.60 * 6)", "2"),
        ("fr", "Je prends 2 croissants à 1.10 euro pièce, 5 jours par semaine", "print(1.10 * 5)", "2"),
        ("en", "My 2 kids are 5 and 7. How old together in 3 years?", "print(5 + 3 + 7 + 3)", None),  # no price each
        ("it", "Prendo 2 caffè a 1.20 euro l'uno per 5 giorni", "print(2 * 1.20 * 5)", None),
    ],
)
def test_two_is_a_count_where_a_price_is_per_item(language: str, text: str, src: str, unused: str | None) -> None:
    """"Prendo due caffè ... a un euro e venti l'uno" coded 1.20 * 5 (seventh held-out set, a dev set): two is
    left out as context ("my two kids") except where the text prices each item (``words.per_item``)."""
    from o1_server.agent.given import unused_number

    assert unused_number(text, src, language) == unused


async def test_a_number_left_out_of_a_follow_up_is_asked_again(make_agent, llm: ScriptedLLM) -> None:
    """"And over forty six working weeks in the year" after 91.2 miles a week: coded 91.2 * 52 (seventh
    held-out set, now a dev set). The model is asked once to use the 46, and 4195.2 miles are said. A number
    printed only in the code's sentence is not a use of it."""
    agent = make_agent()
    llm.script(
        code("print('That is', 91.2 * 52, 'miles over 46 weeks')"),
        code("print('That is', round(91.2 * 46, 1), 'miles')"),
    )
    reply = await agent.ask("and over forty six working weeks in the year", "c-weeks", profile="default")
    assert reply.retries == 1 and "4195.2" in reply.answer.replace(",", ""), reply.answer
    told = str(llm.requests[1]["messages"][-1]["content"])
    assert "gives the number 46, and your code does not use it" in told, told


async def test_a_letter_counted_in_one_case_is_asked_again(make_agent, llm: ScriptedLLM) -> None:
    """"Wie oft kommt der Buchstabe e im Wort Erdbeermarmelade vor?" counted 4: the capital E was left out
    (seventh held-out set, now a dev set). Asked once, the model counts both cases, and 5 is said."""
    agent = make_agent()
    llm.script(
        code("word = 'Erdbeermarmelade'\nprint('Das e kommt', word.count('e'), 'mal vor.')"),
        code("word = 'Erdbeermarmelade'\nprint('Das e kommt', word.lower().count('e'), 'mal vor.')"),
    )
    reply = await agent.ask("Wie oft kommt der Buchstabe e im Wort Erdbeermarmelade vor?", "c-case", profile="default",
                            language="de")
    assert reply.retries == 1 and "5" in reply.answer, reply.answer
    assert "which also holds 'E'" in str(llm.requests[1]["messages"][-1]["content"])


@pytest.mark.parametrize(
    ("text", "src", "fixed"),
    [
        ("and over 46 working weeks in the year", "print('That is', 91.2 * 52, 'miles')", "91.2 * 46"),
        ("I work 37 hours a week at 15 an hour, what do I earn a week", "print(40 * 15)", "37 * 15"),
        ("a month of 28 days at 12 euros a day", "print(30 * 12)", "28 * 12"),
        ("what is 46 percent of 200", "print(200 * 100)", None),  # 100 is no stand-in for 46
        ("46 weeks at 7 days and 52 cards", "print(52 * 7)", None),  # 52 is the user's
        ("over 46 weeks, 52 or 365 days", "print(52 * 365)", None),  # two candidates: told only
    ],
)
def test_an_assumed_number_is_replaced_by_the_users(text: str, src: str, fixed: str | None) -> None:
    """52 weeks coded where the user said 46 (seventh held-out set, a dev set): the request hands back the
    block with the user's number; only one assumed number, not the user's own, within a factor of two."""
    from o1_server.agent.given import replaced_default, unused_number

    said = unused_number(text, src, "en")
    handed = replaced_default(text, src, said) if said else None
    assert (fixed is None and handed is None) or (handed is not None and fixed in handed), handed


async def test_an_assumed_number_is_handed_back_replaced(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent()
    llm.script(code("print('That is', 91.2 * 52, 'miles')"), llm.handed)
    reply = await agent.ask("and over forty six working weeks in the year", "c-weeks-handed", profile="default")
    assert reply.retries == 1 and "4195.2" in reply.answer.replace(",", ""), reply.answer


@pytest.mark.parametrize(
    "src",
    [
        # a breaker's finds: a name bound twice, a filter that leaves out only zeros, a sign the code tests,
        # a negated difference, a capital asked for
        "total = sum(r['km'] for r in data if r['runner'] == 'Priya')\nprint(total)\n"
        "total = sum(r['km'] for r in data)\nprint('mean of all runs', total / len(data))",
        "sales = [1, 0, 3]\nprint(sum(s for s in sales if s > 0) / len(sales))",
        "word = 'Anna'\nword = word.lower()\nprint(word.count('a'))",
    ],
)
def test_what_the_slips_leave_alone(src: str) -> None:
    assert code_slip(src) is None


def test_what_is_told_and_not_handed() -> None:
    from o1_server.agent.slips import positive_days

    told = code_slip("print('Anna Hannah'.count('A'))")  # "capital A" may have been asked
    assert told is not None and "Run this corrected block" not in told
    told = code_slip("print('Anna'.count('a'))\ny = " + "+".join(["1"] * 800))  # too deep to write back
    assert told is not None and "Run this corrected block" not in told
    sign = "from datetime import date\nd = (date(2026, 5, 1) - date.today()).days\nif d < 0:\n    d += 365\nprint(d)"
    assert positive_days(sign) is None
    assert positive_days("from datetime import date\nprint(-(date(2026, 5, 1) - date(2026, 6, 1)).days)") is None


@pytest.mark.parametrize(
    ("language", "text", "src", "fixed"),
    [
        ("it", "Il parrucchiere costa 32.50 euro e voglio lasciare il 10 per cento di mancia. Quanto pago in tutto?",
         "costo = 32.50\nmancia = 10 / 100\nprint('Pago', costo * (1 - mancia), 'euro')", "costo * (1 + mancia)"),
        ("nl", "De rekening is 167.50 euro voor 5. En als we 10 procent fooi geven, wat wordt dan het totaal?",
         "print('Totaal', 167.50 * 0.9, 'euro')", "167.5 * 1.1"),
        ("en", "The bill is 80 dollars, add a 15 percent tip", "bill = 80\ntip = 0.15\nprint(bill - bill * tip)",
         "bill + bill * tip"),
        ("de", "Das Taxi kostet 27.40 Euro, ich gebe 10 Prozent Trinkgeld. Wie viel zahle ich?",
         "print(27.40 - 27.40 * 10 / 100)", "27.4 + 27.4 * 10 / 100"),
        # added already, a discount beside the tip, several percents, a subtraction of something else
        ("en", "The bill is 80 dollars, add a 15 percent tip", "print(80 * 1.15)", None),
        ("en", "80 dollars with a 10 percent discount and a 15 percent tip", "print(80 * 0.9 * 1.15)", None),
        ("en", "80 dollars and a 15 percent tip split by 4, minus the 5 I paid", "print(80 * 1.15 / 4 - 5)", None),
        ("fr", "L'addition fait 60 euros, combien de pourboire à 10 pour cent ?", "print(60 * 0.1)", None),
        ("en", "How much is 80 minus 15 percent?", "print(80 * 0.85)", None),  # no tip: a plain discount
        # a breaker's finds: money left after paying, a tip included, a price cut, Spanish "sale" ("comes to")
        ("en", "I have 100 euros. Dinner costs 80 and I add a 15% tip. How much money do I have left?",
         "left = 100 - 80 * 1.15\nprint(round(left, 2))", None),
        ("en", "Give me a tip: if I cut my 90 euro heating bill by 20%, what do I pay?", "print(90 * 0.8)", None),
        ("en", "The bill is 88 including a 10% tip. How much was the tip?", "print(88 - 88 / 1.1)", None),
        ("it", "Il servizio clienti dice che la bolletta di 80 euro scende del 20%", "print(80 * 0.8)", None),
        ("es", "La cena sale a 80 euros y dejo un 10% de propina, ¿cuánto pago?", "print(80 * 0.9)", "80 * 1.1"),
    ],
)
def test_a_tip_taken_off_is_handed_back_added(language: str, text: str, src: str, fixed: str | None) -> None:
    """"Il dieci per cento di mancia. Quanto pago in tutto?" coded ``32.50 * (1 - 0.1)``, "tien procent fooi"
    coded ``* 0.9`` (eighth held-out set, now a dev set): the block comes back with the percent added."""
    from o1_server.agent.given import ADDED_PERCENT, taken_off

    told = taken_off(text, src, language)
    if fixed is None:
        assert told is None, told
        return
    assert told is not None and told.startswith(ADDED_PERCENT.split("{", 1)[0]), told
    assert "Run this corrected block" in told and fixed in told, told


async def test_a_tip_taken_off_is_said_added(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent()
    llm.script(code("costo = 32.50\nmancia = 10 / 100\nprint('Pago', costo * (1 - mancia), 'euro')"), llm.handed)
    reply = await agent.ask(
        "Il parrucchiere costa trentadue euro e cinquanta e voglio lasciare il dieci per cento di mancia. Quanto "
        "pago in tutto?", "c-tip-it", profile="default", language="it"
    )
    assert reply.retries == 1 and "35,75" in reply.answer, reply.answer


SOLAR = "maand,kwh\njanuari,96\nfebruari,141\nmei,412\njuni,388\n"
READ_SOLAR = "import csv\nwith open('zon.csv', newline='') as f:\n    data = list(csv.reader(f))[1:]\n"


@pytest.mark.parametrize(
    ("src", "fixed"),
    [
        (READ_SOLAR + "top = max(row[1] for row in data)\nmonth = next(r[0] for r in data if r[1] == top)\n"
         "print(month, top)", "max((row[1] for row in data), key=lambda v: float(v))"),
        (READ_SOLAR + "best = max(data, key=lambda r: r[1])\nprint(best[0], best[1])",
         "max(data, key=lambda r: float(r[1]))"),
        (READ_SOLAR + "for r in sorted(data, key=lambda r: r[1], reverse=True):\n    print(r[0])",
         "sorted(data, key=lambda r: float(r[1]), reverse=True)"),
        ("import csv\nrows = list(csv.DictReader(open('zon.csv')))\nprint(max(rows, key=lambda r: r['kwh'])['maand'])",
         "key=lambda r: float(r['kwh'])"),
        # numbers already, a JSON file's numbers, names ordered as words
        (READ_SOLAR + "print(max(float(row[1]) for row in data))", None),
        (READ_SOLAR + "print(max(data, key=lambda r: int(r[1]))[0])", None),
        ("import json\nrows = json.load(open('zon.json'))\nprint(max(r['kwh'] for r in rows))", None),
        (READ_SOLAR + "print(sorted(row[0] for row in data)[0])", None),  # month names: ordered as words
        (READ_SOLAR.replace("zon.csv", "elders.csv") + "print(max(row[1] for row in data))", None),  # no such file
        # a breaker's finds: a header row kept, dates, a name with a null byte
        ("import csv\ndata = list(csv.reader(open('zon.csv')))\nprint(max(row[1] for row in data))", None),
        (READ_SOLAR.replace("zon.csv", "data.csv") + "print(max(row[0] for row in data))", None),
        (READ_SOLAR + "x = 'a\\x00.csv'\nprint(max(row[1] for row in data))", "key=lambda v: float(v)"),
    ],
)
def test_a_csv_files_cells_ordered_as_texts_are_made_numbers(src: str, fixed: str | None, tmp_path: Path) -> None:
    from o1_server.agent.slips import TEXT_ORDER

    (tmp_path / "zon.csv").write_text(SOLAR)
    (tmp_path / "data.csv").write_text("Datum;Betrag\n01.05.2024;12,50\n03.06.2024;8,00\n")
    assert code_slip(src) is None  # no folder to read the cells in
    told = code_slip(src, tmp_path)
    if fixed is None:
        assert told is None, told
        return
    assert told is not None and told.startswith(TEXT_ORDER.split("{", 1)[0]) and fixed in told, told


async def test_the_largest_number_of_a_csv_file_is_said(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    """"In welke maand hebben de zonnepanelen het meest opgewekt?" said "februari, 96 kWh" (eighth held-out set,
    now a dev set): the texts' max, handed back as numbers' and run."""
    agent = make_agent()
    conversation_files(tmp_path, "c-solar", {"zon.csv": SOLAR})
    src = READ_SOLAR + "top = max(row[1] for row in data)\nmonth = next(r[0] for r in data if r[1] == top)\n"
    llm.script(code(src + "print('Het meest in', month, 'met', top, 'kWh')"), llm.handed)
    reply = await agent.ask("In welke maand het meest opgewekt?", "c-solar", profile="default", language="nl")
    assert reply.retries == 1 and "mei" in reply.answer and "412" in reply.answer, reply.answer


def test_a_pipe_or_a_link_out_of_the_folder_is_never_read(tmp_path: Path) -> None:
    """Found by a breaker: a named pipe ``pipe.csv`` named in the code blocked the server in open(), and a link
    was followed out of the folder."""
    import os

    box, outside = tmp_path / "box", tmp_path / "outside.csv"
    box.mkdir()
    os.mkfifo(box / "pipe.csv")
    outside.write_text(SOLAR)
    (box / "link.csv").symlink_to(outside)
    for name in ("pipe.csv", "link.csv"):
        assert code_slip(READ_SOLAR.replace("zon.csv", name) + "print(max(row[1] for row in data))", box) is None
