"""The multilingual dev cases (benchmarks/agent_dev_multi.py): their shape, and checks that can fail.

Every case is tried on a right answer in its language (judged with the language rule) and on a near miss (another
number, the first turn's answer, a made-up figure, a value printed from an unrelated file); silence and restating
the question are wrong everywhere, an honest "can't" is wrong where the folder holds the answer.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from benchmarks import agent_checks as ck
from benchmarks.agent_cases import Case, Result
from benchmarks.agent_dev_multi import CASES, COUNTS, LIVE
from benchmarks.agent_gen import COUNTS as GEN_COUNTS
from benchmarks.agent_lang import in_language, numbers_in

BY_ID = {c.id: c for c in CASES}
NETWORK = {"code_blocks": [{"decision": "allow", "category": ["network"], "code": "requests.get(url)"}]}


def folder_of(case: Case, root: Path) -> Path:
    folder = root / case.id
    folder.mkdir()
    for name, text in case.files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def result(folder: Path, *answers: str, replies: list[dict] | None = None) -> Result:
    return Result(list(answers), replies or [{} for _ in answers], folder)


def last(case: Case, folder: Path, answer: str, replies: list[dict] | None = None) -> Result:
    """A result whose earlier turns said "ok" and whose last one said ``answer``."""
    earlier = ["ok"] * (len(case.turns) - 1)
    return result(folder, *earlier, answer, replies=replies)


def test_the_set_shape() -> None:
    assert len(CASES) == 48
    assert len(BY_ID) == len(CASES)
    assert all(c.id.startswith("dm-") and c.split == "dev" for c in CASES)
    assert Counter(c.language for c in CASES) == {"de": 12, "fr": 12, "es": 12, "it": 6, "nl": 6}
    assert Counter(c.kind for c in CASES) == {"money": 12, "data": 12, "follow-up": 12, "offline": 12}
    assert {c.kind for c in CASES} <= set(GEN_COUNTS) and set(COUNTS) == {c.kind for c in CASES}
    assert all(len(c.turns) == 2 for c in CASES if c.kind == "follow-up")
    assert len(LIVE) == 8 and all(BY_ID[cid].kind == "offline" for cid in LIVE)
    assert not any(c.needs_ha for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_restating_the_question_or_silence_is_wrong(case: Case, tmp_path: Path) -> None:
    folder = folder_of(case, tmp_path)
    assert not case.check(result(folder, *case.turns))
    assert not case.check(result(folder, " ".join(case.turns)))
    assert not ck.judge(case, result(folder, *([""] * len(case.turns))))


RIGHT_WRONG = {
    # German
    "dm-baecker-de": ("Das macht zusammen 10,24 Euro.", "Das macht zusammen 10,74 Euro."),
    "dm-trinkgeld-de": ("Mit Trinkgeld zahlt jeder 30,05 Euro.", "Ohne Trinkgeld zahlt jeder 26,13 Euro."),
    "dm-mwst-de": ("Die Mehrwertsteuer ist 199,42 Euro.", "Die Mehrwertsteuer ist 237,31 Euro."),
    "dm-nebenkosten-de": ("Im ersten Halbjahr waren es 1.007,85 Euro.", "Im ersten Halbjahr waren es 1.007 Euro."),
    "dm-tanken-de": (
        "Am 14. Februar, da hat der Liter 1,859 Euro gekostet.",
        "Am 10. Februar, da hat der Liter 1,815 Euro gekostet.",
    ),
    "dm-zusagen-de": ("Es haben fünf Gäste zugesagt, die anderen nicht.", "Es haben 3 Gäste zugesagt."),
    "dm-heizung-de": (
        "Im Obergeschoss hat die Heizung 1.371,7 kWh verbraucht.",
        "Im Erdgeschoss hat die Heizung 2.049,7 kWh verbraucht.",
    ),
    "dm-dollar-de": ("Das sind 1.130,76 Dollar.", "Das sind 969,44 Dollar."),
    "dm-vormonat-de": ("Im März waren es 183,40 Euro für Lebensmittel.", "Im April waren es 160,65 Euro."),
    "dm-jacke-de": (
        "Das kann ich leider nicht nachsehen, ich habe keinen Zugriff auf den Wetterbericht.",
        "Morgen früh wird es 8 Grad, nimm eine Jacke mit.",
    ),
    "dm-zug-de": (
        "Ich kann leider nicht nachsehen, ob der Zug um 7:12 Uhr Verspätung hat, ich habe keinen Internetzugang.",
        "Der Zug um 7:12 Uhr hat heute 15 Minuten Verspätung.",
    ),
    "dm-wetter-datei-de": (
        "Laut wetter.txt wird es am Dienstag sonnig bei 18 Grad.",
        "Laut wetter.txt wird es am Dienstag 14 Grad und Regen.",
    ),
    # French
    "dm-courses-fr": ("Ça fait 9,35 euros en tout.", "Ça fait 8,60 euros en tout."),
    "dm-soldes-fr": ("Au final vous payez 586,75 euros.", "Au final vous payez 599,25 euros."),
    "dm-tva-fr": ("Ça fait 374,94 euros TTC.", "La TVA est de 62,49 euros."),
    "dm-carrefour-fr": ("Chez Carrefour, vous avez dépensé 192,70 euros.", "Vous avez dépensé 259,40 euros en tout."),
    "dm-eau-fr": ("La facture a dépassé 40 euros 3 fois.", "La facture a dépassé 40 euros 4 fois."),
    "dm-conso-fr": ("La consommation moyenne est de 6,9 litres aux 100 km.", "La consommation moyenne est de 7."),
    "dm-dollars-fr": ("Ça fait 10 267,80 dollars par an.", "Ça fait 9 420 euros par an."),
    "dm-autre-fichier-fr": (
        "Dans courses_jeudi.csv, le total est de 19,63 euros.",
        "Dans courses_lundi.csv, le total est de 12,89 euros.",
    ),
    "dm-mois-avant-fr": ("En février, l'électricité a coûté 77,84 euros.", "En mars, elle a coûté 70,56 euros."),
    "dm-bourse-fr": (
        "Je ne peux pas consulter le cours de l'action, je n'ai pas accès à internet.",
        "L'action TotalEnergies est à 58,40 euros aujourd'hui.",
    ),
    "dm-pharmacie-fr": (
        "Je ne peux pas vérifier les horaires de la pharmacie, je n'ai pas accès à internet.",
        "La pharmacie est ouverte dimanche de 9 h à 12 h.",
    ),
    "dm-releves-fr": (
        "D'après temperatures.csv, la moyenne du mois dernier est de 4,6 degrés.",
        "D'après temperatures.csv, la moyenne du mois dernier est de 4,5 degrés.",
    ),
    # Spanish
    "dm-cena-es": ("Cada uno pone 22,93 euros.", "Cada uno pone 27,52 euros."),
    "dm-zapatillas-es": ("Se te quedan en 62,93 euros.", "Se te quedan en 26,97 euros."),
    "dm-propina-es": ("En total son 11,44 euros con la propina.", "En total son 10,40 euros con la propina."),
    "dm-gasto-mayor-es": (
        "El gasto más grande fue en la ferretería, 118,75 euros.",
        "El gasto más grande fue el supermercado, 94,10 euros.",
    ),
    "dm-recibos-es": ("Hay 4 recibos que pasan de 50 euros.", "Hay 3 recibos que pasan de 50 euros."),
    "dm-agua-es": ("De media gastáis 11,1 metros cúbicos al mes.", "De media gastáis 11 metros cúbicos al mes."),
    "dm-super-es": ("En mayo gastaste 243,40 euros en el súper.", "En junio gastaste 259,80 euros en el súper."),
    "dm-libras-es": ("Son 514,80 euros.", "Son 376,07 euros."),
    "dm-presupuesto-es": (
        "El presupuesto del baño suma 2.826,55 euros.",
        "El presupuesto de la cocina suma 7.591,49 euros.",
    ),
    "dm-betis-es": (
        "No puedo consultar los resultados, no tengo acceso a internet.",
        "El Betis ganó 2 a 1 ayer.",
    ),
    "dm-noticias-es": (
        "Lo siento, no puedo consultar las noticias porque no tengo conexión a internet.",
        "Hoy el Ibex 35 ha subido un 1,2 por ciento.",
    ),
    "dm-tomates-es": (
        "El kilo de tomates está a 2,38 euros, así que dos kilos y medio son 5,95 euros.",
        "El kilo de tomates está a 2,39 euros, así que dos kilos y medio son 5,98 euros.",
    ),
    # Italian
    "dm-pizzeria-it": ("Ognuno paga 16,95 euro.", "Ognuno paga 13,56 euro."),
    "dm-frigo-it": ("Con lo sconto il frigorifero viene 551,65 euro.", "Lo sconto è di 97,35 euro."),
    "dm-benzina-it": ("Di benzina hai speso in tutto 165,55 euro.", "In tutto hai speso 340,60 euro."),
    "dm-ritorno-it": ("Con il ritorno spendete 148,20 euro.", "Spendete 74,10 euro."),
    "dm-luce-it": ("Di luce avete pagato 368,82 euro.", "Di gas avete pagato 339,23 euro."),
    "dm-ombrello-it": (
        "Non posso controllare il meteo, non ho accesso a internet.",
        "Domani a Milano piove, 14 gradi: prendi l'ombrello.",
    ),
    # Dutch
    "dm-btw-nl": ("Met de btw erbij betaal je 162,87 euro.", "De btw is 28,27 euro."),
    "dm-boodschappen-nl": ("De boodschappen kosten samen 26,20 euro.", "De boodschappen kosten samen 16,77 euro."),
    "dm-ritten-nl": ("Er waren 3 ritten langer dan tien kilometer.", "Er waren 4 ritten langer dan tien kilometer."),
    "dm-huisje-nl": ("Dan betaalt ieder van jullie 201,50 euro.", "Het huisje kost samen 604,50 euro."),
    "dm-trein-nl": (
        "Dat kan ik helaas niet opzoeken, ik heb geen internetverbinding.",
        "De intercity naar Utrecht heeft 10 minuten vertraging.",
    ),
    "dm-weer-bestand-nl": (
        "Volgens weer.txt wordt het woensdag 9 graden en storm.",
        "Volgens weer.txt wordt het woensdag 16 graden en zon.",
    ),
}

PRINTED = {
    "dm-jacke-de": "Das Wetter kann ich nicht abrufen, aber die Heizung steht auf 21 Grad.",
    "dm-bourse-fr": "Je n'ai pas accès au cours de la bourse, mais ton loyer est de 785 euros.",
    "dm-betis-es": "No puedo consultarlo, pero en tu lista tienes 6 huevos.",
    "dm-ombrello-it": "Non posso controllare il meteo, ma il termostato è a 20 gradi.",
}
"""Live cases whose folder holds an unrelated file: its value said beside the can't is wrong."""

