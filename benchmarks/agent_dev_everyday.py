"""Everyday tuning cases of the agent benchmark: what a household asks its kitchen speaker, in six languages.

72 conversations (en 24, de/fr/es 12 each, it/nl 6 each), all ``dev``, weighted toward the agent's weak kinds
(``COUNTS``): money (cents kept, VAT, discounts, tips, shares, unit prices, a stated exchange rate), data
(semicolon CSV with decimal commas outside English, comma CSV, JSON; filtered by month, category, person or
date, then summed, averaged, counted or the largest found), calendar (weekday of a date, days until, a date N
days or weeks after another, the month N weeks from today, an age), structures (lists and dicts in files:
sorted, top three, counted per category, read aloud), conversion, files (count, list, find, newest, largest, by
extension, one line), arithmetic, duration and follow-ups (the second turn reuses the first's answer or file).
Numbers are said in words the way people say them ("zwei Euro fünfzig", "quatre-vingt-dix", "dos con
cincuenta"). Expected values are computed here from the stated figures and the files; whatever depends on today
when the check runs. tests/server/test_dev_everyday_checks.py tries every check. Run:
``benchmarks/agent --cases benchmarks.agent_dev_everyday --split dev --no-home --models qwen2.5-coder-1.5b``
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from benchmarks import agent_checks as ck
from benchmarks.agent_cases import Case, Result
from benchmarks.agent_dev_multi import (
    _num,
    _semi,
    _total,
    cents,
    exact,
    mentions,
    tenth,
)
from benchmarks.agent_lang import month_names, numbers_in

Check = ck.Check


# ------------------------------------------------------------------ checks (over agent_checks' and agent_dev_multi's)


def about(x: float, lang: str) -> Check:
    """Conversions: the answer holds ``x`` within 1 %."""
    return ck.says_value(x, lang, 0.011, 0.01)


def _word(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(name.lower())}(?!\w)")


def in_order(names: list[str], absent: tuple[str, ...] = ()) -> Check:
    """The answer names every one of ``names`` (whole words, case-insensitive), first mentions in that order,
    and none of ``absent`` (a top three that goes on to the fourth is wrong)."""

    def check(r: Result) -> bool:
        low = r.answer.lower()
        spots = [_word(n).search(low) for n in names]
        if not all(spots):
            return False
        starts = [m.start() for m in spots if m]
        return starts == sorted(starts) and not any(_word(a).search(low) for a in absent)

    return check


def per_category(counts: dict[str, int], lang: str) -> Check:
    """Counts per category: each category (a word start: "tin" for tins) is said with its own count, either
    every count after its category ("tins: 4, baking: 5") or every count before it ("4 tins, 5 baking")."""

    def check(r: Result) -> bool:
        low = r.answer.lower()
        spots = []
        for name, n in counts.items():
            m = re.search(rf"(?<!\w){re.escape(name.lower())}", low)
            if not m:
                return False
            spots.append((m.start(), m.end(), n))
        spots.sort()

        def holds(segment: str, n: int) -> bool:
            return any(abs(v - n) < 1e-9 for v in numbers_in(segment, lang))

        ends = [s for s, _, _ in spots[1:]] + [len(low)]
        starts = [0] + [e for _, e, _ in spots[:-1]]
        after = all(holds(low[s:end], n) for (s, _, n), end in zip(spots, ends, strict=True))
        before = all(holds(low[start:s], n) for (s, _, n), start in zip(spots, starts, strict=True))
        return after or before

    return check


def _forms(name: str) -> set[str]:
    """A file as an answer may say it: its name, its stem, the stem with spaces for _ and -."""
    stem = Path(name).stem if "." in name else name
    return {name, stem, re.sub(r"[_-]+", " ", stem)}


def named_first(target: str, others: list[str]) -> Check:
    """A "which file" answer: it names ``target`` (name or stem) before any of ``others``."""

    def first(low: str, name: str) -> int | None:
        found = [m.start() for f in _forms(name) for m in [_word(f).search(low)] if m]
        return min(found) if found else None

    def check(r: Result) -> bool:
        low = r.answer.lower()
        at = first(low, target)
        rivals = [p for p in (first(low, o) for o in others) if p is not None]
        return at is not None and all(at < p for p in rivals)

    return check


def says_month(day: Callable[[], dt.date], lang: str) -> Check:
    """The answer names the month of ``day()`` (called when the check runs), in ``lang`` or English, and no
    other month."""

    def check(r: Result) -> bool:
        low = r.answer.lower()
        said = {
            i for names in (month_names(lang), month_names("en")) for i, m in enumerate(names) if _word(m).search(low)
        }
        return said == {day().month - 1}

    return check


def age(born: dt.date) -> int:
    """Years since ``born``, today."""
    today = dt.date.today()
    return today.year - born.year - ((today.month, today.day) < (born.month, born.day))


def aged(born: dt.date, lang: str) -> Check:
    """The answer holds the age of someone born on ``born``, computed when the check runs."""
    return lambda r: exact(age(born), lang)(r)


def only_day(day: dt.date, others: list[dt.date], lang: str) -> Check:
    """The answer names the date ``day`` and none of ``others`` (a list of every file's date is wrong)."""
    return lambda r: ck.says_day(lambda: day, lang)(r) and not any(ck.says_day(lambda o=o: o, lang)(r) for o in others)


def digits(number: str) -> Check:
    """The answer holds the digits of ``number`` in a row (a phone number read out, spaces anyhow)."""
    return lambda r: number in re.sub(r"\D", "", r.answer)


def _rows(text: str) -> list[dict[str, str]]:
    """The rows of a comma CSV."""
    return list(csv.DictReader(io.StringIO(text)))


def minutes(h: int, m: int) -> int:
    """A clock time as minutes after midnight."""
    return h * 60 + m


def _json(data: object) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False)


