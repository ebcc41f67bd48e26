"""The everyday dev cases (benchmarks/agent_dev_everyday.py): their shape, and checks that can fail.

Every case is tried on a right answer in its language (judged with the language rule) and on a near miss (another
number, the first turn's answer, the wrong order, a file or item too many); silence and restating the question are
wrong everywhere, an honest "can't" is wrong wherever the folder holds the answer. The day-dependent answers are
computed here from today, as the checks compute them when they run.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from pathlib import Path

import pytest

from benchmarks import agent_checks as ck
from benchmarks.agent_cases import Case, Result
from benchmarks.agent_dev_everyday import CASES, COUNTS, age, in_order, per_category
from benchmarks.agent_lang import in_language, month_names, weekday_names

BY_ID = {c.id: c for c in CASES}


def folder_of(case: Case, root: Path) -> Path:
    folder = root / case.id
    folder.mkdir()
    for name, text in case.files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def result(folder: Path, *answers: str) -> Result:
    return Result(list(answers), [{} for _ in answers], folder)


def last(case: Case, folder: Path, answer: str) -> Result:
    """A result whose earlier turns said "ok" and whose last one said ``answer``."""
    return result(folder, *(["ok"] * (len(case.turns) - 1)), answer)


def test_the_set_shape() -> None:
    assert len(CASES) == 72
    assert len(BY_ID) == len(CASES)
    assert all(c.id.startswith("dx-") and c.split == "dev" for c in CASES)
    assert Counter(c.language for c in CASES) == {"en": 24, "de": 12, "fr": 12, "es": 12, "it": 6, "nl": 6}
    assert Counter(c.kind for c in CASES) == {
        "money": 12,
        "data": 12,
        "calendar": 10,
        "structures": 8,
        "conversion": 8,
        "files": 8,
        "arithmetic": 6,
        "duration": 4,
        "follow-up": 4,
    }
    assert set(COUNTS) == {c.kind for c in CASES}
    assert all(len(c.turns) == 2 for c in CASES if c.kind == "follow-up")
    assert all(len(c.turns) == 1 for c in CASES if c.kind != "follow-up")
    assert all(c.files for c in CASES if c.kind in ("data", "structures", "files"))
    assert not any(c.needs_ha for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_restating_the_question_or_silence_is_wrong(case: Case, tmp_path: Path) -> None:
    folder = folder_of(case, tmp_path)
    assert not case.check(result(folder, *case.turns))
    assert not case.check(result(folder, " ".join(case.turns)))
    assert not ck.judge(case, result(folder, *([""] * len(case.turns))))


def _until(month: int, day: int) -> int:
    today = dt.date.today()
    target = dt.date(today.year, month, day)
    if target < today:
        target = dt.date(today.year + 1, month, day)
    return (target - today).days


def _today_answers() -> dict[str, tuple[str, str]]:
    """The right and wrong answers of the cases that depend on today."""
    today = dt.date.today()
    grandad, mother = age(dt.date(1941, 11, 2)), age(dt.date(1962, 8, 17))
    eve, ferragosto = _until(12, 24), _until(8, 15)
    month = (today + dt.timedelta(weeks=19)).month - 1
    april = dt.date(today.year + 1, 4, 27).weekday()
    fr, nl = month_names("fr"), weekday_names("nl")
    return {
        "dx-grandad-en": (f"He is {grandad} years old.", f"He is {grandad - 1} years old."),
        "dx-heiligabend-de": (f"Es sind noch {eve} Tage bis Heiligabend.", f"Es sind noch {eve + 1} Tage."),
        "dx-semaines-fr": (f"Dans dix-neuf semaines, on sera en {fr[month]}.", f"On sera en {fr[(month + 1) % 12]}."),
        "dx-madre-es": (f"Tu madre tiene {mother} años.", f"Tu madre tiene {mother + 1} años."),
        "dx-ferragosto-it": (f"Mancano {ferragosto} giorni a Ferragosto.", f"Mancano {ferragosto + 2} giorni."),
        "dx-april-nl": (
            f"Zevenentwintig april valt volgend jaar op een {nl[april]}.",
            f"Zevenentwintig april valt volgend jaar op een {nl[(april + 1) % 7]}.",
        ),
    }


RIGHT_WRONG = {
    # English
    "dx-paint-en": ("You pay 74.69 pounds for the lot.", "You pay 87.87 pounds for the lot."),
    "dx-rice-en": ("The big bag is cheaper, at 2.28 a kilo.", "The small bag is cheaper, at 2.50 a kilo."),
    "dx-jacket-en": ("That comes to about 167.40 pounds.", "That comes to 162.54 pounds."),
    "dx-quarter-bill-en": (
        "You and your other flatmate pay 95.04 pounds each, and Sam pays 47.52.",
        "Each of you pays 79.20 pounds.",
    ),
    "dx-tesco-en": ("You spent 203.58 pounds at Tesco in November.", "You spent 393.38 pounds at Tesco."),
    "dx-pocket-money-en": ("Ella has earned 10.75 pounds.", "Ella has earned 17.75 pounds."),
    "dx-meter-en": (
        "The most was on January 17th, 18.6 kilowatt hours.",
        "The most was on January 18th, 16.2 kilowatt hours.",
    ),
    "dx-books-en": ("You finished four books in March.", "You finished 3 books in March."),
    "dx-july-en": ("The fourth of July 2027 is a Sunday.", "The fourth of July 2027 is a Saturday."),
    "dx-dentist-en": ("That's Monday, April 20th.", "That's April 13."),
    "dx-quiz-en": (
        "Oscar is first with 58, then Uncle Dev with 52 and Grandma Jean with 47.",
        "Uncle Dev is first with 52, then Oscar with 58 and Grandma Jean with 47.",
    ),
    "dx-pantry-en": (
        "You've got 4 tins, 3 grains, 5 baking things and 2 spices.",
        "You've got 3 tins, 4 grains, 5 baking things and 2 spices.",
    ),
    "dx-shopping-left-en": (
        "You still need bin bags, lemons, basil and rye bread.",
        "You still need oat milk, bin bags, lemons, basil and rye bread.",
    ),
    "dx-oven-en": ("That's about 177 degrees Celsius.", "That's about 190 degrees Celsius."),
    "dx-cups-en": ("That's 660 millilitres.", "That's 480 millilitres."),
    "dx-half-marathon-en": ("That's about 21.1 kilometres.", "That's about 13.1 kilometres."),
    "dx-csv-count-en": ("There are three csv files.", "There are six files."),
    "dx-biggest-en": ("The biggest is speech.txt.", "The biggest is addresses.csv, then speech.txt."),
    "dx-packing-en": ("The third line says sun cream and hats.", "The third line says phone chargers."),
    "dx-times-en": ("That's 14,664.", "That's 14,564."),
    "dx-percent-en": ("That's 420.", "That's 240."),
    "dx-shift-en": ("You worked 8 hours and 50 minutes.", "You worked 9 hours and 35 minutes."),
    "dx-pancakes-en": ("For ten people you need 500 grams of flour.", "You need 200 grams of flour."),
    # German
    "dx-pfand-de": ("Du musst noch 3,69 Euro draufzahlen.", "Du musst noch 8,29 Euro zahlen."),
    "dx-skonto-de": ("Mit Skonto zahlst du 581,03 Euro.", "Mit dem Skonto sparst du 17,97 Euro."),
    "dx-lukas-de": (
        "Lukas hat im Mai 33,85 Euro für Freizeit ausgegeben.",
        "Lukas hat insgesamt 54,35 Euro für Freizeit ausgegeben.",
    ),
    "dx-aldi-de": (
        "Bei Aldi habt ihr im Schnitt 50,85 Euro pro Einkauf bezahlt.",
        "Bei Aldi habt ihr zusammen 203,40 Euro bezahlt.",
    ),
    "dx-einheit-de": ("Der dritte Oktober 2027 ist ein Sonntag.", "Der dritte Oktober 2027 ist ein Samstag."),
    "dx-geburtstage-de": (
        "Zuerst Leonie im Januar, dann Tante Gabi im März, Mama im Juni, Opa Heinz im September und Max im November.",
        "Opa Heinz, Tante Gabi, Leonie, Max und Mama.",
    ),
    "dx-fieber-de": ("Das sind 39 Grad Celsius, also Fieber.", "Das sind 38 Grad Celsius."),
    "dx-elternabend-de": (
        "Das neueste ist vom 12. März 2026, da ging es um den Schwimmunterricht.",
        "Das neueste ist vom 20. Januar 2026.",
    ),
    "dx-teilen-de": ("Das ist fünfundzwanzig.", "Das ist 24."),
    "dx-zug-de": ("Du bist 4 Stunden und 34 Minuten unterwegs.", "Du bist 5 Stunden und 26 Minuten unterwegs."),
    "dx-pizza-de": ("Dann zahlt jeder 10,52 Euro.", "Das kostet zusammen 52,60 Euro."),
    # French
    "dx-fromage-fr": ("Ça vous fait 8,33 euros pour le comté.", "Ça vous fait 23,80 euros pour le comté."),
    "dx-pourboire-fr": ("Avec le pourboire, ça fait 26,84 euros chacun.", "Ça fait 24,40 euros chacun."),
    "dx-cantine-fr": (
        "Pour Léa, vous avez payé 54,60 euros de cantine en février.",
        "Pour Léa, vous avez payé 71,40 euros de cantine.",
    ),
    "dx-marche-fr": ("C'est le samedi 28 mars, avec 35,60 euros.", "C'est le samedi 14 mars, avec 31,85 euros."),
    "dx-traitement-fr": ("On sera le 29 mai 2027.", "On sera le 28 mai 2027."),
    "dx-genres-fr": (
        "Il y a 4 comédies, 3 films d'animation, 2 policiers et 1 drame.",
        "Il y a 3 comédies, 4 films d'animation, 2 policiers et 1 drame.",
    ),
    "dx-chocolat-fr": ("Ça fait environ 340 grammes de chocolat.", "Ça fait environ 336 grammes de chocolat."),
    "dx-pdf-fr": (
        "Les fichiers PDF sont bulletin.pdf, assurance.pdf et facture.pdf.",
        "Les fichiers PDF sont bulletin.pdf et assurance.pdf.",
    ),
    "dx-fois-fr": ("Ça fait 7 350 en tout.", "Ça fait 7 250 en tout."),
    "dx-films-fr": ("Ça fait 5 heures et 37 minutes en tout.", "Ça fait 4 heures et 37 minutes en tout."),
    "dx-carburant-fr": (
        "En mars, le carburant vous a coûté 226,45 euros.",
        "En tout, vous avez payé 298,05 euros de carburant.",
    ),
    # Spanish
    "dx-iva-es": ("En total son 294,27 euros con el IVA.", "El IVA son 51,07 euros."),
    "dx-dolares-es": ("Te dan 367,01 dólares.", "Te dan 374,50 dólares."),
    "dx-luz-es": ("De media, la factura fue de 72,22 euros.", "De media, la factura fue de 65,90 euros."),
    "dx-marta-es": ("Marta pagó 165,15 euros en total.", "Marta pagó 132,40 euros en total."),
    "dx-goleadores-es": (
        "Los tres máximos goleadores son Mateo con 12, Daniela con 11 y Sara con 9.",
        "Los tres máximos goleadores son Daniela con 11, Mateo con 12 y Sara con 9.",
    ),
    "dx-tareas-es": (
        "Pablo tiene que sacar la basura, poner el lavavajillas y regar las plantas.",
        "Pablo tiene que sacar la basura y pasear al perro.",
    ),
    "dx-tele-es": ("Son unos 139,7 centímetros.", "Son unos 55 centímetros."),
    "dx-fontanero-es": (
        "Lo apuntaste en notas_cocina.txt: el fontanero Paco es el 612 448 903.",
        "Lo apuntaste en notas_varias.txt, es el 612 448 903.",
    ),
    "dx-resta-es": ("El resultado es 2.289.", "El resultado es 763."),
    "dx-parking-es": ("Estuvo 4 horas y 35 minutos en el parking.", "Estuvo 4 horas y 25 minutos en el parking."),
    "dx-billetes-es": ("Para cuatro personas son 465,80 euros.", "Son 116,45 euros por persona."),
    # Italian
    "dx-salumiere-it": ("Hai speso 12,38 euro in tutto.", "Hai speso 29,99 euro in tutto."),
    "dx-giulia-it": ("Giulia ha speso 169,25 euro in tutto.", "Giulia ha speso 326,15 euro in tutto."),
    "dx-libri-it": (
        (
            "Dal più vecchio: La coscienza di Zeno, Se questo è un uomo, Il Gattopardo, Lessico famigliare e Il "
            "nome della rosa."
        ),
        "Il nome della rosa, Il Gattopardo, La coscienza di Zeno, Se questo è un uomo e Lessico famigliare.",
    ),
    "dx-galloni-it": ("Sono 11,34 litri.", "Sono 11,78 litri."),
    "dx-cartella-it": (
        "Nella cartella ci sono ricette.txt, bollette.csv, compiti.txt e mare.jpg.",
        "Nella cartella ci sono ['ricette.txt', 'bollette.csv', 'compiti.txt', 'mare.jpg'].",
    ),
    # Dutch
    "dx-fiets-nl": ("Je moet nog 621,65 euro betalen.", "Je moet nog 721,65 euro betalen."),
    "dx-gas-nl": (
        "In januari hebben jullie 84,2 kuub gas verbruikt.",
        "In januari hebben jullie 101,5 kuub verbruikt.",
    ),
    "dx-snelheid-nl": ("Dat is ongeveer 74,6 mijl per uur.", "Dat is ongeveer 193 mijl per uur."),
    "dx-grootste-nl": ("Het grootste bestand is recepten.txt.", "Het grootste bestand is boodschappen.txt."),
    "dx-som-nl": ("Dat is 497.", "Dat is 391."),
} | _today_answers()

CANT = {
    "en": "Sorry, I can't look that up, I don't have access to that.",
    "de": "Das kann ich leider nicht nachsehen, ich habe keinen Zugriff darauf.",
    "fr": "Je ne peux pas consulter ça, je n'ai pas accès à ces informations.",
    "es": "No puedo consultarlo, no tengo acceso a esa información.",
    "it": "Non posso controllarlo, non ho accesso a queste informazioni.",
    "nl": "Dat kan ik helaas niet opzoeken, ik heb geen toegang.",
}
"""An honest can't per language: wrong where the folder holds the answer."""

