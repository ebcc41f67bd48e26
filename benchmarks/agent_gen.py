"""The generated part of the agent benchmark: cases from templates, in English, German, French and Spanish.

``generated_cases()`` builds every case from the templates below and benchmarks/agent_gen_folder.py with a
seeded ``random.Random`` per (kind, language), so a case is the same on every run and adding cases to a template
leaves the earlier ones as they were. Numbers, names, dates, phrasings and number words vary; every check is
computed when the case runs (benchmarks/agent_checks.py). ``split_of(case_id)`` puts a case in ``dev`` or
``test`` by a hash of its id alone (stable when cases are added); ``COUNTS`` says how many cases each kind has in
each language.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import math
import random
from collections.abc import Callable
from typing import Any

from benchmarks import agent_checks as ck
from benchmarks.agent_cases import Case
from benchmarks.agent_lang import LANGUAGES, say_date, spell

SEED = "o1-agent-bench-1"
DEV_PERCENT = 25
"""Share of the generated cases in ``dev``; with the hand-written cases (all dev) about 40 % of all cases."""

Built = tuple[list[str], ck.Check, dict[str, str]]
Maker = Callable[[random.Random, str, int], Built]


def split_of(case_id: str) -> str:
    """``dev`` or ``test`` for a generated case, from a SHA-256 of ``SEED`` and its id (never changes)."""
    digest = hashlib.sha256(f"{SEED}/split/{case_id}".encode()).digest()
    return "dev" if int.from_bytes(digest[:8], "big") % 100 < DEV_PERCENT else "test"


def pick(rng: random.Random, options: dict[str, list[str]] | list[str], lang: str = "en") -> str:
    """One of ``options`` (a list, or per language a list)."""
    return rng.choice(options[lang] if isinstance(options, dict) else options)


def say(rng: random.Random, n: int, lang: str, words: float = 0.5) -> str:
    """``n`` in words (probability ``words``) or digits."""
    return spell(n, lang, conj=rng.random() < 0.6) if rng.random() < words else str(n)


def money(x: float, lang: str) -> str:
    """An amount as written in ``lang`` (12.5 -> "12.50" / "12,50")."""
    text = f"{x:.2f}".removesuffix(".00")
    return text if lang == "en" else text.replace(".", ",")


def clock(h: int, m: int, lang: str, rng: random.Random) -> str:
    """A clock time as said in ``lang`` (English sometimes on a 12-hour clock)."""
    if lang == "en":
        if rng.random() < 0.4:
            return f"{h % 12 or 12}:{m:02d} {'am' if h < 12 else 'pm'}"
        return f"{h}:{m:02d}"
    if lang == "de":
        return f"{h}:{m:02d} Uhr" if rng.random() < 0.5 else f"{h}.{m:02d} Uhr"
    if lang == "fr":
        return f"{h}h{m:02d}"
    return f"{h}:{m:02d}"


UNIT_WORDS = {
    "h": {"en": ("hour", "hours"), "de": ("Stunde", "Stunden"), "fr": ("heure", "heures"), "es": ("hora", "horas")},
    "min": {
        "en": ("minute", "minutes"),
        "de": ("Minute", "Minuten"),
        "fr": ("minute", "minutes"),
        "es": ("minuto", "minutos"),
    },
}
AND = {"en": "and", "de": "und", "fr": "et", "es": "y"}


def duration(minutes: int, lang: str, rng: random.Random) -> str:
    """A duration in words and digits ("2 hours and 20 minutes", "zwei Stunden 20 Minuten", "140 minutes")."""
    h, m = divmod(minutes, 60)
    if rng.random() < 0.2 or h == 0:
        return f"{say(rng, minutes, lang, 0.3)} {UNIT_WORDS['min'][lang][1]}"

    def part(n: int, unit: str) -> str:
        word = spell(n, lang) if rng.random() < 0.5 else str(n)
        if n == 1 and word != "1":
            word = {"en": "one", "de": "eine", "fr": "une", "es": "una"}[lang]
        return f"{word} {UNIT_WORDS[unit][lang][n != 1]}"

    if not m:
        return part(h, "h")
    return f"{part(h, 'h')} {AND[lang] + ' ' if rng.random() < 0.6 else ''}{part(m, 'min')}"


# ------------------------------------------------------------------ arithmetic with numbers said in words

OPS = {
    "en": {"+": ["plus", "and"], "-": ["minus", "take away"], "*": ["times", "multiplied by"], "/": ["divided by"]},
    "de": {"+": ["plus"], "-": ["minus", "weniger"], "*": ["mal"], "/": ["geteilt durch", "durch"]},
    "fr": {"+": ["plus"], "-": ["moins"], "*": ["fois", "multiplié par"], "/": ["divisé par"]},
    "es": {"+": ["más"], "-": ["menos"], "*": ["por", "multiplicado por"], "/": ["dividido entre", "entre"]},
}
ASK = {
    "en": ["what is {q}", "what's {q}", "how much is {q}", "can you work out {q}", "quick one, {q}"],
    "de": ["was ist {q}", "wie viel ist {q}", "was ergibt {q}", "rechne mal {q}"],
    "fr": ["combien font {q}", "ça fait combien, {q}", "calcule {q}", "combien fait {q}"],
    "es": ["cuánto es {q}", "cuánto son {q}", "calcula {q}", "dime cuánto es {q}"],
}


def make_words(rng: random.Random, lang: str, i: int = 0) -> Built:
    """Operands in words: "what is three hundred and twelve times four"."""
    op = rng.choice("+-*/")
    if op == "*":
        a, b = rng.randint(12, 999), rng.randint(2, 19)
    elif op == "/":
        b = rng.randint(2, 12)
        a = b * rng.randint(11, 250)
    else:
        a, b = rng.randint(100, 9999), rng.randint(11, 999)
        a, b = (max(a, b), min(a, b))
    value = {"+": a + b, "-": a - b, "*": a * b, "/": a // b}[op]
    q = f"{spell(a, lang, rng.random() < 0.6)} {pick(rng, OPS[lang][op])} {spell(b, lang)}"
    return [pick(rng, ASK, lang).format(q=q)], ck.says_value(value, lang, 0.0, 0.0), {}


# ------------------------------------------------------------------ rounding and precision

PLACES = {
    "en": ["to {k} decimal places", "rounded to {k} decimal places", "to {k} decimals"],
    "de": ["auf {k} Nachkommastellen", "gerundet auf {k} Nachkommastellen", "auf {k} Stellen nach dem Komma"],
    "fr": ["avec {k} décimales", "arrondi à {k} décimales", "à {k} chiffres après la virgule"],
    "es": ["con {k} decimales", "redondeado a {k} decimales", "con {k} cifras decimales"],
}
ROOT = {
    "en": "the square root of {n}",
    "de": "die Wurzel aus {n}",
    "fr": "la racine carrée de {n}",
    "es": "la raíz cuadrada de {n}",
}
DIV = {
    "en": "{a} divided by {b}",
    "de": "{a} geteilt durch {b}",
    "fr": "{a} divisé par {b}",
    "es": "{a} dividido entre {b}",
}
PI = {"en": "pi", "de": "Pi", "fr": "pi", "es": "pi"}


def make_rounding(rng: random.Random, lang: str, i: int = 0) -> Built:
    """Rounding: "square root of 2 to 3 decimal places" must carry 1.414."""
    while True:
        k = rng.randint(2, 4)
        form = rng.choice(["root", "root", "div", "pi"])
        if form == "root":
            n = rng.choice([x for x in range(2, 99) if math.isqrt(x) ** 2 != x])
            value, what = math.sqrt(n), ROOT[lang].format(n=say(rng, n, lang))
        elif form == "div":
            a, b = rng.randint(1, 99), rng.choice([3, 6, 7, 9, 11, 13])
            value, what = a / b, DIV[lang].format(a=say(rng, a, lang), b=say(rng, b, lang))
        else:
            value, what = math.pi, PI[lang]
        scaled = value * 10**k
        if abs(scaled - math.floor(scaled) - 0.5) > 0.01 and round(value, k) != round(value, k - 1):
            break
    places = pick(rng, PLACES, lang).format(k=say(rng, k, lang, 0.6))
    return [pick(rng, ASK, lang).format(q=f"{what} {places}")], ck.says_rounded(value, k, lang), {}


# ------------------------------------------------------------------ money

CUR = {"en": ["dollars", "euros", "pounds"], "de": ["Euro", "Franken"], "fr": ["euros"], "es": ["euros", "pesos"]}
SPLIT = {
    "en": [
        "{a} {c} split {n} ways, how much is that each",
        "we spent {a} {c} on dinner, split between {n} people how much does each pay",
        "split a {a} {c} bill {n} ways",
    ],
    "de": [
        "{a} {c} durch {n} Personen geteilt, wie viel zahlt jeder",
        "wir haben {a} {c} ausgegeben, das teilen wir durch {n}, wie viel ist das pro Person",
    ],
    "fr": [
        "{a} {c} partagés entre {n} personnes, combien paie chacun",
        "l'addition fait {a} {c}, on est {n}, combien chacun doit payer",
    ],
    "es": [
        "{a} {c} entre {n} personas, cuánto paga cada uno",
        "la cuenta es de {a} {c} y somos {n}, cuánto pone cada uno",
    ],
}
TIP = {
    "en": ["how much is a {p} percent tip on {a} {c}", "what's the tip at {p}% on a bill of {a} {c}"],
    "de": ["wie viel sind {p} Prozent Trinkgeld auf {a} {c}"],
    "fr": ["combien fait un pourboire de {p} pour cent sur {a} {c}"],
    "es": ["cuánto es una propina del {p} por ciento sobre {a} {c}"],
}
DISCOUNT = {
    "en": ["a jacket costs {a} {c} and is {p} percent off, what does it cost now", "what is {a} {c} minus {p} percent"],
    "de": ["eine Jacke kostet {a} {c} und ist {p} Prozent reduziert, was kostet sie jetzt"],
    "fr": ["une veste coûte {a} {c} avec {p} pour cent de remise, combien coûte-t-elle maintenant"],
    "es": ["una chaqueta cuesta {a} {c} con un descuento del {p} por ciento, cuánto cuesta ahora"],
}
CHANGE = {
    "en": ["it costs {price} {c} and I hand over {note}, how much change do I get"],
    "de": ["ich zahle {price} {c} mit einem {note}-{c}-Schein, wie viel Wechselgeld bekomme ich"],
    "fr": ["je paie {price} {c} avec un billet de {note} {c}, combien on me rend"],
    "es": ["pago {price} {c} con un billete de {note} {c}, cuánto me devuelven"],
}


def make_money(rng: random.Random, lang: str, i: int = 0) -> Built:
    """Money: "64 dollars split three ways" is 21.33; tips, discounts, change."""
    c = pick(rng, CUR, lang)
    form = rng.choice(["split", "split", "tip", "discount", "change"])
    if form == "split":
        n = rng.randint(3, 7)
        a = rng.choice([x for x in range(20, 400) if x % n])
        value, text = a / n, pick(rng, SPLIT, lang).format(a=say(rng, a, lang, 0.3), c=c, n=say(rng, n, lang, 0.7))
    elif form == "tip":
        p, a = rng.choice([10, 12, 15, 18, 20]), round(rng.uniform(15, 180), rng.choice([0, 2]))
        value, text = a * p / 100, pick(rng, TIP, lang).format(p=p, a=money(a, lang), c=c)
    elif form == "discount":
        p, a = rng.choice([10, 15, 20, 25, 30, 40]), rng.randint(19, 250)
        value, text = a * (100 - p) / 100, pick(rng, DISCOUNT, lang).format(p=p, a=a, c=c)
    else:
        note = rng.choice([20, 50, 100])
        price = round(rng.uniform(3, note - 1), 2)
        value, text = note - price, pick(rng, CHANGE, lang).format(price=money(price, lang), note=note, c=c)
    return [text], ck.says_value(round(value, 2), lang, 0.006, 0.0), {}


# ------------------------------------------------------------------ unit conversions

UNITS: list[tuple[str, str, Callable[[float], float], dict[str, tuple[str, str]]]] = [
    (
        "mi",
        "km",
        lambda x: x * 1.609344,
        {
            "en": ("miles", "kilometers"),
            "de": ("Meilen", "Kilometer"),
            "fr": ("miles", "kilomètres"),
            "es": ("millas", "kilómetros"),
        },
    ),
    (
        "km",
        "mi",
        lambda x: x / 1.609344,
        {
            "en": ("kilometers", "miles"),
            "de": ("Kilometer", "Meilen"),
            "fr": ("kilomètres", "miles"),
            "es": ("kilómetros", "millas"),
        },
    ),
    (
        "F",
        "C",
        lambda x: (x - 32) * 5 / 9,
        {
            "en": ("degrees fahrenheit", "degrees celsius"),
            "de": ("Grad Fahrenheit", "Grad Celsius"),
            "fr": ("degrés Fahrenheit", "degrés Celsius"),
            "es": ("grados Fahrenheit", "grados Celsius"),
        },
    ),
    (
        "C",
        "F",
        lambda x: x * 9 / 5 + 32,
        {
            "en": ("degrees celsius", "degrees fahrenheit"),
            "de": ("Grad Celsius", "Grad Fahrenheit"),
            "fr": ("degrés Celsius", "degrés Fahrenheit"),
            "es": ("grados Celsius", "grados Fahrenheit"),
        },
    ),
    (
        "in",
        "cm",
        lambda x: x * 2.54,
        {
            "en": ("inches", "centimeters"),
            "de": ("Zoll", "Zentimeter"),
            "fr": ("pouces", "centimètres"),
            "es": ("pulgadas", "centímetros"),
        },
    ),
    (
        "ft",
        "m",
        lambda x: x * 0.3048,
        {"en": ("feet", "meters"), "de": ("Fuß", "Meter"), "fr": ("pieds", "mètres"), "es": ("pies", "metros")},
    ),
    ("kg", "lb", lambda x: x * 2.2046226, {"en": ("kilograms", "pounds")}),
    ("lb", "kg", lambda x: x * 0.45359237, {"en": ("pounds", "kilograms")}),
    ("l", "gal", lambda x: x * 0.26417205, {"en": ("liters", "US gallons")}),
    (
        "h",
        "s",
        lambda x: x * 3600,
        {
            "en": ("hours", "seconds"),
            "de": ("Stunden", "Sekunden"),
            "fr": ("heures", "secondes"),
            "es": ("horas", "segundos"),
        },
    ),
]
CONVERT = {
    "en": ["how many {to} are {x} {frm}", "convert {x} {frm} to {to}", "what's {x} {frm} in {to}"],
    "de": ["wie viel sind {x} {frm} in {to}", "rechne {x} {frm} in {to} um", "wie viele {to} sind {x} {frm}"],
    "fr": ["combien font {x} {frm} en {to}", "convertis {x} {frm} en {to}", "{x} {frm}, ça fait combien de {to}"],
    "es": ["cuántos {to} son {x} {frm}", "convierte {x} {frm} a {to}", "pasa {x} {frm} a {to}"],
}


def make_units(rng: random.Random, lang: str, i: int = 0) -> Built:
    """How many kilometers are 26 miles: 41.84: 41.84 (within 1 %: conversion factors are rounded differently)."""
    _frm, _to, fn, names = rng.choice([u for u in UNITS if lang in u[3]])
    x = rng.choice([rng.randint(2, 120), rng.randint(2, 30) * 5])
    text = pick(rng, CONVERT, lang).format(x=say(rng, x, lang, 0.3), frm=names[lang][0], to=names[lang][1])
    return [text], ck.says_value(fn(x), lang, 0.06, 0.01), {}


# ------------------------------------------------------------------ calendar questions

WEEKDAY_OF = {
    "en": ["what day of the week is {d}", "which weekday was {d}", "what day of the week does {d} fall on"],
    "de": ["welcher Wochentag ist der {d}", "auf welchen Wochentag fällt der {d}"],
    "fr": ["quel jour de la semaine tombe le {d}", "quel jour de la semaine était le {d}"],
    "es": ["qué día de la semana cae el {d}", "qué día de la semana fue el {d}"],
}
DAYS_UNTIL = {
    "en": ["how many days until {d}", "how many days is it until {d}", "how many days are left until {d}"],
    "de": ["wie viele Tage sind es noch bis zum {d}", "wie viele Tage noch bis zum {d}"],
    "fr": ["combien de jours reste-t-il jusqu'au {d}", "dans combien de jours sommes-nous le {d}"],
    "es": ["cuántos días faltan para el {d}", "cuántos días quedan hasta el {d}"],
}
DATE_IN = {
    "en": ["what's the date {n} days from today", "what date will it be in {n} days", "what is the date in {n} days"],
    "de": ["welches Datum ist in {n} Tagen", "welches Datum haben wir in {n} Tagen"],
    "fr": ["quelle date serons-nous dans {n} jours", "quelle est la date dans {n} jours"],
    "es": ["qué fecha será dentro de {n} días", "qué fecha es dentro de {n} días"],
}
WEEKDAY_IN = {
    "en": ["what day of the week will it be in {n} days"],
    "de": ["welcher Wochentag ist in {n} Tagen"],
    "fr": ["quel jour de la semaine serons-nous dans {n} jours"],
    "es": ["qué día de la semana será dentro de {n} días"],
}
BETWEEN = {
    "en": ["how many days are there between {a} and {b}"],
    "de": ["wie viele Tage liegen zwischen dem {a} und dem {b}"],
    "fr": ["combien de jours y a-t-il entre le {a} et le {b}"],
    "es": ["cuántos días hay entre el {a} y el {b}"],
}


def make_calendar(rng: random.Random, lang: str, i: int = 0) -> Built:
    """Weekday of a date, days until a date, the date or weekday in N days, days between two dates."""
    form = rng.choice(["weekday", "until", "date-in", "date-in", "weekday-in", "between"])
    if form == "weekday":
        d = dt.date(2000, 1, 1) + dt.timedelta(days=rng.randint(0, 36 * 365))
        return [pick(rng, WEEKDAY_OF, lang).format(d=say_date(d, lang))], ck.says_weekday(lambda: d, lang), {}
    if form == "until":
        d = dt.date(2001, 1, 1) + dt.timedelta(days=rng.randint(0, 364))  # a year without 29 February
        text = pick(rng, DAYS_UNTIL, lang).format(d=say_date(d, lang, year=False))
        return [text], ck.says_days_until(d.month, d.day, lang), {}
    if form == "between":
        a = dt.date(2000, 1, 1) + dt.timedelta(days=rng.randint(0, 30 * 365))
        b = a + dt.timedelta(days=rng.randint(5, 700))
        text = pick(rng, BETWEEN, lang).format(a=say_date(a, lang), b=say_date(b, lang))
        return [text], ck.says_value((b - a).days, lang, 0.0, 0.0), {}
    n = rng.choice([rng.randint(2, 40), rng.randint(41, 400)])
    if form == "weekday-in":
        text = pick(rng, WEEKDAY_IN, lang).format(n=say(rng, n, lang))
        return [text], ck.says_weekday(lambda: dt.date.today() + dt.timedelta(days=n), lang), {}
    text = pick(rng, DATE_IN, lang).format(n=say(rng, n, lang))
    return [text], ck.says_day(lambda: dt.date.today() + dt.timedelta(days=n), lang), {}


# ------------------------------------------------------------------ durations and times given in the question

ARRIVE = {
    "en": [
        "if I leave at {t} and the trip takes {d}, when do I arrive",
        "the train leaves at {t} and the ride is {d}, what time does it get in",
        "I start cooking at {t} and it takes {d}, when will dinner be ready",
    ],
    "de": [
        "wenn ich um {t} losfahre und die Fahrt {d} dauert, wann komme ich an",
        "der Zug fährt um {t} ab und braucht {d}, wann kommt er an",
    ],
    "fr": [
        "si je pars à {t} et que le trajet dure {d}, à quelle heure j'arrive",
        "le train part à {t} et le voyage dure {d}, à quelle heure arrive-t-il",
    ],
    "es": [
        "si salgo a las {t} y el viaje dura {d}, a qué hora llego",
        "el tren sale a las {t} y tarda {d}, a qué hora llega",
    ],
}
LEAVE = {
    "en": ["I have to be there at {t} and the drive takes {d}, when do I need to leave"],
    "de": ["ich muss um {t} dort sein und die Fahrt dauert {d}, wann muss ich los"],
    "fr": ["je dois être là-bas à {t} et il faut {d} de route, à quelle heure dois-je partir"],
    "es": ["tengo que estar allí a las {t} y el viaje dura {d}, a qué hora tengo que salir"],
}
HOW_LONG = {
    "en": ["how long is it from {a} to {b}", "my shift is from {a} to {b}, how long is that"],
    "de": ["wie lange ist es von {a} bis {b}", "meine Schicht geht von {a} bis {b}, wie lange ist das"],
    "fr": ["combien de temps y a-t-il entre {a} et {b}", "je travaille de {a} à {b}, ça fait combien de temps"],
    "es": ["cuánto tiempo hay de las {a} a las {b}", "mi turno es de {a} a {b}, cuánto dura"],
}


def make_times(rng: random.Random, lang: str, i: int = 0) -> Built:
    """Times: "leave at 8:45, the trip takes 2 hours 20 minutes" is 11:05, from the question's clock, not now."""
    start = rng.randint(6 * 60, 15 * 60 + 59) // 5 * 5 + rng.choice([0, 0, 1, 3])
    mins = rng.choice([rng.randint(25, 95), rng.randint(1, 7) * 60 + rng.randint(1, 11) * 5])
    h, m = divmod(start, 60)
    form = rng.choice(["arrive", "arrive", "leave", "how-long"])
    if form == "arrive":
        eh, em = divmod(start + mins, 60)
        text = pick(rng, ARRIVE, lang).format(t=clock(h, m, lang, rng), d=duration(mins, lang, rng))
        return [text], ck.says_clock(eh, em), {}
    if form == "leave":
        end = start + mins
        eh, em = divmod(end, 60)
        text = pick(rng, LEAVE, lang).format(t=clock(eh, em, lang, rng), d=duration(mins, lang, rng))
        return [text], ck.says_clock(h, m), {}
    eh, em = divmod(start + mins, 60)
    text = pick(rng, HOW_LONG, lang).format(a=clock(h, m, lang, rng), b=clock(eh, em, lang, rng))
    return [text], ck.says_duration(mins, lang), {}