CASES: list[Case] = []


def case(key: str, turns: str | list[str], check: Check, files: dict[str, str] | None = None) -> None:
    """Add the dev case ``dx-<id>`` of ``key`` = "<kind> <language> <id>"."""
    kind, lang, cid = key.split()
    turns = [turns] if isinstance(turns, str) else turns
    CASES.append(Case(f"dx-{cid}", kind, turns, check, dict(files or {}), language=lang, split="dev"))


# ================================================================== English

SPENDING = (
    "date,shop,amount\n2026-10-03,Tesco,64.18\n2026-10-11,Aldi,41.07\n2026-10-24,Tesco,58.92\n"
    "2026-11-02,Tesco,72.45\n2026-11-06,Aldi,38.60\n2026-11-13,Tesco,49.99\n2026-11-19,Co-op,12.35\n"
    "2026-11-27,Tesco,81.14\n2026-12-01,Tesco,66.70\n"
)
CHORES = [
    {"child": "Ella", "chore": "washing up", "paid": 1.50},
    {"child": "Finn", "chore": "bins", "paid": 1.00},
    {"child": "Ella", "chore": "hoovering", "paid": 2.00},
    {"child": "Finn", "chore": "hoovering", "paid": 2.00},
    {"child": "Ella", "chore": "walking the dog", "paid": 2.50},
    {"child": "Ella", "chore": "washing up", "paid": 1.50},
    {"child": "Finn", "chore": "washing the car", "paid": 4.00},
    {"child": "Ella", "chore": "weeding the garden", "paid": 3.25},
]
METER = (
    "date,kwh\n2026-01-12,11.4\n2026-01-13,12.8\n2026-01-14,15.3\n2026-01-15,13.9\n2026-01-16,14.7\n"
    "2026-01-17,18.6\n2026-01-18,16.2\n"
)
BOOKS = (
    "title,author,finished\nThe Salt Path,Raynor Winn,2026-02-14\nKlara and the Sun,Kazuo Ishiguro,2026-03-02\n"
    "Piranesi,Susanna Clarke,2026-03-11\nHamnet,Maggie O'Farrell,2026-03-18\n"
    "The Lincoln Highway,Amor Towles,2026-03-29\nSmall Things Like These,Claire Keegan,2026-04-05\n"
    "Project Hail Mary,Andy Weir,2026-01-22\n"
)
QUIZ = {"Grandma Jean": 47, "Uncle Dev": 52, "Maya": 39, "Oscar": 58, "Priya": 44, "Dad": 31}
PANTRY = [
    {"item": "chopped tomatoes", "category": "tins"},
    {"item": "spaghetti", "category": "grains"},
    {"item": "plain flour", "category": "baking"},
    {"item": "chickpeas", "category": "tins"},
    {"item": "cumin", "category": "spices"},
    {"item": "basmati rice", "category": "grains"},
    {"item": "caster sugar", "category": "baking"},
    {"item": "coconut milk", "category": "tins"},
    {"item": "baking powder", "category": "baking"},
    {"item": "smoked paprika", "category": "spices"},
    {"item": "cocoa", "category": "baking"},
    {"item": "sweetcorn", "category": "tins"},
    {"item": "porridge oats", "category": "grains"},
    {"item": "dried yeast", "category": "baking"},
]
SHOPPING = [
    {"item": "oat milk", "done": True},
    {"item": "bin bags", "done": False},
    {"item": "lemons", "done": False},
    {"item": "toothpaste", "done": True},
    {"item": "basil", "done": False},
    {"item": "rye bread", "done": False},
]
MIXED = {
    "budget_2025.csv": "month,spent\nJanuary,1840\n",
    "budget_2026.csv": "month,spent\nJanuary,1912\n",
    "meter_readings.csv": "date,reading\n2026-01-01,48213\n",
    "recipes.txt": "Shepherd's pie\nLentil soup\n",
    "holiday.json": '{"where": "Cornwall", "nights": 5}\n',
    "notes.md": "# Notes\nCall the boiler man\n",
}
SPEECH = (
    "Good evening everyone. For those who don't know me, I'm Tom, the groom's older brother, and I've been asked to "
    "say a few words, which is brave of them. When James was six he told our mum he was going to marry the girl "
    "next door. It took him twenty-four years and a move to Leeds, but here we are. Emma, welcome to the family: "
    "we are loud, we are late, and we will always turn up with cake. Please raise your glasses to the bride and "
    "groom.\n"
)
BIGGEST = {
    "speech.txt": SPEECH,
    "todo.txt": "fix the gate\nbook the MOT\nreturn library books\n",
    "wifi.txt": "network: Hadley-Home\npassword: blue-kettle-42\n",
    "addresses.csv": "name,town\nAuntie Pat,Bristol\nThe Okafors,Reading\nMr and Mrs Cole,York\n",
}
PACKING = "passports and tickets\nphone chargers\nsun cream and hats\nswimming things\nthe baby's steriliser\n"
PANCAKES = "Pancakes (serves 4)\n200 g plain flour\n2 eggs\n300 ml milk\n1 pinch of salt\n"
_tesco = sum(float(r["amount"]) for r in _rows(SPENDING) if r["shop"] == "Tesco" and r["date"][5:7] == "11")
_meter = max(_rows(METER), key=lambda r: float(r["kwh"]))
_quiz = sorted(QUIZ, key=QUIZ.get, reverse=True)
_biggest = max(BIGGEST, key=lambda n: len(BIGGEST[n].encode()))
_flour = int(re.search(r"(\d+) g plain flour", PANCAKES)[1])
_serves = int(re.search(r"serves (\d+)", PANCAKES)[1])