MORE_WRONG = {
    "dx-quiz-en": "Oscar has 58, Uncle Dev 52, Grandma Jean 47 and Priya 44.",
    "dx-goleadores-es": "Mateo con 12, Daniela con 11, Sara con 9 y Hugo con 7.",
    "dx-elternabend-de": "Die Protokolle sind vom 5. November 2025, 20. Januar 2026 und 12. März 2026.",
    "dx-pdf-fr": "Les fichiers sont bulletin.pdf, assurance.pdf, facture.pdf, classe.jpg, noel.txt et budget.ods.",
    "dx-fontanero-es": "Está en notas_cocina.txt.",
    "dx-quarter-bill-en": "Sam pays 47.52 pounds.",
    "dx-meter-en": "It was 18.6 kilowatt hours.",
    "dx-marche-fr": "C'est le samedi 28 mars.",
    "dx-shopping-left-en": "['bin bags', 'lemons', 'basil', 'rye bread']",
    "dx-tareas-es": "Pablo tiene que sacar la basura, poner el lavavajillas, regar las plantas y pasear al perro.",
}
"""Further near misses: a top three that goes on, every file's date or every file, half the answer, a list
printed as Python, another person's item."""


def test_every_case_has_a_right_and_a_wrong_answer() -> None:
    assert set(RIGHT_WRONG) == set(BY_ID)
    assert set(MORE_WRONG) <= set(BY_ID)


