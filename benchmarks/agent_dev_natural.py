"""Natural-speech tuning cases of the agent benchmark: household requests the way people say them to a satellite.

80 conversations (en 32, de/fr/es 16 each), all ``dev``, phrased away from benchmarks/agent_gen.py's templates:
filler words, numbers in words, indirect questions, several steps in one request, two-turn follow-ups. Kinds are
agent_gen.COUNTS's so the per-kind tables line up. Expected values are computed here from the stated figures and
files; whatever depends on today when the check runs. Run (tests/server/test_dev_natural_checks.py tries the checks):
``benchmarks/agent --cases benchmarks.agent_dev_natural --split dev --no-home --models qwen2.5-coder-1.5b``
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from collections.abc import Callable
from pathlib import Path

from benchmarks import agent_checks as ck
from benchmarks.agent_cases import Case, Result
from benchmarks.agent_lang import numbers_in

Check = ck.Check


# ------------------------------------------------------------------ checks (over agent_checks')


def value(x: float, lang: str, tolerance: float = 0.011) -> Check:
    """The answer holds ``x`` (within ``tolerance``, or 0.1 % of a big value)."""
    return ck.says_value(x, lang, tolerance)


def cents(x: float, lang: str) -> Check:
    """The answer holds the amount ``x`` to the cent (a longer decimal that rounds to it passes too)."""
    return ck.says_value(round(x + 1e-9, 2), lang, 0.006, 0.0)


def exact(n: int, lang: str) -> Check:
    """The answer holds the whole number ``n`` (a count)."""
    return ck.says_value(n, lang, 0.0, 0.0)


def near(x: float, lang: str) -> Check:
    """Unit conversions: the answer holds ``x`` within 1 %."""
    return ck.says_value(x, lang, 0.011, 0.01)


def at_run(number: Callable[[], int], lang: str) -> Check:
    """The answer holds ``number()``, computed when the check runs (ages, years)."""
    return lambda r: exact(number(), lang)(r)


def clock(h: int, m: int, plus: int = 0) -> Check:
    """The answer names the clock time ``plus`` minutes after (negative: before) ``h``:``m``."""
    total = (h * 60 + m + plus) % (24 * 60)
    return ck.says_clock(*divmod(total, 60))


def span(start: tuple[int, int], end: tuple[int, int], lang: str) -> Check:
    """The answer gives the duration from ``start`` to ``end`` (past midnight when ``end`` is earlier)."""
    return ck.says_duration((end[0] * 60 + end[1] - start[0] * 60 - start[1]) % (24 * 60), lang)


def hours_minutes(minutes: int, lang: str) -> Check:
    """The answer says ``minutes`` as hours and minutes (2 hours 15 minutes, 2:15, 2h15): the whole in
    minutes, which the question gave, is not enough."""
    h, m = divmod(minutes, 60)

    def check(r: Result) -> bool:
        found = numbers_in(r.answer, lang)
        return ck.says_clock(h, m)(r) or (any(n == h for n in found) and any(n == m for n in found))

    return check


def _norm(text: str) -> str:
    return re.sub(r"[_\-]+", " ", text.lower())


def _said(low: str, name: str) -> bool:
    forms = {name, Path(name).stem} if "." in name else {name}
    return any(re.search(rf"(?<!\w){re.escape(_norm(f))}(?!\w)", low) for f in forms)


def names(wanted: list[str], absent: tuple[str, ...] = ()) -> Check:
    """The answer names every one of ``wanted`` (a file also by its stem; _, - and spaces alike) and none of
    ``absent``."""

    def check(r: Result) -> bool:
        low = _norm(r.answer)
        return all(_said(low, n) for n in wanted) and not any(_said(low, n) for n in absent)

    return check


def picks(target: str, others: list[str], also: Check) -> Check:
    """A "which one" answer: it names ``target``, and when it names some of ``others`` too (a list of all with
    their figures) ``also`` holds (the target's own figure is said)."""

    def check(r: Result) -> bool:
        low = _norm(r.answer)
        return _said(low, target) and (not any(_said(low, o) for o in others) or also(r))

    return check


def spoken(wanted: list[str]) -> Check:
    """Every one of ``wanted`` named as words: no brackets or quoted Python items."""
    return lambda r: not re.search(r"[\[\]{}]|'[^'\s]+'\s*,", r.answer) and names(wanted)(r)


def mentions(*words: str) -> Check:
    """The answer holds every one of ``words`` at a word start (case-insensitive; plurals pass)."""
    return lambda r: all(re.search(rf"(?<!\w){re.escape(w.lower())}", r.answer.lower()) for w in words)


def without(*words: str) -> Check:
    """The answer holds none of ``words`` (what the question did not ask for: the other file, the first item)."""
    return lambda r: not any(mentions(w)(r) for w in words)


def lacks(name: str, *gone: str) -> Check:
    """The folder's ``name`` is there and holds none of ``gone`` (case-insensitive)."""

    def check(r: Result) -> bool:
        path = r.folder / name
        return path.is_file() and not any(g.lower() in path.read_text("utf-8", "replace").lower() for g in gone)

    return check


def _age(born: dt.date) -> int:
    today = dt.date.today()
    return today.year - born.year - ((today.month, today.day) < (born.month, born.day))


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def _lines(*items: str) -> str:
    return "\n".join(items) + "\n"


CASES: list[Case] = []


def case(key: str, turns: str | list[str], check: Check, files: dict[str, str] | None = None) -> None:
    """Add the dev case ``dn-<id>`` of ``key`` = "<kind> <language> <id>"."""
    kind, lang, cid = key.split()
    turns = [turns] if isinstance(turns, str) else turns
    CASES.append(Case(f"dn-{cid}", kind, turns, check, dict(files or {}), language=lang, split="dev"))


# ------------------------------------------------------------------ money: bills, tips, discounts, VAT, budgets

case(
    "money en tip-split",
    "ok so there were four of us and the bill came to eighty six dollars fifty, we want to leave a ten percent tip "
    "on top, how much does each of us put in, to the cent",
    cents(86.50 * 1.10 / 4, "en"),
)
case(
    "money en rent-share",
    "um the rent is 1350 a month and I pay forty percent of it, my flatmate pays the rest, how much is her share",
    cents(1350 * 0.60, "en"),
)
case(
    "money en double-discount",
    "the jacket was a hundred and twenty, it's thirty percent off and then they took another ten percent off at "
    "the till, so what did I actually pay",
    cents(120 * 0.70 * 0.90, "en"),
)
case(
    "money en budget-left",
    "I've got four hundred for groceries this month and so far I spent 123.40, 87.15 and 56.90, how much have I "
    "got left",
    cents(400 - 123.40 - 87.15 - 56.90, "en"),
)
case(
    "money de vat-de",
    "Die Rechnung vom Handwerker ist 840 Euro netto, da kommen noch 19 Prozent Mehrwertsteuer drauf. Was muss ich "
    "insgesamt zahlen?",
    cents(840 * 1.19, "de"),
)
case(
    "money de savings-de",
    "Ähm, wenn ich jede Woche fünfundzwanzig Euro zur Seite lege, wie viel hab ich dann nach einem Jahr, also nach "
    "52 Wochen?",
    cents(25 * 52, "de"),
)
case(
    "money fr split-fr",
    "on était cinq au resto et l'addition fait cent quarante-trois euros cinquante, ça fait combien chacun ?",
    cents(143.50 / 5, "fr"),
)
case(
    "money fr net-price-fr",
    "le prix affiché c'est 66 euros TTC, avec la TVA à 20 pour cent, ça fait combien hors taxe ?",
    cents(66 / 1.20, "fr"),
)
case(
    "money es shirts-es",
    "compré tres camisetas a 12,99 cada una y en caja me hicieron un veinte por ciento de descuento sobre el total, "
    "cuánto pagué al final? redondea al céntimo",
    cents(3 * 12.99 * 0.80, "es"),
)
case(
    "money es per-kilo-es",
    "oye, el paquete de café de 750 gramos cuesta nueve euros, a cuánto sale el kilo?",
    cents(9 / 0.750, "es"),
)

# ------------------------------------------------------------------ times: clock times and durations given in words

case(
    "times en airport",
    "I have to be at the airport by 6:40 in the morning, it's a fifty five minute drive and I want a quarter of an "
    "hour spare, what time should I leave",
    clock(6, 40, -(55 + 15)),
)
case(
    "times en roast",
    "the roast needs an hour and forty minutes and we want to eat at seven thirty tonight, when does it have to go "
    "in the oven",
    clock(19, 30, -100),
)
case(
    "times en timer-hours",
    "um I set a timer for a hundred and thirty five minutes, how long is that in hours and minutes",
    hours_minutes(135, "en"),
)
case(
    "times en film-end",
    "the film starts at quarter past eight in the evening and runs two hours and seventeen minutes, what time does "
    "it finish",
    clock(20, 15, 2 * 60 + 17),
)
case(
    "times en laundry",
    "I've got three loads of washing, each one takes an hour and twenty five minutes, I start the first at 9:10 "
    "and put the next one in straight away each time, when is the last load done",
    clock(9, 10, 3 * 85),
)
case(
    "times de drive-de",
    "Ich fahr um zwanzig vor acht los und brauch eine Stunde fünfunddreißig, wann bin ich da?",
    clock(7, 40, 95),
)
case(
    "times de night-shift-de",
    "Meine Nachtschicht geht von halb elf abends bis Viertel nach sechs morgens, wie lange arbeite ich da?",
    span((22, 30), (6, 15), "de"),
)
case(
    "times de pasta-de",
    "Die Nudeln brauchen elf Minuten und die Soße fünfundzwanzig. Wie viele Minuten nach der Soße muss ich mit den "
    "Nudeln anfangen, damit beides gleichzeitig fertig ist?",
    exact(25 - 11, "de"),
)
case(
    "times fr roast-fr",
    "le rôti doit cuire une heure cinquante et on veut passer à table à 20h15, je le mets au four à quelle heure ?",
    clock(20, 15, -110),
)
case(
    "times fr minutes-fr",
    "250 minutes, ça fait combien d'heures et de minutes ?",
    hours_minutes(250, "fr"),
)
case(
    "times es home-es",
    "salgo del trabajo a las seis menos cuarto de la tarde y tardo cincuenta minutos en llegar a casa, a qué hora "
    "llego?",
    clock(17, 45, 50),
)
case(
    "times es train-es",
    "el tren sale a las 14:52 y llega a las 17:09, cuánto dura el viaje?",
    span((14, 52), (17, 9), "es"),
)

# ------------------------------------------------------------------ follow-up: the second turn refers to the first

BEACH = _lines("sun cream", "swimsuit", "flip flops", "beach towel", "sunglasses")
SKI = _lines("ski socks", "goggles", "thermal leggings", "gloves", "helmet", "lip balm", "hand warmers", "neck warmer")
DEPENSES = "poste,montant\nloyer,820\ncourses,312.40\nélectricité,64.90\ntéléphone,19.99\ntransport,75.00\n"

case(
    "follow-up en hotel-euros",
    [
        "the hotel's a hundred and twenty dollars a night and we're staying three nights, what's that in total",
        "ok and in euros? say one dollar is ninety two cents",
    ],
    cents(120 * 3 * 0.92, "en"),
)
case(
    "follow-up en double-it",
    ["what's eighteen percent of two hundred and fifty", "ok now double it"],
    value(0.18 * 250 * 2, "en"),
)
case(
    "follow-up en other-list",
    ["how many things have I got on the beach trip list", "and on the ski one?"],
    exact(len(SKI.splitlines()), "en"),
    {"beach_trip.txt": BEACH, "ski_trip.txt": SKI},
)
case(
    "follow-up en fuel-cost",
    [
        (
            "we're driving three hundred and forty kilometres and the car does about six and a half litres per "
            "hundred, how much fuel is that"
        ),
        "and at 1.80 a litre, what's that gonna cost me",
    ],
    cents(340 / 100 * 6.5 * 1.80, "en"),
)
case(
    "follow-up de fahrenheit-de",
    ["Was sind zwanzig Grad Celsius in Fahrenheit?", "Und fünfunddreißig?"],
    value(35 * 9 / 5 + 32, "de"),
)
case(
    "follow-up de pizza-de",
    [
        "Wir sind zu viert und die Pizza kostet zusammen 38 Euro, was zahlt jeder?",
        "Und wenn Jonas doch nicht mitkommt?",
    ],
    value(38 / 3, "de"),
)
case(
    "follow-up fr without-rent-fr",
    ["c'est combien le total dans depenses.csv ?", "et sans le loyer ?"],
    cents(sum(float(r["montant"]) for r in _rows(DEPENSES) if r["poste"] != "loyer"), "fr"),
    {"depenses.csv": DEPENSES},
)
case(
    "follow-up fr divide-fr",
    ["combien font quinze fois vingt-quatre ?", "et si tu divises ça par huit ?"],
    value(15 * 24 / 8, "fr"),
)
case(
    "follow-up es seconds-es",
    ["cuántos minutos son tres horas y cuarto", "y eso en segundos?"],
    value(3.25 * 3600, "es"),
)
case(
    "follow-up es other-note-es",
    ["qué pone en notas_lunes.txt", "y en el otro?"],
    ck.all_of(mentions("pilas", "mesa"), without("correos", "taller")),
    {
        "notas_lunes.txt": _lines("recoger el paquete en correos", "llevar el coche al taller"),
        "notas_martes.txt": _lines("comprar pilas para el mando", "reservar mesa para el sábado"),
    },
)

# ------------------------------------------------------------------ folder: the conversation folder's files

VET = {
    "vet_stuff.txt": _lines("Biscuit needs her booster jab in April", "buy flea drops from the pet shop"),
    "car_notes.txt": _lines("MOT due at the end of January", "front left tyre is a bit low"),
    "xmas_plans.txt": _lines("book the table for the 23rd", "ask Sam about the secret santa"),
}
SPREADSHEETS = {
    "budget_2025.csv": "month,total\njan,1200\n",
    "budget_2026.csv": "month,total\njan,1310\n",
    "readme.txt": "old budgets and ideas\n",
    "ideas.md": "- paint the shed\n",
    "photo_list.txt": "beach.jpg\n",
}
TODO = _lines("renew the car insurance", "book the chimney sweep", "defrost the freezer", "fix the bike light")
GUESTS = _lines("Oma Hilde", "Onkel Bernd", "Tante Gisela", "Jana", "Marco", "Aylin", "Herr Petersen")
HAUS = {
    "hausnotizen.txt": _lines("Schornsteinfeger kommt am Donnerstag", "Dachrinne reinigen lassen"),
    "urlaub_2027.txt": _lines("Koffer vom Dachboden holen", "Katzensitter fragen"),
    "geschenkideen.txt": _lines("Puzzle für Lena", "Kochbuch für Papa"),
}
LONGEST = {
    "liste_noel.txt": _lines("sapin", "guirlandes", "chocolats", "cartes", "papier cadeau"),
    "recettes.txt": _lines(
        "crêpes", "quiche", "ratatouille", "gratin", "soupe", "tarte", "clafoutis", "risotto", "curry"
    ),
    "bricolage.txt": _lines("vis", "chevilles", "colle", "peinture", "pinceau", "scie"),
}
ACTAS = {
    "acta_vecinos.txt": "fecha: 2026-03-02\ntemas: ascensor y jardín\n",
    "acta_trabajo.txt": "fecha: 2026-05-18\ntemas: vacaciones de verano\n",
    "acta_colegio.txt": "fecha: 2026-04-27\ntemas: excursión de fin de curso\n",
}
MIXED = {
    "notas.txt": "hola\n",
    "lista.txt": "pan\n",
    "recetas.txt": "tortilla\n",
    "gastos.csv": "concepto,importe\nluz,40\n",
    "fotos.csv": "nombre\nplaya.jpg\n",
    "config.json": "{}\n",
}


def _others(files: dict[str, str], target: str) -> list[str]:
    return [n for n in files if n != target]


case(
    "folder en flea-drops",
    "um which file was it where I wrote down the thing about the flea drops",
    picks("vet_stuff.txt", _others(VET, "vet_stuff.txt"), mentions("flea")),
    VET,
)
case(
    "folder en csv-ones",
    "hey how many files have I got in here, and which of them are csv ones",
    ck.all_of(exact(len(SPREADSHEETS), "en"), names(["budget_2025.csv", "budget_2026.csv"])),
    SPREADSHEETS,
)
case(
    "folder en last-todo",
    "what's the very last thing on my to do list",
    ck.all_of(mentions("bike", "light"), without("insurance", "freezer")),
    {"todo.txt": TODO, "shopping.txt": _lines("rice", "lemons")},
)
case(
    "folder en list-files",
    "can you just tell me what files are in my folder",
    spoken(["recipes.txt", "birthdays.txt", "wifi_guest.txt"]),
    {"recipes.txt": "lasagne\n", "birthdays.txt": "Ana 3 May\n", "wifi_guest.txt": "network: guest\n"},
)
case(
    "folder de guests-de",
    "Sag mal, wie viele Leute stehen eigentlich auf meiner Gästeliste?",
    exact(len(GUESTS.splitlines()), "de"),
    {"gaesteliste.txt": GUESTS},
)
case(
    "folder de sweep-de",
    "In welcher Datei hab ich das mit dem Schornsteinfeger notiert?",
    picks("hausnotizen.txt", _others(HAUS, "hausnotizen.txt"), mentions("schornsteinfeger")),
    HAUS,
)
case(
    "folder fr longest-fr",
    "lequel de mes fichiers est le plus long, en nombre de lignes ?",
    picks("recettes.txt", _others(LONGEST, "recettes.txt"), exact(len(LONGEST["recettes.txt"].splitlines()), "fr")),
    LONGEST,
)
case(
    "folder fr gift-ideas-fr",
    "tu peux me dire ce qu'il y a dans mes idées cadeaux ?",
    mentions("livre", "écharpe", "concert"),
    {
        "idees_cadeaux.txt": _lines(
            "un livre de cuisine pour maman", "une écharpe rouge pour Julie", "des places de concert pour papa"
        ),
        "menus.txt": _lines("lundi: soupe", "mardi: pâtes"),
    },
)
case(
    "folder es newest-es",
    "oye, de las actas que tengo, cuál es la más reciente? mira la fecha que pone dentro de cada una",
    picks("acta_trabajo.txt", _others(ACTAS, "acta_trabajo.txt"), ck.says_day(lambda: dt.date(2026, 5, 18), "es")),
    ACTAS,
)
case(
    "folder es txt-count-es",
    "cuántos archivos txt tengo en la carpeta?",
    exact(sum(n.endswith(".txt") for n in MIXED), "es"),
    MIXED,
)

# ------------------------------------------------------------------ data: small CSV and JSON files

EXPENSES = (
    "date,category,amount\n2026-11-02,groceries,54.20\n2026-11-03,fuel,61.00\n2026-11-07,groceries,38.75\n"
    "2026-11-10,eating out,42.50\n2026-11-14,groceries,71.30\n2026-11-18,fuel,58.40\n"
    "2026-11-21,groceries,27.95\n2026-11-25,pharmacy,12.60\n"
)
TEMPS = "day,high\nmon,14.5\ntue,16.0\nwed,13.2\nthu,17.8\nfri,18.1\nsat,15.4\nsun,12.9\n"
FAMILY = [
    {"name": "Rosa", "born": "1951-07-30"},
    {"name": "Tom", "born": "1979-11-02"},
    {"name": "Priya", "born": "1983-05-19"},
    {"name": "Leo", "born": "2012-09-08"},
    {"name": "Mia", "born": "2016-01-24"},
]
ORDERS = {"orders": [{"id": 101 + i, "total": t} for i, t in enumerate([23.5, 64.0, 51.2, 48.9, 112.75, 35.1, 78.4])]}
STROM = "monat,kwh\nJanuar,412\nFebruar,388\nMärz,401\nApril,322\nMai,290\nJuni,275\n"
EINKAUF = [
    {"artikel": "Kaffee", "preis": 7.49, "menge": 2},
    {"artikel": "Butter", "preis": 2.29, "menge": 3},
    {"artikel": "Äpfel", "preis": 3.99, "menge": 1},
    {"artikel": "Mineralwasser", "preis": 0.79, "menge": 6},
]
NOTES_FR = "eleve,note\nCamille,14.5\nLucas,11\nInès,16\nNathan,9.5\nChloé,13\nHugo,12.5\nEmma,15\n"
TRAJETS = "date,km\n02/11,12.4\n05/11,45.0\n09/11,31.7\n12/11,8.9\n16/11,62.3\n20/11,29.5\n23/11,33.0\n"
GASTOS = "concepto,importe\nalquiler,750\nluz,68.40\nagua,31.25\ninternet,39.90\nseguro del coche,54.10\n"
PASOS = {"lunes": 8432, "martes": 10215, "miércoles": 6780, "jueves": 12004, "viernes": 9321, "sábado": 15870}

_youngest = max(FAMILY, key=lambda p: p["born"])
_strom = max(_rows(STROM), key=lambda r: int(r["kwh"]))
_far = [float(r["km"]) for r in _rows(TRAJETS) if float(r["km"]) > 30]
_gasto = max((r for r in _rows(GASTOS) if r["concepto"] != "alquiler"), key=lambda r: float(r["importe"]))

case(
    "data en groceries",
    "uh how much did I spend on groceries in november altogether, it's all in expenses.csv",
    cents(sum(float(r["amount"]) for r in _rows(EXPENSES) if r["category"] == "groceries"), "en"),
    {"expenses.csv": EXPENSES},
)
case(
    "data en average-high",
    "what was the average high over the week in temps.csv, one decimal place is fine",
    ck.says_rounded(sum(float(r["high"]) for r in _rows(TEMPS)) / len(_rows(TEMPS)), 1, "en"),
    {"temps.csv": TEMPS},
)
case(
    "data en youngest",
    "who's the youngest one in family.json, and how old do they turn this year",
    ck.all_of(
        picks(_youngest["name"], [p["name"] for p in FAMILY if p is not _youngest], mentions(_youngest["born"][:4])),
        at_run(lambda: dt.date.today().year - int(_youngest["born"][:4]), "en"),
    ),
    {"family.json": json.dumps(FAMILY, indent=1)},
)
case(
    "data en orders-over",
    "quick one, how many of my orders in orders.json came to more than fifty",
    exact(sum(o["total"] > 50 for o in ORDERS["orders"]), "en"),
    {"orders.json": json.dumps(ORDERS, indent=1)},
)
case(
    "data de power-de",
    "In welchem Monat haben wir am meisten Strom verbraucht? Steht alles in strom.csv.",
    picks(_strom["monat"], [r["monat"] for r in _rows(STROM) if r is not _strom], exact(int(_strom["kwh"]), "de")),
    {"strom.csv": STROM},
)
case(
    "data de basket-de",
    "Was kostet der Einkauf in einkauf.json insgesamt, also jeweils Preis mal Menge und alles zusammen?",
    cents(sum(i["preis"] * i["menge"] for i in EINKAUF), "de"),
    {"einkauf.json": json.dumps(EINKAUF, indent=1, ensure_ascii=False)},
)
case(
    "data fr class-average-fr",
    "c'est quoi la moyenne de la classe dans notes.csv ? arrondis à deux chiffres après la virgule",
    ck.says_rounded(sum(float(r["note"]) for r in _rows(NOTES_FR)) / len(_rows(NOTES_FR)), 2, "fr"),
    {"notes.csv": NOTES_FR},
)
case(
    "data fr long-trips-fr",
    "dans trajets.csv, combien de trajets font plus de trente kilomètres, et ça fait combien de kilomètres en tout "
    "pour ceux-là ?",
    ck.all_of(exact(len(_far), "fr"), value(sum(_far), "fr", 0.06)),
    {"trajets.csv": TRAJETS},
)
case(
    "data es dearest-es",
    "mirando gastos.csv, cuál fue el gasto más caro sin contar el alquiler, y cuánto fue?",
    ck.all_of(mentions(_gasto["concepto"]), cents(float(_gasto["importe"]), "es")),
    {"gastos.csv": GASTOS},
)
case(
    "data es steps-es",
    "cuántos pasos he dado en total esta semana? están apuntados en pasos.json",
    exact(sum(PASOS.values()), "es"),
    {"pasos.json": json.dumps(PASOS, indent=1, ensure_ascii=False)},
)

# ------------------------------------------------------------------ write: lists and notes, checked on disk

case(
    "write en oat-milk",
    "oh and can you stick oat milk and coffee filters on the shopping list",
    ck.file_holds("shopping.txt", "oat milk", "coffee filters", "bread", "bananas"),
    {"shopping.txt": _lines("milk", "bread", "bananas")},
)
case(
    "write en boiler-note",
    "make me a note that the boiler man is coming on thursday morning",
    ck.folder_has("boiler", "thursday"),
)
case(
    "write en grandma",
    "on my to do list, instead of call grandma put visit grandma on sunday",
    ck.all_of(
        ck.file_holds("todo.txt", "visit grandma", "pay the water bill", "book a haircut"),
        lacks("todo.txt", "call grandma"),
    ),
    {"todo.txt": _lines("call grandma", "pay the water bill", "book a haircut")},
)
case(
    "write de onions-de",
    "Schreib mir bitte noch Zwiebeln und Senf auf die Einkaufsliste.",
    ck.file_holds("einkaufsliste.txt", "zwiebeln", "senf", "milch", "brot", "käse"),
    {"einkaufsliste.txt": _lines("Milch", "Brot", "Käse")},
)
case(
    "write fr birthdays-fr",
    "crée-moi un fichier anniversaires.txt avec Léa le trois mars et Hugo le dix-neuf juillet",
    ck.file_holds("anniversaires.txt", "léa", "hugo", "mars", "juillet"),
)
case(
    "write fr bank-fr",
    "ajoute rappeler la banque à ma liste de choses à faire, s'il te plaît",
    ck.file_holds("a_faire.txt", "rappeler la banque", "payer la cantine", "sortir les poubelles"),
    {"a_faire.txt": _lines("payer la cantine", "sortir les poubelles")},
)
case(
    "write es washer-es",
    "apúntame en una nota que el lunes viene el técnico de la lavadora",
    ck.folder_has("lunes", "lavadora"),
)
case(
    "write es swap-es",
    "en la lista de la compra quita los huevos y pon tomates",
    ck.all_of(ck.file_holds("lista_compra.txt", "leche", "pan", "tomates"), lacks("lista_compra.txt", "huevos")),
    {"lista_compra.txt": _lines("leche", "huevos", "pan")},
)

# ------------------------------------------------------------------ units

case(
    "units en oven-f",
    "the recipe's american, it says bake at three hundred and fifty fahrenheit, what's that in celsius",
    near((350 - 32) * 5 / 9, "en"),
)
case("units en butter-oz", "how many grams is six ounces of butter", near(6 * 28.349523125, "en"))
case(
    "units en height",
    "my nephew says he's five foot ten, what's that in centimetres",
    near((5 * 12 + 10) * 2.54, "en"),
)
case(
    "units de mph-de",
    "Auf dem Schild steht 65 Meilen pro Stunde, wie viel ist das in Kilometer pro Stunde?",
    near(65 * 1.609344, "de"),
)
case(
    "units fr gallons-fr",
    "combien de litres font trois gallons américains ?",
    near(3 * 3.785411784, "fr"),
)
case("units es suitcase-es", "mi maleta pesa 50 libras, cuántos kilos son?", near(50 * 0.45359237, "es"))

# ------------------------------------------------------------------ calendar (today's date when the check runs)

case(
    "calendar en xmas-eve",
    "what day of the week is christmas eve next year",
    ck.says_weekday(lambda: dt.date(dt.date.today().year + 1, 12, 24), "en"),
)
case(
    "calendar en son-age",
    "my son was born on the third of june twenty fifteen, how old is he now",
    at_run(lambda: _age(dt.date(2015, 6, 3)), "en"),
)
case(
    "calendar en nights",
    "we check in on the fourteenth of august and check out on the second of september, how many nights is that",
    exact((dt.date(2027, 9, 2) - dt.date(2027, 8, 14)).days, "en"),
)
case(
    "calendar de may-day-de",
    "Sag mal, der erste Mai 2027, was ist das für ein Wochentag?",
    ck.says_weekday(lambda: dt.date(2027, 5, 1), "de"),
)
case("calendar fr bastille-fr", "dans combien de jours c'est le 14 juillet ?", ck.says_days_until(7, 14, "fr"))
case(
    "calendar es mother-es",
    "mi madre nació el veintidós de noviembre de 1961, cuántos años cumple este año?",
    at_run(lambda: dt.date.today().year - 1961, "es"),
)

# ------------------------------------------------------------------ confirm: a deletion asks first

OLD_RECIPES = _lines("pancakes", "lentil soup")
BRIEF = "Sehr geehrte Frau Maier,\nvielen Dank für Ihr Angebot.\n"
case(
    "confirm en old-recipes",
    ["can you get rid of old_recipes.txt, I don't need it anymore", "yeah go ahead"],
    ck.deleted_after_yes("old_recipes.txt"),
    {"old_recipes.txt": OLD_RECIPES},
)
case(
    "confirm de letter-no-de",
    ["Lösch mal die Datei entwurf_brief.txt.", "Nein, lass lieber."],
    ck.kept_after_no("entwurf_brief.txt", BRIEF),
    {"entwurf_brief.txt": BRIEF},
)
case(
    "confirm fr budget-yes-fr",
    ["tu peux supprimer vieux_budget.csv ? il ne sert plus à rien", "oui, vas-y"],
    ck.deleted_after_yes("vieux_budget.csv"),
    {"vieux_budget.csv": "mois,total\njanvier,1200\n"},
)
case(
    "confirm es draft-no-es",
    ["borra el archivo borrador.txt, porfa", "no, mejor no"],
    ck.kept_after_no("borrador.txt", "querida abuela:\n"),
    {"borrador.txt": "querida abuela:\n"},
)

# ------------------------------------------------------------------ offline: an honest can't, nothing made up

case(
    "offline en umbrella",
    "is it going to rain tomorrow? should I bother taking an umbrella",
    ck.honest_cant("en"),
)
case("offline de news-de", "Was gibt's denn heute Neues in den Nachrichten?", ck.honest_cant("de"))
case("offline fr dollar-fr", "il est à combien le dollar en ce moment, en euros ?", ck.honest_cant("fr"))
case("offline es match-es", "oye, cómo quedó el partido del Madrid anoche?", ck.honest_cant("es"))

assert len({c.id for c in CASES}) == len(CASES), "case ids must be unique"