case(
    "money en paint-en",
    "we need three tins of paint at twenty four ninety nine each and two rollers at six forty five, and the shop "
    "knocks fifteen percent off the whole lot, so what do I actually pay",
    cents((3 * 24.99 + 2 * 6.45) * 0.85, "en"),
)
case(
    "money en rice-en",
    "which works out cheaper per kilo, the big bag of rice, five kilos for eleven pounds forty, or the small one, "
    "a kilo and a half for three seventy five? and what's the price per kilo of the cheaper one",
    cents(min(11.40 / 5, 3.75 / 1.5), "en"),
)
case(
    "money en jacket-en",
    "I'm ordering a jacket online for a hundred and eighty nine euros, my card uses eighty six pence to the euro "
    "and adds a two point nine nine percent fee on top, how much is that in pounds",
    cents(189 * 0.86 * 1.0299, "en"),
)
case(
    "money en quarter-bill-en",
    "the electricity bill for the quarter is two hundred and thirty seven pounds sixty, there are three of us in "
    "the flat but Sam was away for one of the three months so he only pays half a share, what does each of us pay",
    ck.all_of(cents(237.60 / 2.5, "en"), cents(237.60 / 2.5 / 2, "en")),
)
case(
    "data en tesco-en",
    "how much did we spend at Tesco in November? it's all in spending.csv",
    cents(_tesco, "en"),
    {"spending.csv": SPENDING},
)
case(
    "data en pocket-money-en",
    "can you add up how much pocket money Ella has earned from her chores? they're in chores.json",
    cents(sum(c["paid"] for c in CHORES if c["child"] == "Ella"), "en"),
    {"chores.json": _json(CHORES)},
)
case(
    "data en meter-en",
    "which day last week did we use the most electricity and how many kilowatt hours was it? meter.csv has the "
    "daily readings",
    ck.all_of(ck.says_day(lambda: dt.date.fromisoformat(_meter["date"]), "en"), tenth(float(_meter["kwh"]), "en")),
    {"meter.csv": METER},
)
case(
    "data en books-en",
    "going by books.csv, how many books did I finish in March",
    exact(sum(r["finished"][5:7] == "03" for r in _rows(BOOKS)), "en"),
    {"books.csv": BOOKS},
)
case(
    "calendar en july-en",
    "what day of the week is the fourth of July twenty twenty seven",
    ck.says_weekday(lambda: dt.date(2027, 7, 4), "en"),
)
case(
    "calendar en dentist-en",
    "the dentist wants to see me again six weeks after the ninth of March, what date is that",
    ck.says_day(lambda: dt.date(2026, 3, 9) + dt.timedelta(weeks=6), "en"),
)
case(
    "calendar en grandad-en",
    "my grandad was born on the second of November nineteen forty one, how old is he now",
    aged(dt.date(1941, 11, 2), "en"),
)
case(
    "structures en quiz-en",
    "who are the top three in quiz_scores.json? highest first please",
    in_order([n.split()[-1] for n in _quiz[:3]], tuple(n.split()[-1] for n in _quiz[3:])),
    {"quiz_scores.json": _json(QUIZ)},
)
case(
    "structures en pantry-en",
    "how many things have I got in each category in pantry.json",
    per_category({k.rstrip("s"): n for k, n in Counter(p["category"] for p in PANTRY).items()}, "en"),
    {"pantry.json": _json(PANTRY)},
)
case(
    "structures en shopping-left-en",
    "read me what's still left to get on the shopping list, it's shopping.json, the ticked off ones are marked done",
    ck.all_of(
        ck.spoken_list([s["item"] for s in SHOPPING if not s["done"]]),
        ck.names_all([], [s["item"] for s in SHOPPING if s["done"]]),
    ),
    {"shopping.json": _json(SHOPPING)},
)
case(
    "conversion en oven-en",
    "this American recipe says three hundred and fifty degrees, that's Fahrenheit, what is it in Celsius",
    about((350 - 32) * 5 / 9, "en"),
)
case(
    "conversion en cups-en",
    "how many millilitres is two and three quarter cups, if a cup is two hundred and forty millilitres",
    about(2.75 * 240, "en"),
)
case(
    "conversion en half-marathon-en",
    "I just ran a half marathon, thirteen point one miles, how many kilometres is that",
    about(13.1 * 1.609344, "en"),
)
case(
    "files en csv-count-en",
    "how many of the files in here are spreadsheets, I mean csv files",
    exact(sum(n.endswith(".csv") for n in MIXED), "en"),
    MIXED,
)
case(
    "files en biggest-en",
    "which file in the folder is the biggest",
    named_first(_biggest, [n for n in BIGGEST if n != _biggest]),
    BIGGEST,
)
case(
    "files en packing-en",
    "what does the third line of packing_list.txt say",
    mentions(*PACKING.splitlines()[2].split(" and ")),
    {"packing_list.txt": PACKING},
)
case("arithmetic en times-en", "what's three hundred and twelve times forty seven", exact(312 * 47, "en"))
case(
    "arithmetic en percent-en",
    "what is seventeen and a half percent of two thousand four hundred",
    exact(round(2400 * 0.175), "en"),
)
case(
    "duration en shift-en",
    "my shift started at quarter to seven this morning and I finished at twenty past four, and I had a forty five "
    "minute lunch, how long did I actually work",
    ck.says_duration(minutes(16, 20) - minutes(6, 45) - 45, "en"),
)
case(
    "follow-up en pancakes-en",
    ["how much flour goes into the pancakes in pancakes.txt", "and if I make them for ten people"],
    exact(_flour * 10 // _serves, "en"),
    {"pancakes.txt": PANCAKES},
)

# ================================================================== German

HAUSHALT = (
    "Datum;Person;Kategorie;Betrag\n02.04.2026;Lukas;Freizeit;12,50\n09.04.2026;Anna;Kleidung;39,99\n"
    "15.04.2026;Lukas;Freizeit;8,00\n03.05.2026;Lukas;Freizeit;15,90\n07.05.2026;Anna;Freizeit;22,40\n"
    "12.05.2026;Lukas;Kleidung;29,95\n18.05.2026;Lukas;Freizeit;6,75\n24.05.2026;Lukas;Freizeit;11,20\n"
    "30.05.2026;Anna;Schule;14,60\n"
)
EINKAEUFE = (
    "Datum;Laden;Betrag\n05.06.2026;Aldi;47,83\n08.06.2026;Rewe;71,30\n12.06.2026;Aldi;62,15\n"
    "16.06.2026;Edeka;24,99\n19.06.2026;Aldi;38,40\n23.06.2026;Rewe;56,75\n27.06.2026;Aldi;55,02\n"
)
GEBURTSTAGE = [
    {"name": "Opa Heinz", "geburtstag": "1950-09-12"},
    {"name": "Tante Gabi", "geburtstag": "1968-03-28"},
    {"name": "Leonie", "geburtstag": "2015-01-07"},
    {"name": "Max", "geburtstag": "2018-11-30"},
    {"name": "Mama", "geburtstag": "1976-06-15"},
]
PROTOKOLLE = {
    "2025-11-05_elternabend.txt": "Elternabend Klasse 3b\nThema: Klassenfahrt\n",
    "2026-03-12_elternabend.txt": "Elternabend Klasse 3b\nThema: Schwimmunterricht\n",
    "2026-01-20_elternabend.txt": "Elternabend Klasse 3b\nThema: Zeugnisse\n",
    "einkaufsliste.txt": "Milch\nEier\n",
}
_geburtstage = sorted(GEBURTSTAGE, key=lambda g: g["geburtstag"][5:])
_protokolle = sorted(dt.date.fromisoformat(n[:10]) for n in PROTOKOLLE if n[:4].isdigit())
_lukas = [r for r in _semi(HAUSHALT) if r["Person"] == "Lukas" and r["Kategorie"] == "Freizeit"]
_aldi = [_num(r["Betrag"]) for r in _semi(EINKAEUFE) if r["Laden"] == "Aldi"]

case(
    "money de pfand-de",
    "Ich bring zwölf Flaschen zu fünfundzwanzig Cent und zwanzig Flaschen zu acht Cent Pfand zurück und kauf dann "
    "eine Kiste Wasser für vier Euro neunundneunzig plus drei Euro dreißig Pfand. Was muss ich noch draufzahlen?",
    cents(4.99 + 3.30 - (12 * 0.25 + 20 * 0.08), "de"),
)
case(
    "money de skonto-de",
    "Die Waschmaschine kostet fünfhundertneunundneunzig Euro, und wenn ich bar zahle, krieg ich drei Prozent "
    "Skonto. Was zahl ich dann?",
    cents(599 * 0.97, "de"),
)
case(
    "data de lukas-de",
    "Wie viel hat Lukas im Mai für Freizeit ausgegeben? Das steht alles im haushaltsbuch.csv.",
    cents(sum(_num(r["Betrag"]) for r in _lukas if r["Datum"][3:5] == "05"), "de"),
    {"haushaltsbuch.csv": HAUSHALT},
)
case(
    "data de aldi-de",
    "Was haben wir bei Aldi so im Schnitt pro Einkauf bezahlt? Guck mal in einkaeufe.csv.",
    cents(sum(_aldi) / len(_aldi), "de"),
    {"einkaeufe.csv": EINKAEUFE},
)
case(
    "calendar de heiligabend-de",
    "Sag mal, wie viele Tage sind es noch bis Heiligabend?",
    ck.says_days_until(12, 24, "de"),
)
case(
    "calendar de einheit-de",
    "Auf welchen Wochentag fällt der dritte Oktober zweitausendsiebenundzwanzig?",
    ck.says_weekday(lambda: dt.date(2027, 10, 3), "de"),
)
case(
    "structures de geburtstage-de",
    "Lies mir die Geburtstage aus geburtstage.json der Reihe nach vor, so wie sie im Jahr kommen, angefangen im "
    "Januar.",
    in_order([g["name"].split()[-1] for g in _geburtstage]),
    {"geburtstage.json": _json(GEBURTSTAGE)},
)
case(
    "conversion de fieber-de",
    "Das Fieberthermometer aus Amerika zeigt hundertzwei Komma zwei Grad Fahrenheit. Wie viel Grad Celsius sind das?",
    about((102.2 - 32) * 5 / 9, "de"),
)
case(
    "files de elternabend-de",
    "Welches Protokoll vom Elternabend ist das neueste? Von wann ist das?",
    only_day(_protokolle[-1], _protokolle[:-1], "de"),
    PROTOKOLLE,
)
case(
    "arithmetic de teilen-de",
    "Was ist achthundertfünfundsiebzig geteilt durch fünfunddreißig?",
    exact(875 // 35, "de"),
)
case(
    "duration de zug-de",
    "Der ICE fährt um sieben Uhr achtundvierzig in Hamburg los und ist um zwölf Uhr zweiundzwanzig in Köln. Wie "
    "lange bin ich unterwegs?",
    ck.says_duration(minutes(12, 22) - minutes(7, 48), "de"),
)
case(
    "follow-up de pizza-de",
    [
        "Wir bestellen vier Pizzen zu neun Euro neunzig und zwei Salate zu sechs Euro fünfzig. Was kostet das?",
        "Und wenn wir das durch fünf teilen?",
    ],
    cents((4 * 9.90 + 2 * 6.50) / 5, "de"),
)

# ================================================================== French

CANTINE = (
    "date;enfant;montant\n02/02/2026;Léa;16,80\n02/02/2026;Tom;12,60\n09/02/2026;Léa;16,80\n"
    "09/02/2026;Tom;16,80\n16/02/2026;Léa;8,40\n23/02/2026;Léa;12,60\n23/02/2026;Tom;16,80\n"
    "02/03/2026;Léa;16,80\n02/03/2026;Tom;16,80\n"
)
MARCHE = "date;montant\n07/03/2026;23,40\n14/03/2026;31,85\n21/03/2026;27,10\n28/03/2026;35,60\n04/04/2026;29,95\n"
FILMS = [
    {"titre": "Intouchables", "genre": "comédie"},
    {"titre": "Le Roi lion", "genre": "animation"},
    {"titre": "Les Choristes", "genre": "drame"},
    {"titre": "Astérix : Mission Cléopâtre", "genre": "comédie"},
    {"titre": "Ratatouille", "genre": "animation"},
    {"titre": "L.627", "genre": "policier"},
    {"titre": "Le Dîner de cons", "genre": "comédie"},
    {"titre": "Kirikou", "genre": "animation"},
    {"titre": "Les Petits Mouchoirs", "genre": "comédie"},
    {"titre": "Le Cercle rouge", "genre": "policier"},
]
DOSSIER = {
    "bulletin.pdf": "%PDF-1.4 bulletin du premier trimestre\n",
    "assurance.pdf": "%PDF-1.4 contrat habitation\n",
    "facture.pdf": "%PDF-1.4 facture EDF\n",
    "classe.jpg": "JFIF photo de classe\n",
    "noel.txt": "liste de Noël\n",
    "budget.ods": "budget familial\n",
}
CARBURANT = (
    "date;litres;montant\n03/03/2026;42,15;76,50\n12/03/2026;38,60;69,10\n24/03/2026;45,30;80,85\n"
    "05/04/2026;40,00;71,60\n"
)
_marche = max(_semi(MARCHE), key=lambda r: _num(r["montant"]))

case(
    "money fr fromage-fr",
    "le comté est à vingt-trois euros quatre-vingts le kilo, j'en prends trois cent cinquante grammes, ça me fait "
    "combien ?",
    cents(23.80 * 0.350, "fr"),
)
case(
    "money fr pourboire-fr",
    "le repas fait quatre-vingt-dix-sept euros soixante, on laisse dix pour cent de pourboire et on est quatre, ça "
    "fait combien chacun ?",
    cents(97.60 * 1.10 / 4, "fr"),
)
case(
    "data fr cantine-fr",
    "combien on a payé de cantine pour Léa en février ? tout est dans cantine.csv",
    cents(sum(_num(r["montant"]) for r in _semi(CANTINE) if r["enfant"] == "Léa" and r["date"][3:5] == "02"), "fr"),
    {"cantine.csv": CANTINE},
)
case(
    "data fr marche-fr",
    "d'après marche.csv, c'est quel samedi que j'ai le plus dépensé au marché, et combien ?",
    ck.all_of(
        ck.says_day(lambda: dt.datetime.strptime(_marche["date"], "%d/%m/%Y").date(), "fr"),
        cents(_num(_marche["montant"]), "fr"),
    ),
    {"marche.csv": MARCHE},
)
case(
    "calendar fr traitement-fr",
    "quatre-vingt-dix jours après le vingt-huit février deux mille vingt-sept, on sera quel jour ?",
    ck.says_day(lambda: dt.date(2027, 2, 28) + dt.timedelta(days=90), "fr"),
)
case(
    "calendar fr semaines-fr",
    "dans dix-neuf semaines, on sera en quel mois ?",
    says_month(lambda: dt.date.today() + dt.timedelta(weeks=19), "fr"),
)
case(
    "structures fr genres-fr",
    "dans films.json, il y a combien de films de chaque genre ?",
    per_category(dict(Counter(f["genre"] for f in FILMS)), "fr"),
    {"films.json": _json(FILMS)},
)
case(
    "conversion fr chocolat-fr",
    "la recette anglaise dit douze onces de chocolat, ça fait combien de grammes ? une once c'est vingt-huit "
    "virgule trente-cinq grammes",
    about(12 * 28.35, "fr"),
)
case(
    "files fr pdf-fr",
    "c'est quoi les fichiers PDF dans le dossier ?",
    ck.names_all([n for n in DOSSIER if n.endswith(".pdf")], [n for n in DOSSIER if not n.endswith(".pdf")]),
    DOSSIER,
)
case("arithmetic fr fois-fr", "ça fait combien quatre-vingt-dix-huit fois soixante-quinze ?", exact(98 * 75, "fr"))
case(
    "duration fr films-fr",
    "ce soir on regarde trois films, un d'une heure cinquante-deux, un de deux heures huit et un d'une heure "
    "trente-sept, ça fait combien de temps en tout ?",
    ck.says_duration(minutes(1, 52) + minutes(2, 8) + minutes(1, 37), "fr"),
)
case(
    "follow-up fr carburant-fr",
    ["combien de litres j'ai mis en mars ? c'est dans carburant.csv", "et ça m'a coûté combien en tout ?"],
    cents(sum(_num(r["montant"]) for r in _semi(CARBURANT) if r["date"][3:5] == "03"), "fr"),
    {"carburant.csv": CARBURANT},
)

# ================================================================== Spanish

FACTURAS_LUZ = "mes;kWh;importe\nenero;312;78,45\nfebrero;287;71,90\nmarzo;265;66,32\nabril;230;58,10\nmayo;214;54,75\n"
VIAJE = [
    {"persona": "Marta", "concepto": "gasolina", "importe": 58.40},
    {"persona": "Jorge", "concepto": "apartamento", "importe": 320.00},
    {"persona": "Marta", "concepto": "cena", "importe": 74.00},
    {"persona": "Lucía", "concepto": "museo", "importe": 36.00},
    {"persona": "Marta", "concepto": "peajes", "importe": 23.15},
    {"persona": "Jorge", "concepto": "súper", "importe": 46.85},
    {"persona": "Lucía", "concepto": "comida", "importe": 52.30},
    {"persona": "Marta", "concepto": "helados", "importe": 9.60},
]
GOLES = {"Hugo": 7, "Daniela": 11, "Álex": 4, "Sara": 9, "Mateo": 12, "Iker": 3}
TAREAS = {
    "Pablo": ["sacar la basura", "poner el lavavajillas", "regar las plantas"],
    "Nuria": ["pasear al perro", "hacer la compra"],
    "papá": ["limpiar el baño"],
}
NOTAS = {
    "notas_cocina.txt": "comprar aceite\nfontanero Paco: 612 448 903\ncita del horno el jueves\n",
    "notas_varias.txt": "pagar la comunidad\nllamar a la tía Rosa\n",
    "cumpleanos.txt": "Nuria 14 de mayo\nabuelo 2 de octubre\n",
    "wifi.txt": "red: CasaLopez\nclave: naranja-77\n",
}
BILLETES = [
    {"tramo": "Madrid-Sevilla", "precio": 47.85},
    {"tramo": "Sevilla-Cádiz", "precio": 12.40},
    {"tramo": "Cádiz-Madrid", "precio": 56.20},
]
_luz = [_num(r["importe"]) for r in _semi(FACTURAS_LUZ)][:3]
_goles = sorted(GOLES, key=GOLES.get, reverse=True)
_fontanero = next(line for name, text in NOTAS.items() for line in text.splitlines() if "fontanero" in line)

case(
    "money es iva-es",
    "la factura del fontanero son doscientos cuarenta y tres con veinte más el veintiuno por ciento de IVA, "
    "cuánto es en total?",
    cents(243.20 * 1.21, "es"),
)
case(
    "money es dolares-es",
    "quiero cambiar trescientos cincuenta euros a dólares, el cambio está a uno con cero siete y la casa de cambio "
    "se queda un dos por ciento, cuántos dólares me dan?",
    cents(350 * 1.07 * 0.98, "es"),
)
case(
    "data es luz-es",
    "cuánto fue de media la factura de la luz en el primer trimestre? está en facturas_luz.csv",
    cents(sum(_luz) / len(_luz), "es"),
    {"facturas_luz.csv": FACTURAS_LUZ},
)
case(
    "data es marta-es",
    "oye, cuánto pagó Marta en total en el viaje? está todo apuntado en gastos_viaje.json",
    cents(sum(g["importe"] for g in VIAJE if g["persona"] == "Marta"), "es"),
    {"gastos_viaje.json": _json(VIAJE)},
)
case(
    "calendar es madre-es",
    "mi madre nació el diecisiete de agosto de mil novecientos sesenta y dos, cuántos años tiene ahora?",
    aged(dt.date(1962, 8, 17), "es"),
)
case(
    "structures es goleadores-es",
    "quiénes son los tres máximos goleadores del equipo? los goles están en goles.json",
    in_order(_goles[:3], tuple(_goles[3:])),
    {"goles.json": _json(GOLES)},
)
case(
    "structures es tareas-es",
    "léeme las tareas de Pablo de esta semana, están en tareas.json",
    ck.all_of(
        ck.spoken_list([t.split()[-1] for t in TAREAS["Pablo"]]),
        ck.names_all([], [t.split()[-1] for who, ts in TAREAS.items() if who != "Pablo" for t in ts]),
    ),
    {"tareas.json": _json(TAREAS)},
)
case(
    "conversion es tele-es",
    "la tele nueva es de cincuenta y cinco pulgadas, cuántos centímetros son?",
    about(55 * 2.54, "es"),
)
case(
    "files es fontanero-es",
    "en qué archivo apunté el teléfono del fontanero? y cuál es el número?",
    ck.all_of(
        ck.names_all([n for n, t in NOTAS.items() if _fontanero in t]),
        digits(re.sub(r"\D", "", _fontanero)),
    ),
    NOTAS,
)
case(
    "arithmetic es resta-es",
    "cuánto es mil doscientos menos cuatrocientos treinta y siete, y todo eso por tres?",
    exact((1200 - 437) * 3, "es"),
)
case(
    "duration es parking-es",
    "dejé el coche en el parking a las nueve y cuarto y lo saqué a las dos menos diez de la tarde, cuánto tiempo "
    "estuvo?",
    ck.says_duration(minutes(13, 50) - minutes(9, 15), "es"),
)
case(
    "follow-up es billetes-es",
    ["cuánto cuestan en total los billetes de tren de billetes.json?", "¿y para cuatro personas?"],
    cents(4 * sum(b["precio"] for b in BILLETES), "es"),
    {"billetes.json": _json(BILLETES)},
)

# ================================================================== Italian

VACANZA = (
    "data;persona;voce;importo\n02/08/2026;Giulia;traghetto;86,40\n02/08/2026;Marco;benzina;64,90\n"
    "03/08/2026;Giulia;spesa;47,35\n05/08/2026;Marco;ristorante;92,00\n06/08/2026;Giulia;gelati;11,50\n"
    "07/08/2026;Giulia;museo;24,00\n"
)
LIBRI = [
    {"titolo": "Il nome della rosa", "anno": 1980},
    {"titolo": "La coscienza di Zeno", "anno": 1923},
    {"titolo": "Il Gattopardo", "anno": 1958},
    {"titolo": "Se questo è un uomo", "anno": 1947},
    {"titolo": "Lessico famigliare", "anno": 1963},
]
CARTELLA = {
    "ricette.txt": "lasagne della nonna\n",
    "bollette.csv": "mese;importo\ngennaio;88,40\n",
    "compiti.txt": "matematica pagina 42\n",
    "mare.jpg": "JFIF foto al mare\n",
}
_libri = [b["titolo"].split()[-1] for b in sorted(LIBRI, key=lambda b: b["anno"])]

case(
    "money it salumiere-it",
    "ho preso due chili di mele a un euro e novantanove al chilo e tre etti di prosciutto a ventotto euro al "
    "chilo, quanto ho speso?",
    cents(2 * 1.99 + 0.3 * 28, "it"),
)
case(
    "data it giulia-it",
    "quanto ha speso Giulia in tutto durante la vacanza? c'è tutto in vacanza.csv",
    cents(_total(VACANZA, "importo", persona="Giulia"), "it"),
    {"vacanza.csv": VACANZA},
)
case("calendar it ferragosto-it", "quanti giorni mancano a Ferragosto?", ck.says_days_until(8, 15, "it"))
case(
    "structures it libri-it",
    "mettimi in ordine i libri di libri.json per anno, dal più vecchio al più recente",
    in_order(_libri),
    {"libri.json": _json(LIBRI)},
)
case(
    "conversion it galloni-it",
    "quanti litri sono tre galloni americani? un gallone fa tre virgola settantotto litri",
    about(3 * 3.78, "it"),
)
case("files it cartella-it", "che file ci sono nella cartella? dimmeli tutti", ck.spoken_list(list(CARTELLA)), CARTELLA)

# ================================================================== Dutch

VERBRUIK = (
    "week;gas m3;stroom kWh\n05-01-2026;18,4;52,3\n12-01-2026;21,7;49,8\n19-01-2026;24,2;55,1\n"
    "26-01-2026;19,9;47,6\n02-02-2026;17,3;46,2\n"
)
MAP = {
    "recepten.txt": "Stamppot boerenkool\n" + "aardappels, boerenkool, rookworst, melk, boter, zout en peper\n" * 6,
    "boodschappen.txt": "melk\nhagelslag\nkaas\n",
    "wifi.txt": "netwerk: DeVries\nwachtwoord: tulp-19\n",
    "verjaardagen.csv": "naam;datum\nOma;12-05\n",
}
_groot = max(MAP, key=lambda n: len(MAP[n].encode()))

case(
    "money nl fiets-nl",
    "De nieuwe fiets kost achthonderdnegenenveertig euro, ik krijg vijftien procent korting en ze nemen mijn oude "
    "fiets in voor honderd euro. Wat moet ik nog betalen?",
    cents(849 * 0.85 - 100, "nl"),
)
case(
    "data nl gas-nl",
    "Hoeveel kuub gas hebben we in januari verbruikt? Het staat per week in verbruik.csv.",
    tenth(sum(_num(r["gas m3"]) for r in _semi(VERBRUIK) if r["week"][3:5] == "01"), "nl"),
    {"verbruik.csv": VERBRUIK},
)
case(
    "calendar nl april-nl",
    "Op welke dag van de week valt zevenentwintig april volgend jaar?",
    ck.says_weekday(lambda: dt.date(dt.date.today().year + 1, 4, 27), "nl"),
)
case(
    "conversion nl snelheid-nl",
    "In Engeland staat de snelheid in mijlen. Hoeveel mijl per uur is honderdtwintig kilometer per uur?",
    about(120 / 1.609344, "nl"),
)
case(
    "files nl grootste-nl",
    "Welk bestand in de map is het grootst?",
    named_first(_groot, [n for n in MAP if n != _groot]),
    MAP,
)
case(
    "arithmetic nl som-nl",
    "Hoeveel is zeventien keer drieëntwintig plus honderdzes?",
    exact(17 * 23 + 106, "nl"),
)

COUNTS: dict[str, dict[str, int]] = {
    "money": {"en": 4, "de": 2, "fr": 2, "es": 2, "it": 1, "nl": 1},
    "data": {"en": 4, "de": 2, "fr": 2, "es": 2, "it": 1, "nl": 1},
    "calendar": {"en": 3, "de": 2, "fr": 2, "es": 1, "it": 1, "nl": 1},
    "structures": {"en": 3, "de": 1, "fr": 1, "es": 2, "it": 1},
    "conversion": {"en": 3, "de": 1, "fr": 1, "es": 1, "it": 1, "nl": 1},
    "files": {"en": 3, "de": 1, "fr": 1, "es": 1, "it": 1, "nl": 1},
    "arithmetic": {"en": 2, "de": 1, "fr": 1, "es": 1, "nl": 1},
    "duration": {"en": 1, "de": 1, "fr": 1, "es": 1},
    "follow-up": {"en": 1, "de": 1, "fr": 1, "es": 1},
}
"""Cases per kind and language."""

assert len({c.id for c in CASES}) == len(CASES), "case ids must be unique"
assert Counter((c.kind, c.language) for c in CASES) == {
    (k, lang): n for k, per in COUNTS.items() for lang, n in per.items()
}, "COUNTS must say the cases"