# ------------------------------------------------------------------ follow-ups (a second turn that refers to the first)

AGAIN = {
    "en": {
        2: ["and times two?", "and double that?"],
        4: ["and divided by four?"],
        10: ["now add ten", "plus ten?"],
        -7: ["and minus seven?"],
        3: ["and times three?"],
    },
    "de": {
        2: ["und mal zwei?", "und das verdoppelt?"],
        4: ["und das geteilt durch vier?"],
        10: ["und plus zehn?"],
        -7: ["und minus sieben?"],
        3: ["und mal drei?"],
    },
    "fr": {
        2: ["et fois deux ?", "et le double ?"],
        4: ["et divisé par quatre ?"],
        10: ["et plus dix ?"],
        -7: ["et moins sept ?"],
        3: ["et fois trois ?"],
    },
    "es": {
        2: ["¿y por dos?", "¿y el doble?"],
        4: ["¿y eso dividido entre cuatro?"],
        10: ["¿y más diez?"],
        -7: ["¿y menos siete?"],
        3: ["¿y por tres?"],
    },
}
PERCENT = {
    "en": ("what's {p} percent of {a}", "and of {b}?"),
    "de": ("was sind {p} Prozent von {a}", "und von {b}?"),
    "fr": ("combien font {p} pour cent de {a}", "et de {b} ?"),
    "es": ("cuánto es el {p} por ciento de {a}", "¿y de {b}?"),
}
REMEMBER = {
    "en": [("my {what} number is {n}", "what is my {what} number plus {k}")],
    "de": [("meine {what}nummer ist {n}", "was ist meine {what}nummer plus {k}")],
    "fr": [("mon numéro de {what} est le {n}", "combien fait mon numéro de {what} plus {k}")],
    "es": [("mi número de {what} es el {n}", "cuánto es mi número de {what} más {k}")],
}
THINGS = {
    "en": ["locker", "room", "seat", "table"],
    "de": ["Schließfach", "Zimmer", "Platz"],
    "fr": ["casier", "chambre", "place"],
    "es": ["taquilla", "habitación", "asiento"],
}