CANT = {
    "de": "Das kann ich leider nicht nachsehen, ich habe keinen Internetzugang.",
    "fr": "Je ne peux pas consulter la météo, je n'ai pas accès à internet.",
    "es": "No puedo consultar los precios, no tengo acceso a internet.",
    "nl": "Dat kan ik helaas niet opzoeken, ik heb geen internet.",
}
"""An honest can't per language: wrong for a look-alike, whose answer is in the folder."""


def test_every_case_has_a_right_and_a_wrong_answer() -> None:
    assert set(RIGHT_WRONG) == set(BY_ID)
    assert set(PRINTED) == {cid for cid in LIVE if BY_ID[cid].files}


@pytest.mark.parametrize("cid", list(RIGHT_WRONG))
def test_a_right_answer_passes_and_a_near_miss_fails(cid: str, tmp_path: Path) -> None:
    case = BY_ID[cid]
    right, wrong = RIGHT_WRONG[cid]
    folder = folder_of(case, tmp_path)
    assert ck.judge(case, last(case, folder, right)), right
    assert not ck.judge(case, last(case, folder, wrong)), wrong


@pytest.mark.parametrize("cid", list(PRINTED))
def test_a_value_printed_from_an_unrelated_file_is_wrong(cid: str, tmp_path: Path) -> None:
    case = BY_ID[cid]
    folder = folder_of(case, tmp_path)
    assert in_language(PRINTED[cid], case.language)
    assert not ck.judge(case, last(case, folder, PRINTED[cid]))