@pytest.mark.parametrize("cid", list(RIGHT_WRONG))
def test_a_right_answer_passes_and_a_near_miss_fails(cid: str, tmp_path: Path) -> None:
    case = BY_ID[cid]
    right, wrong = RIGHT_WRONG[cid]
    folder = folder_of(case, tmp_path)
    assert in_language(right, case.language), right
    assert ck.judge(case, last(case, folder, right)), right
    assert not ck.judge(case, last(case, folder, wrong)), wrong


@pytest.mark.parametrize("cid", list(MORE_WRONG))
def test_more_near_misses_fail(cid: str, tmp_path: Path) -> None:
    case = BY_ID[cid]
    folder = folder_of(case, tmp_path)
    assert not ck.judge(case, last(case, folder, MORE_WRONG[cid]))


@pytest.mark.parametrize("cid", [c.id for c in CASES if c.files])
def test_a_cant_is_wrong_when_the_folder_holds_the_answer(cid: str, tmp_path: Path) -> None:
    case = BY_ID[cid]
    folder = folder_of(case, tmp_path)
    assert in_language(CANT[case.language], case.language)
    assert not ck.judge(case, last(case, folder, CANT[case.language]))


@pytest.mark.parametrize(
    ("cid", "english"),
    [
        ("dx-pfand-de", "You still have to pay 3.69 euros on top, that is the rest."),
        ("dx-cantine-fr", "For Léa you paid 54.60 euros in February, that is the total."),
        ("dx-goleadores-es", "The top three are Mateo with 12, Daniela with 11 and Sara with 9."),
        ("dx-giulia-it", "Giulia spent 169.25 euros in total, that is the sum."),
        ("dx-grootste-nl", "The biggest file is recepten.txt, it is the largest of them."),
    ],
)
def test_a_right_answer_in_english_is_wrong(cid: str, english: str, tmp_path: Path) -> None:
    case = BY_ID[cid]
    folder = folder_of(case, tmp_path)
    assert case.check(last(case, folder, english))
    assert not ck.judge(case, last(case, folder, english))


def test_the_new_checks_read_both_ways() -> None:
    folder = Path(".")
    counts = per_category({"tin": 4, "spice": 2}, "en")
    assert counts(result(folder, "Tins: 4, spices: 2."))
    assert counts(result(folder, "You have four tins and two spices."))
    assert not counts(result(folder, "Tins: 2, spices: 4."))
    assert not counts(result(folder, "You have 4 tins."))
    order = in_order(["Oscar", "Dev"], ("Maya",))
    assert order(result(folder, "Oscar, then Dev."))
    assert not order(result(folder, "Dev, then Oscar."))
    assert not order(result(folder, "Oscar, Dev and Maya."))
    assert not order(result(folder, "Oscarine and Devon."))