def make_follow_up(rng: random.Random, lang: str, i: int = 0) -> Built:
    """Two turns: "what is 12 times 14" then "and times two?" (the answer is about the first turn's result)."""
    form = rng.choice(["op", "op", "percent", "remember"])
    if form == "op":
        a, b = rng.randint(6, 40), rng.randint(3, 25)
        step = rng.choice([2, 4, 10, -7, 3])
        if step == 4:
            a *= 4
        first = a * b
        value = {2: first * 2, 4: first / 4, 10: first + 10, -7: first - 7, 3: first * 3}[step]
        q = f"{say(rng, a, lang, 0.5)} {pick(rng, OPS[lang]['*'])} {say(rng, b, lang, 0.5)}"
        turns = [pick(rng, ASK, lang).format(q=q), pick(rng, AGAIN[lang][step])]
        return turns, ck.says_value(value, lang, 0.0, 0.0), {}
    if form == "percent":
        p, a, b = rng.choice([5, 10, 15, 20, 25]), rng.randint(2, 40) * 10, rng.randint(2, 40) * 10 + 20
        one, two = PERCENT[lang]
        return [one.format(p=p, a=a), two.format(b=b)], ck.says_value(b * p / 100, lang, 0.006, 0.0), {}
    n, k = rng.randint(12, 480), rng.randint(2, 9)
    one, two = pick(rng, REMEMBER[lang])  # type: ignore[arg-type]
    what = pick(rng, THINGS, lang)
    turns = [one.format(what=what, n=n), two.format(what=what, k=say(rng, k, lang, 0.8))]
    return turns, ck.says_value(n + k, lang, 0.0, 0.0), {}