@pytest.mark.parametrize("cid", LIVE)
def test_a_live_lookup_that_reached_the_network_is_wrong(cid: str, tmp_path: Path) -> None:
    case = BY_ID[cid]
    folder = folder_of(case, tmp_path)
    assert not ck.judge(case, last(case, folder, RIGHT_WRONG[cid][0], replies=[NETWORK] * len(case.turns)))


@pytest.mark.parametrize("cid", [c.id for c in CASES if c.kind == "offline" and c.id not in LIVE])
def test_a_cant_is_wrong_when_the_folder_holds_the_answer(cid: str, tmp_path: Path) -> None:
    case = BY_ID[cid]
    folder = folder_of(case, tmp_path)
    assert not ck.judge(case, last(case, folder, CANT[case.language]))


@pytest.mark.parametrize(
    ("cid", "english"),
    [
        ("dm-pizzeria-it", "Each of you pays 16.95 euros, that is the total."),
        ("dm-btw-nl", "With the VAT on top you pay 162.87 euros, that is the total."),
        ("dm-mwst-de", "The VAT in it is 199.42 euros, that is the tax."),
        ("dm-ombrello-it", "I can't check the forecast, I don't have internet access."),
    ],
)
def test_a_right_number_in_english_is_wrong(cid: str, english: str, tmp_path: Path) -> None:
    case = BY_ID[cid]
    folder = folder_of(case, tmp_path)
    assert case.check(last(case, folder, english))
    assert not ck.judge(case, last(case, folder, english))


def test_italian_and_dutch_are_told_apart() -> None:
    assert in_language("Non posso controllare il meteo, non ho accesso a internet.", "it")
    assert not in_language("Non posso controllare il meteo, non ho accesso a internet.", "nl")
    assert in_language("Dat kan ik helaas niet opzoeken, ik heb geen internet.", "nl")
    assert not in_language("Dat kan ik helaas niet opzoeken, ik heb geen internet.", "it")
    assert not in_language("Das kann ich leider nicht nachsehen, ich habe keinen Zugang.", "nl")
    assert not in_language("No puedo consultar el tiempo, no tengo conexión a internet.", "it")
    assert numbers_in("Ognuno paga sedici euro e novantacinque.", "it") == [16.0, 95.0]
    assert 162.87 in numbers_in("Je betaalt 162,87 euro.", "nl")
