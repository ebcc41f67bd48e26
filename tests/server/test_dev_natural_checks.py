"""The natural-speech dev cases (benchmarks/agent_dev_natural.py): their shape, and checks that can fail.

Every check must fail on an answer that only restates the question (files as given, nothing written); a few are
tried on a right answer (judged with the language rule) and a wrong one, the file cases on real folders.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from pathlib import Path

import pytest

from benchmarks import agent_checks as ck
from benchmarks.agent_cases import Case, Result
from benchmarks.agent_dev_natural import CASES
from benchmarks.agent_gen import COUNTS
from benchmarks.agent_lang import weekday_names

BY_ID = {c.id: c for c in CASES}
ASKED = {"continue_conversation": True, "code_blocks": [{"decision": "confirm", "category": ["deletes_files"]}]}


def folder_of(case: Case, root: Path) -> Path:
    folder = root / case.id
    folder.mkdir()
    for name, text in case.files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def result(folder: Path, *answers: str, replies: list[dict] | None = None) -> Result:
    return Result(list(answers), replies or [{} for _ in answers], folder)


def test_the_set_shape() -> None:
    assert len(CASES) == 80
    assert len(BY_ID) == len(CASES)
    assert all(c.id.startswith("dn-") and c.split == "dev" for c in CASES)
    assert Counter(c.language for c in CASES) == {"en": 32, "de": 16, "fr": 16, "es": 16}
    assert {c.kind for c in CASES} <= set(COUNTS)
    assert not any(c.needs_ha for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_restating_the_question_is_wrong(case: Case, tmp_path: Path) -> None:
    folder = folder_of(case, tmp_path)
    assert not case.check(result(folder, *case.turns))
    assert not case.check(result(folder, " ".join(case.turns)))


def _today_answers() -> dict[str, tuple[str, str]]:
    today = dt.date.today()
    xmas_eve = dt.date(today.year + 1, 12, 24).weekday()
    son = today.year - 2015 - ((today.month, today.day) < (6, 3))
    bastille = dt.date(today.year, 7, 14)
    if bastille < today:
        bastille = dt.date(today.year + 1, 7, 14)
    days = (bastille - today).days
    return {
        "dn-xmas-eve": (
            f"Christmas Eve next year is a {weekday_names('en')[xmas_eve]}.",
            f"Christmas Eve next year is a {weekday_names('en')[(xmas_eve + 1) % 7]}.",
        ),
        "dn-son-age": (f"He is {son} years old.", f"He is {son + 1} years old."),
        "dn-bastille-fr": (f"Le 14 juillet est dans {days} jours.", f"Le 14 juillet est dans {days + 1} jours."),
        "dn-mother-es": (
            f"En noviembre cumple {today.year - 1961} años.",
            f"En noviembre cumple {today.year - 1962} años.",
        ),
        "dn-youngest": (
            f"Mia is the youngest, born in 2016; she turns {today.year - 2016} this year.",
            f"Leo is the youngest; he turns {today.year - 2012} this year.",
        ),
    }


RIGHT_WRONG = {
    "dn-tip-split": ("Each of you puts in $23.79.", "Each of you puts in $21.63."),
    "dn-double-discount": ("You paid 75.60 in the end.", "You paid 72 in the end."),
    "dn-vat-de": ("Sie zahlen insgesamt 999,60 Euro.", "Die Mehrwertsteuer ist 159,60 Euro."),
    "dn-net-price-fr": ("Le prix hors taxe est de 55 euros.", "Le prix hors taxe est de 52,80 euros."),
    "dn-shirts-es": ("Pagaste 31,18 euros en total.", "Pagaste 38,97 euros en total."),
    "dn-airport": ("You should leave at 5:30 am.", "You should leave at 5:45 am."),
    "dn-roast": ("Put it in the oven at 5:50 pm.", "Put it in the oven at 6:10 pm."),
    "dn-timer-hours": ("That's 2 hours and 15 minutes.", "That's 2 hours and 25 minutes."),
    "dn-night-shift-de": ("Das sind 7 Stunden und 45 Minuten.", "Das sind 8 Stunden und 15 Minuten."),
    "dn-minutes-fr": ("Cela fait 4 heures et 10 minutes.", "Cela fait 4 heures et 50 minutes."),
    "dn-train-es": ("El viaje dura 2 horas y 17 minutos.", "El viaje dura 3 horas y 17 minutos."),
    "dn-other-list": ("There are 8 things on the ski list.", "There are 5 things on the ski list."),
    "dn-pizza-de": ("Dann zahlt jeder von euch 12,67 Euro.", "Dann zahlt jeder von euch 9,50 Euro."),
    "dn-without-rent-fr": ("Sans le loyer, le total est de 472,29 euros.", "Le total est de 1 292,29 euros."),
    "dn-other-note-es": (
        "En notas_martes.txt pone: comprar pilas para el mando y reservar mesa para el sábado.",
        "En notas_lunes.txt pone: recoger el paquete en correos.",
    ),
    "dn-flea-drops": (
        "vet_stuff.txt mentions the flea drops; car_notes.txt and xmas_plans.txt don't.",
        "It's in car_notes.txt.",
    ),
    "dn-last-todo": (
        "The last thing on your list is: fix the bike light.",
        "Your list: renew the car insurance, book the chimney sweep, defrost the freezer, fix the bike light.",
    ),
    "dn-csv-ones": (
        "You have 5 files; the CSV ones are budget_2025.csv and budget_2026.csv.",
        "You have 4 files; the CSV ones are budget_2025.csv and budget_2026.csv.",
    ),
    "dn-list-files": (
        "You have recipes.txt, birthdays.txt and wifi guest.txt.",
        "['recipes.txt', 'birthdays.txt', 'wifi_guest.txt']",
    ),
    "dn-longest-fr": ("Le plus long est recettes.txt, avec 9 lignes.", "Le plus long est bricolage.txt."),
    "dn-newest-es": (
        "La más reciente es acta_trabajo.txt, del 18 de mayo de 2026.",
        "La más reciente es acta_colegio.txt.",
    ),
    "dn-power-de": ("Im Januar war der Verbrauch am höchsten, mit 412 kWh.", "Im Juni war der Verbrauch am höchsten."),
    "dn-class-average-fr": ("La moyenne de la classe est de 13,07.", "La moyenne de la classe est de 13,1."),
    "dn-long-trips-fr": (
        "Il y a 4 trajets de plus de 30 km, pour un total de 172 km.",
        "Il y a 5 trajets de plus de 30 km, pour un total de 201,5 km.",
    ),
    "dn-steps-es": ("Has dado 62.622 pasos en total.", "Has dado 10.437 pasos al día de media."),
    "dn-umbrella": (
        "Sorry, I can't check the forecast: I don't have internet access.",
        "Tomorrow will be 12 degrees with light rain.",
    ),
    "dn-news-de": (
        "Leider kann ich keine Nachrichten abrufen, ich habe keinen Zugriff auf das Internet.",
        "Heute gibt es 3 neue Meldungen.",
    ),
}


@pytest.mark.parametrize("cid", [*RIGHT_WRONG, *_today_answers()])
def test_a_right_answer_passes_and_a_wrong_one_fails(cid: str, tmp_path: Path) -> None:
    case = BY_ID[cid]
    right, wrong = {**RIGHT_WRONG, **_today_answers()}[cid]
    folder = folder_of(case, tmp_path)
    earlier = ["ok"] * (len(case.turns) - 1)
    assert ck.judge(case, result(folder, *earlier, right)), right
    assert not ck.judge(case, result(folder, *earlier, wrong)), wrong


def test_a_right_number_in_english_is_wrong_in_german(tmp_path: Path) -> None:
    assert not ck.judge(BY_ID["dn-vat-de"], result(tmp_path, "You pay 999.60 euros in total."))


@pytest.mark.parametrize(
    ("cid", "name", "done", "botched"),
    [
        (
            "dn-oat-milk",
            "shopping.txt",
            "milk\nbread\nbananas\noat milk\ncoffee filters\n",
            "oat milk\ncoffee filters\n",
        ),
        (
            "dn-grandma",
            "todo.txt",
            "visit grandma on sunday\npay the water bill\nbook a haircut\n",
            "call grandma\npay the water bill\nbook a haircut\nvisit grandma on sunday\n",
        ),
        ("dn-swap-es", "lista_compra.txt", "leche\npan\ntomates\n", "leche\nhuevos\npan\ntomates\n"),
        ("dn-birthdays-fr", "anniversaires.txt", "Léa : 3 mars\nHugo : 19 juillet\n", "Léa : 3 mars\n"),
        (
            "dn-boiler-note",
            "note.txt",
            "The boiler man is coming on Thursday morning.\n",
            "The boiler man is coming.\n",
        ),
    ],
)
def test_written_files_are_read_from_disk(cid: str, name: str, done: str, botched: str, tmp_path: Path) -> None:
    case = BY_ID[cid]
    folder = folder_of(case, tmp_path)
    (folder / name).write_text(done, encoding="utf-8")
    assert case.check(result(folder, "Done."))
    (folder / name).write_text(botched, encoding="utf-8")
    assert not case.check(result(folder, "Done."))


def test_deletions_ask_first_then_follow_the_answer(tmp_path: Path) -> None:
    yes, no = BY_ID["dn-old-recipes"], BY_ID["dn-draft-no-es"]
    folder = folder_of(yes, tmp_path)
    asked = result(folder, "Delete old_recipes.txt?", "Deleted.", replies=[ASKED, {}])
    assert not yes.check(asked)  # still there
    (folder / "old_recipes.txt").unlink()
    assert yes.check(asked)
    assert not yes.check(result(folder, "Deleted.", "Done.", replies=[{}, {}]))  # did not ask
    folder = folder_of(no, tmp_path)
    kept = result(folder, "¿Borro borrador.txt?", "Vale, no he borrado el archivo.", replies=[ASKED, {}])
    assert ck.judge(no, kept)
    (folder / "borrador.txt").write_text("", encoding="utf-8")
    assert not no.check(kept)