# ------------------------------------------------------------------ the whole generated set


def _makers() -> dict[str, Maker]:
    from benchmarks import agent_gen_folder as fo

    return {
        "words": make_words,
        "rounding": make_rounding,
        "money": make_money,
        "units": make_units,
        "calendar": make_calendar,
        "times": make_times,
        "follow-up": make_follow_up,
        "folder": fo.make_folder,
        "data": fo.make_data,
        "write": fo.make_write,
        "confirm": fo.make_confirm,
        "refuse": fo.make_refuse,
        "offline": fo.make_offline,
        "lists": fo.make_lists,
    }


COUNTS: dict[str, dict[str, int]] = {
    "words": {"en": 12, "de": 4, "fr": 4, "es": 4},
    "rounding": {"en": 8, "de": 2, "fr": 2, "es": 2},
    "money": {"en": 10, "de": 3, "fr": 3, "es": 3},
    "units": {"en": 10, "de": 3, "fr": 3, "es": 3},
    "calendar": {"en": 12, "de": 3, "fr": 3, "es": 3},
    "times": {"en": 10, "de": 3, "fr": 3, "es": 3},
    "folder": {"en": 10, "de": 2, "fr": 2, "es": 2},
    "data": {"en": 10, "de": 2, "fr": 2, "es": 2},
    "write": {"en": 8, "de": 2, "fr": 2, "es": 2},
    "follow-up": {"en": 8, "de": 2, "fr": 2, "es": 2},
    "confirm": {"en": 6, "de": 2, "fr": 2, "es": 2},
    "refuse": {"en": 6, "de": 1, "fr": 1, "es": 1},
    "offline": {"en": 6, "de": 2, "fr": 2, "es": 2},
    "lists": {"en": 5, "de": 1, "fr": 1, "es": 1},
}
"""Generated cases per kind and language (raise a count to add cases: the earlier ones stay as they were)."""


def generated_cases(counts: dict[str, dict[str, int]] | None = None) -> list[Case]:
    """Every generated case (ids ``<kind>-<lang>-<n>``), each with its language and split.

    ``counts`` overrides COUNTS (same shape). Raises KeyError for an unknown kind or language."""
    makers = _makers()
    out = []
    for kind, per_lang in (counts or COUNTS).items():
        for lang, count in per_lang.items():
            if lang not in LANGUAGES:
                raise KeyError(lang)
            rng = random.Random(f"{SEED}/{kind}/{lang}")
            for i in range(count):
                turns, check, files = makers[kind](rng, lang, i)
                cid = f"{kind}-{lang}-{i:02d}"
                out.append(Case(cid, kind, turns, check, files, language=lang, split=split_of(cid)))
    return out


def describe(cases: list[Case]) -> dict[str, Any]:
    """Counts of ``cases`` per split, kind and language: {"split": {...}, "kind": {...}, "language": {...}}."""
    out: dict[str, dict[str, int]] = {"split": {}, "kind": {}, "language": {}}
    for c in cases:
        for key, value in (("split", c.split), ("kind", c.kind), ("language", c.language)):
            out[key][value] = out[key].get(value, 0) + 1
    return out
