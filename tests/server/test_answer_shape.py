"""Answers in the shape asked for: the order the user named, and as many items as the user asked the most of.

Unit checks of the reading of the user's words (six languages, number words already digits) and of the code,
then the real agent (Open Interpreter, gate, sandbox, scripted LLM) asking a block again once.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from o1_server.agent.answer_shape import asked_count, asked_order, code_order, keeps_one
from o1_server.agent.i18n import digits
from o1_server.agent.never_equal import never_equal
from tests.server.conftest import conversation_files
from tests.support.scripted_llm import ScriptedLLM


def code(src: str) -> str:
    return f"```python\n{src}\n```"


@pytest.mark.parametrize(
    ("text", "language", "order"),
    [
        ("sort my books from oldest to newest", "en", "ascending"),
        ("list the invoices, newest first", "en", "descending"),
        ("the prices from the cheapest to the most expensive", "en", "ascending"),
        ("sortier die Rechnungen vom ältesten zum neuesten", "de", "ascending"),
        ("die Städte absteigend nach Einwohnern", "de", "descending"),
        ("classe les films du plus récent au plus ancien", "fr", "descending"),
        ("ordena los gastos de menor a mayor", "es", "ascending"),
        ("mettimi in ordine i libri dal più vecchio al più recente", "it", "ascending"),
        ("zet de facturen van nieuw naar oud", "nl", "descending"),
        ("what are my books about", "en", None),
        ("sort them oldest first, no, newest first", "en", None),  # both: not plainly one
        ("who is older, Anna or Ben", "en", None),
    ],
)
def test_the_order_the_user_asked_for(text: str, language: str, order: str | None) -> None:
    assert asked_order(text, language) == order


@pytest.mark.parametrize(
    ("text", "language", "count"),
    [
        ("what are the three biggest files here", "en", 3),
        ("the top 5 expenses", "en", 5),
        ("Welche drei Ausgaben waren die teuersten?", "de", 3),
        ("les trois plus gros fichiers", "fr", 3),
        ("quiénes son los tres máximos goleadores", "es", 3),
        ("quali sono i due libri più lunghi", "it", 2),
        ("wat zijn de drie duurste producten", "nl", 3),
        ("what is the biggest file", "en", None),
        ("I have three cats, which is the oldest", "en", None),
        ("wie viel kosten die drei Äpfel zusammen?", "de", None),
        ("the 50 largest", "en", None),  # more than a list to say
    ],
)
def test_how_many_items_the_user_asked_the_most_of(text: str, language: str, count: int | None) -> None:
    assert asked_count(digits(text, language), language) == count


def test_the_order_the_code_sorts_in() -> None:
    assert code_order("rows.sort(key=lambda r: r['year'], reverse=True)") == "descending"
    assert code_order("print(sorted(rows, key=lambda r: r['year']))") == "ascending"
    assert code_order("print(sorted(rows, key=lambda r: -r['year']))") == "descending"
    assert code_order("print(sorted(rows, reverse=False))") == "ascending"
    assert code_order("a = sorted(x)\nb = sorted(y, reverse=True)") is None  # both ways
    assert code_order("print(sorted(x)[::-1])") is None and code_order("print(list(reversed(sorted(x))))") is None
    assert code_order("print(sorted(x, reverse=flag))") is None and code_order("print(max(x))") is None
    assert code_order("print(sorted(x") is None


def test_code_that_can_name_only_one_item() -> None:
    assert keeps_one("m = max(d.values())\nprint([k for k, v in d.items() if v == m])")
    assert keeps_one("print(max(files, key=os.path.getsize))")
    assert not keeps_one("print(sorted(d, key=d.get, reverse=True)[:3])")
    assert not keeps_one("print(collections.Counter(x).most_common(3))")
    assert not keeps_one("print(len(x))")


SCORERS = json.dumps({"Mateo": 9, "Lucía": 7, "Hugo": 7, "Sara": 4, "Leo": 2})
ONE_MAX = (
    "import json\nd = json.load(open('goles.json'))\nm = max(d.values())\n"
    "print('Los máximos goleadores son', ', '.join(k for k, v in d.items() if v == m))"
)
TOP_THREE = (
    "import json\nd = json.load(open('goles.json'))\ntop = sorted(d.items(), key=lambda kv: kv[1], reverse=True)[:3]\n"
    "print('Los máximos goleadores son', ', '.join(f'{k} con {v}' for k, v in top))"
)


async def test_one_item_for_the_top_three_is_asked_again(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    """"Los tres máximos goleadores" answered with max(): one name (everyday dev set, dx-goleadores-es). The block
    is asked again once, naming the count; the second, sorted, block is said."""
    agent = make_agent()
    conversation_files(tmp_path, "c-top", {"goles.json": SCORERS})
    llm.script(code(ONE_MAX), code(TOP_THREE))
    reply = await agent.ask("¿Quiénes son los tres máximos goleadores? Está en goles.json", "c-top",
                            profile="default", language="es")
    assert reply.retries == 1, reply.answer
    assert "Mateo con 9" in reply.answer and "Hugo con 7" in reply.answer, reply.answer
    repair = str(llm.requests[1]["messages"][-1]["content"])
    assert "top 3" in repair and "print the first 3" in repair, repair


BOOKS = json.dumps([{"titolo": "Il Gattopardo", "anno": 1958}, {"titolo": "Il nome della rosa", "anno": 1980},
                    {"titolo": "La coscienza di Zeno", "anno": 1923}])
BY_YEAR = "import json\nl = json.load(open('libri.json'))\nl.sort(key=lambda b: b['anno']{reverse})\n" \
          "print(', '.join(b['titolo'] for b in l))"


async def test_a_sort_the_other_way_is_asked_again_once(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    """"Dal più vecchio al più recente" sorted with reverse=True (dx-libri-it): asked again once, saying which
    way; a sort in the asked order, or a question that names no order, is not."""
    agent = make_agent()
    conversation_files(tmp_path, "c-order", {"libri.json": BOOKS})
    llm.script(code(BY_YEAR.format(reverse=", reverse=True")), code(BY_YEAR.format(reverse="")))
    reply = await agent.ask("Mettimi in ordine i libri di libri.json dal più vecchio al più recente", "c-order",
                            profile="default", language="it")
    assert reply.retries == 1 and reply.answer.startswith("La coscienza di Zeno, Il Gattopardo"), reply.answer
    repair = str(llm.requests[1]["messages"][-1]["content"])
    assert "ascending" in repair and "without reverse=True" in repair, repair
    llm.script(code(BY_YEAR.format(reverse=", reverse=True")))
    reply = await agent.ask("E quali libri ci sono in libri.json?", "c-order", profile="default", language="it")
    assert reply.retries == 0, reply.answer


def test_a_number_compared_with_a_text() -> None:
    assert never_equal("cost = float(row[1])\nif cost != 'alquiler':\n    print(cost)") is not None
    assert never_equal("n = int(x)\nprint(n in ['rent', 'food'])") is not None
    assert never_equal("cost = float(row[1])\nif row[0] != 'alquiler':\n    print(cost)") is None
    assert never_equal("for cost in rows:\n    print(cost == 'rent')") is None  # a loop's item may be a text
    assert never_equal("cost = float(a)\ncost = row[0]\nprint(cost == 'rent')") is None  # bound to a text too
    assert never_equal("print(1 == 'a'") is None


EXPENSES = "concepto,importe\nalquiler,750\nsupermercado,54.10\nluz,48.20\n"
DEAREST = (
    "import csv\nbest = None\nwith open('gastos.csv', newline='') as f:\n    for row in csv.DictReader(f):\n"
    "        cost = float(row['importe'])\n        if {test} and (best is None or cost > best[1]):\n"
    "            best = (row['concepto'], cost)\nprint('El gasto más caro fue', best[0], 'con', best[1])"
)


async def test_a_filter_that_compares_a_number_with_a_text_is_asked_again(
    make_agent, llm: ScriptedLLM, tmp_path: Path
) -> None:
    """"Sin contar el alquiler" tested as ``cost != 'alquiler'`` (dn-dearest-es): never equal, so the rent was
    the answer. Asked again once, naming the test; the corrected block is said."""
    agent = make_agent()
    conversation_files(tmp_path, "c-never", {"gastos.csv": EXPENSES})
    llm.script(
        code(DEAREST.format(test="cost != 'alquiler'")), code(DEAREST.format(test="row['concepto'] != 'alquiler'"))
    )
    reply = await agent.ask("¿Cuál fue el gasto más caro sin contar el alquiler? Está en gastos.csv", "c-never",
                            profile="default", language="es")
    assert reply.retries == 1 and "supermercado" in reply.answer, reply.answer
    repair = str(llm.requests[1]["messages"][-1]["content"])
    assert "compares cost, a number, with the text 'alquiler'" in repair, repair


@pytest.mark.parametrize(
    ("text", "language", "word"),
    [("can you spell Wednesday for him letter by letter", "en", "Wednesday"),
     ("Tu peux m'épeler le mot éphémère, lettre par lettre ?", "fr", "éphémère"),
     ("Buchstabier mir mal Rhabarber", "de", "Rhabarber"), ("¿Me deletreas murciélago?", "es", "murciélago"),
     ("Spel het woord fiets voor me", "nl", "fiets"), ("Mi fai lo spelling di zucchero?", "it", "zucchero")],
)
async def test_a_word_printed_whole_for_a_spelling_is_asked_again(
    make_agent, llm: ScriptedLLM, text: str, language: str, word: str
) -> None:
    """"Spell Wednesday letter by letter" answered with print("Wednesday") (seventh held-out set, now a dev
    set): asked again once for its letters; the letters printed one by one are said. A spelled answer, or
    another request, is not asked again."""
    from o1_server.agent.answer_shape import SPELL, spell_request

    agent = make_agent()
    llm.script(code(f"print({word!r})"), code(f"print(' '.join({word!r}))"))
    reply = await agent.ask(text, f"c-spell-{language}", profile="default", language=language)
    assert reply.retries == 1 and SPELL in str(llm.requests[1]["messages"][-1]["content"])
    assert reply.code_blocks[-1].output.strip() == " ".join(word), reply.answer
    assert spell_request(text, " ".join(word), language) is None
    assert spell_request(text, ", ".join(word.upper()), language) is None
    assert spell_request(f"how many letters are in {word}", word, language) is None


LOG = "datum;name;km\n03.05.2026;Mara;18\n11.05.2026;Mara;27\n19.05.2026;Timo;40\n"
PER_ROW = "import csv\nfor r in csv.DictReader(open('log.csv'), delimiter=';'):\n    if r['name'] == 'Mara':\n" \
          "        print('Mara ist', r['km'], 'km gefahren.')"
TOTAL = "import csv\nkm = sum(int(r['km']) for r in csv.DictReader(open('log.csv'), delimiter=';') if r['name'] == 'Mara')\n" \
        "print('Mara ist', km, 'km gefahren.')"


async def test_one_sentence_per_row_for_a_total_is_asked_again(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    """"Wie viele Kilometer ist Jonas im Mai gefahren?" printed "Jonas hat 42 km ..." once per row (seventh
    held-out set, now a dev set): asked again once for the total, which is said. A question about each one, or
    lines that say different things, is not asked again."""
    from o1_server.agent.answer_shape import ROWS, rows_request

    agent = make_agent()
    conversation_files(tmp_path, "c-rows", {"log.csv": LOG})
    llm.script(code(PER_ROW), code(TOTAL))
    reply = await agent.ask("Wie viele Kilometer ist Mara gefahren? Steht in log.csv", "c-rows", profile="default",
                            language="de")
    assert reply.retries == 1 and ROWS in str(llm.requests[1]["messages"][-1]["content"])
    assert "45" in reply.answer, reply.answer
    rows = "Mara ist 18 km gefahren.\nMara ist 27 km gefahren.\n"
    assert rows_request("Wie viele Kilometer ist Mara jedes Mal gefahren?", rows, "de") is None
    assert rows_request("how many km did each of them ride", "Mara 18\nTimo 40\n", "en") is None
    assert rows_request("how many km did Mara ride", "Mara rode 18 km\nTimo rode 40 km\n", "en") is None
    assert rows_request("how many km did Mara ride", "Mara rode 18 km\nMara rode 27 km\n", "en") is not None


async def test_a_word_spelled_from_a_wrong_copy_is_asked_again(make_agent, llm: ScriptedLLM) -> None:
    """"Tu peux m'épeler le mot éphémère" spelled "é p é m è r e": the model copied the word without its h
    (seventh held-out set, now a dev set). Asked once with the user's word; a right spelling is not asked."""
    from o1_server.agent.answer_shape import SPELL_COPY, spell_request

    agent = make_agent()
    llm.script(code("print(' '.join('épémère'))"), code("print(' '.join('éphémère'))"))
    text = "Tu peux m'épeler le mot éphémère, lettre par lettre ?"
    reply = await agent.ask(text, "c-spell-copy", profile="default", language="fr")
    told = str(llm.requests[1]["messages"][-1]["content"])
    assert reply.retries == 1 and SPELL_COPY.format(word="éphémère", spelled="épémère") in told, told
    assert reply.code_blocks[-1].output.strip() == "é p h é m è r e", reply.answer
    assert spell_request(text, "É, P, H, É, M, È, R, E", "fr") is None
    assert spell_request("spell cat for me", "d o g", "en") is None  # no word of the request is near


@pytest.mark.parametrize(
    ("language", "text", "date"),
    [
        ("fr", "Mon anniversaire, c'est le 18 mai. En 2033, il tombera quel jour ?", "2033-05-18"),
        ("en", "what day of the week is the 4th of July 2027", "2027-07-04"),
        ("de", "Auf welchen Wochentag fällt Heiligabend 2027?", "2027-12-24"),
        ("es", "¿Qué día de la semana cae el 1 de enero de 2030?", "2030-01-01"),
        ("it", "Che giorno della settimana sarà il 25 aprile 2028?", "2028-04-25"),
        ("nl", "Op welke dag van de week valt Koningsdag in 2029?", "2029-04-27"),
    ],
)
async def test_a_date_printed_for_a_weekday_is_asked_again(
    make_agent, llm: ScriptedLLM, language: str, text: str, date: str
) -> None:
    """A date printed where the user asked for a day of the week ("il tombera quel jour": "18/05", seventh
    held-out set, now a dev set): asked once; the weekday's name printed after it is said."""
    from o1_server.agent.answer_shape import WEEKDAY, weekday_request

    agent = make_agent()
    names = "['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche']"
    day = f"import datetime\nd = datetime.date.fromisoformat({date!r})\n"
    llm.script(code(day + "print(d.strftime('%d/%m/%Y'))"), code(day + f"print({names}[d.weekday()], d.strftime('%d/%m/%Y'))"))
    reply = await agent.ask(text, f"c-weekday-{language}", profile="default", language=language)
    assert reply.retries == 1 and WEEKDAY in str(llm.requests[1]["messages"][-1]["content"])
    assert any(name in reply.answer for name in ("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"))
    assert weekday_request(text, "Le 18/05/2033 est un mercredi.", language) is None
    assert weekday_request(text, "Wednesday, 18/05/2033", language) is None
    assert weekday_request("Combien de jours jusqu'au 18 mai ?", "162", "fr") is None
    # A word of the conversation's language that is another language's short name ("mon": Monday) is no weekday
    said = "Mon anniversaire, c'est le 18 mai. En 2033, il tombera quel jour ?"
    assert weekday_request(said, "En 2033, mon anniversaire sera le 18/05", "fr") is not None
    assert weekday_request("What day of the week is the 18th of May 2033?", "Wed 18/05/2033", "en") is None
    # a breaker's finds: short names are common words of their languages; "Sonnabend" is Saturday
    assert weekday_request("Welcher Wochentag ist der 18.05.2033?", "So fällt der 18.05.2033.", "de") is not None
    assert weekday_request("Op welke dag van de week valt 18 mei?", "Dat is zo: 18-05-2033", "nl") is not None
    assert weekday_request("Welcher Wochentag ist der 18.05.2033?", "Der 18.05.2033 ist ein Sonnabend.", "de") is None


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("de", "Das Taxi hat 27,40 Euro gekostet. Ich will zehn Prozent Trinkgeld geben und dann auf den nächsten "
               "vollen Euro aufrunden. Wie viel gebe ich insgesamt?"),
        ("en", "the taxi was 27.40, add ten percent and round it up to the next pound"),
        ("fr", "Le taxi coûte 27,40 euros, plus dix pour cent, arrondi à l'euro supérieur"),
        ("es", "El taxi son 27,40 euros más un diez por ciento, redondeado hacia arriba"),
        ("it", "Il taxi costa 27,40 euro più il dieci per cento, arrotondato per eccesso"),
        ("nl", "De taxi kost 27,40 euro plus tien procent, rond het naar boven af"),
    ],
)
async def test_a_rounding_up_asked_and_not_done_is_asked_again(make_agent, llm: ScriptedLLM, language: str, text: str) -> None:
    """"auf den nächsten vollen Euro aufrunden" coded ``27.40 * 1.1 + 0.5`` (seventh held-out set, now a dev
    set): asked once to round up; math.ceil's 31 is said. Code that rounds as asked is not asked again."""
    from o1_server.agent.answer_shape import ROUND, round_request

    agent = make_agent()
    llm.script(code("print('Total', round(27.40 * 1.1 + 0.5, 2))"), code("import math\nprint('Total', math.ceil(27.40 * 1.1))"))
    reply = await agent.ask(text, f"c-round-{language}", profile="default", language=language)
    assert reply.retries == 1 and ROUND.format(way="up") in str(llm.requests[1]["messages"][-1]["content"])
    assert "31" in reply.answer and "30" not in reply.answer, reply.answer
    assert round_request(text, "import math\nprint(math.ceil(30.14))", language) is None
    assert round_request("round it down to whole euros", "print(int(30.14))", "en") is None
    assert round_request("round it down to whole euros", "print(round(30.14))", "en") is not None
    assert round_request("how many days until the next full moon", "print(3)", "en") is None


@pytest.mark.parametrize(
    ("function", "language", "text", "said"),
    [
        # a breaker's finds: context, not a question for a weekday; a changed form spelled; rounding idioms
        ("weekday", "en", "Every weekday I walk 5 km, how far in a year?", "You walk 1300 km a year."),
        ("weekday", "de", "Wie viele Wochentage hat der März?", "23"),
        ("weekday", "it", "Che giorno della settimana è oggi?", "Oggi è giovedi."),
        ("spell", "en", "How do you spell the plural of house?", "h o u s e s"),
        ("spell", "en", "Spell Tuesday", "Tuesday: T, U, E, S, D, A, Y. 7 letters."),
        ("round", "en", "50 eggs, 12 per box, how many boxes? Round up.", "print(-(-50 // 12))"),
        ("round", "de", "Ich fahre jede Runde auf dem Rad 4 km, wie viel bei 5 Runden?", "print(4 * 5)"),
    ],
)
def test_what_a_shape_check_leaves_alone(function: str, language: str, text: str, said: str) -> None:
    from o1_server.agent.answer_shape import round_request, spell_request, weekday_request

    check = {"weekday": weekday_request, "spell": spell_request, "round": round_request}[function]
    assert check(text, said, language) is None


def test_a_word_printed_whole_is_asked_spelled_with_the_users_own_word() -> None:
    """"Épémère" printed for "épeler le mot éphémère": the request names the user's word, not the model's copy
    (told only "print(' '.join(word))", the model spelled its own wrong copy, seventh held-out set)."""
    from o1_server.agent.answer_shape import spell_request

    told = spell_request("Tu peux m'épeler le mot éphémère, lettre par lettre ?", "Épémère", "fr")
    assert told is not None and "' '.join('éphémère')" in told, told
    told = spell_request("spell it letter by letter", "Here it is", "en")
    assert told is not None and "' '.join('word')" in told, told


@pytest.mark.parametrize(
    ("language", "text", "asked"),
    [
        ("nl", "Een rol behang is 10 meter lang en mijn muur is 2.4 meter hoog. Hoeveel hele banen haal ik uit één rol?", True),
        ("en", "A roll is 10 metres and the wall 2.4 metres high, how many whole strips do I get from a roll?", True),
        ("de", "Wie viele ganze Bahnen bekomme ich aus einer Rolle von 10 Metern bei 2.4 Metern Höhe?", True),
        ("fr", "Combien de bandes entières je tire d'un rouleau de 10 mètres pour un mur de 2.4 mètres ?", True),
        ("es", "¿Cuántas tiras enteras saco de un rollo de 10 metros si la pared mide 2.4?", True),
        ("it", "Quante strisce intere ottengo da un rotolo di 10 metri con una parete di 2.4?", True),
        ("en", "How many full-time staff work 37.5 hours for 300 hours a week?", False),
        ("en", "What is the full price of 3 coats at 49.90?", False),
        ("en", "How many whole pizzas do I need for 10 people if each eats 3 slices and a pizza has 8?", True),
    ],
)
def test_how_many_whole_ones_is_a_rounding_down(language: str, text: str, asked: bool) -> None:
    """"Hoeveel hele banen haal ik uit één rol?" answered 4,17 (seventh held-out set, a dev set): a count of
    whole ones is a floor; code with ``//``, ``int()`` or ``math.floor`` is left alone."""
    from o1_server.agent.answer_shape import ROUND, round_request

    told = round_request(text, "print(10 / 2.4)", language, "4.166666666666667")
    assert (told is not None and told.startswith(ROUND.format(way="to whole ones"))) is asked, told
    assert round_request(text, "print(10 // 2.4)", language, "4.0") is None
    assert round_request(text, "print(int(10 / 2.4))", language, "4") is None
    assert round_request(text, "import math\nprint(math.ceil(10 / 2.4))", language, "5") is None
    assert round_request(text, "print(4)", language, "4") is None  # whole already


@pytest.mark.parametrize(
    ("language", "text", "output", "asked"),
    [
        ("en", "12 kilo bags and she eats 300 grams a day, how many days does a bag last", "A bag lasts 0.025 days", True),
        ("en", "I did 14000 steps and my stride is 78 centimetres, how many miles did I walk", "You walked 0.000439 miles", True),
        ("es", "Mi tío tiene una finca de 40 acres. ¿Cuántas hectáreas son?", "40 acres son 0,64 hectáreas", True),
        ("de", "Ein Sack hat 12 kg und sie frisst 300 g am Tag. Wie viele Tage reicht er?", "Er reicht 0,025 Tage.", True),
        ("fr", "Un sac fait 12 kg et il mange 300 g par jour. Combien de jours dure un sac ?", "Un sac dure 0.025 jours.", True),
        # money, percents, numbers the question gives, other questions, counts of one or more
        ("en", "how many euros do I save a day", "You save 0.50 euros a day", False),
        ("en", "how many of my runs were Priya's, as a share", "Priya ran 45 % of the runs, 0.45 %", False),
        ("en", "how many litres is 0.5 gallons", "0.5 gallons is 1.89 litres", False),
        ("en", "what is 3 divided by 4", "0.75", False),
        ("fr", "Combien coûte une pomme à 0.45 euro ?", "Elle coûte 0.45 euro", False),
        ("fr", "Combien de temps pour 100 m à 20 km/h ?", "0.3 minutes", False),
        ("nl", "Hoeveel kost een appel?", "Een appel kost 0,45", False),
        ("en", "how many days does a 12 kilo bag last at 300 grams a day", "A bag lasts 40 days", False),
        # a breaker's finds: conversions to a larger unit, rates, money and percents written other ways
        ("en", "How many hours is 30 minutes?", "30 minutes is 0.5 hours.", False),
        ("en", "How many miles is one kilometer?", "1 kilometer is 0.621371 miles", False),
        ("de", "Wie viele Stunden sind 30 Minuten?", "Das sind 0,5 Stunden.", False),
        ("it", "Quante ore sono 45 minuti?", "Sono 0,75 ore.", False),
        ("en", "How many pizzas does each person get if 4 people share 2 pizzas?", "0.5 pizzas each", False),
        ("fr", "Combien de farine faut-il par crêpe ?", "Il faut 0,05 kg de farine.", False),
        ("en", "how many apples can I buy", "Each apple costs $0.75.", False),
        ("de", "Wie viele Punkte?", "0,75 EUR und 0,5 Prozent", False),
        ("en", "how many degrees did it drop", "It dropped by -0.5 degrees.", False),
        # a breaker's find: a count below one in scientific notation, as numpy and f"{x:e}" print it
        ("en", "12 kilo bags and 300 grams a day, how many days does a bag last", "A bag lasts 2.5e-02 days", True),
        ("en", "how many days does a bag last", "A bag lasts 4e+01 days", False),
    ],
)
def test_a_count_printed_below_one_is_asked_again(language: str, text: str, output: str, asked: bool) -> None:
    """A count the user asked for printed below one (a ratio the wrong way round, a unit factor misused: each
    such answer on the dev sets was wrong) is asked again once; money, percents and given numbers are not."""
    from o1_server.agent.answer_shape import BELOW_ONE, below_one_request

    told = below_one_request(text, output, language)
    assert (told is not None and told.startswith(BELOW_ONE.split("{", 1)[0])) is asked, told


async def test_a_ratio_the_wrong_way_round_is_asked_again(make_agent, llm: ScriptedLLM) -> None:
    """"How many days does a bag last" coded 0.3 / 12 (seventh held-out set, a dev set): asked once, the
    model divides the bag by the daily amount and 40 days are said."""
    agent = make_agent()
    llm.script(code("print('A bag lasts', 0.3 / 12, 'days')"), code("print('A bag lasts', 12 / 0.3, 'days')"))
    reply = await agent.ask("the puppy's food comes in twelve kilo bags and she gets through three hundred grams a"
                            " day, how many days does a bag last", "c-below-one", profile="default")
    assert reply.retries == 1 and "40" in reply.answer, reply.answer
    assert "less than one" in str(llm.requests[1]["messages"][-1]["content"])


@pytest.mark.parametrize(
    ("language", "text", "src", "said"),
    [
        ("es", "¿Cuántas palabras tiene la frase en un lugar de la Mancha de cuyo nombre no quiero acordarme?",
         "print('La frase tiene', len('en un lugar de la Mancha de cuyo nombre no quiero acordarme'), 'palabras')", "12"),
        ("en", "How many letters are in the phrase hello world?", "t = 'hello world'\nprint('It has', len(t), 'letters')", "10"),
        ("de", "Wie viele Wörter hat der Satz Der Hund bellt laut?", "print('Der Satz hat', len('Der Hund bellt laut'), 'Wörter')", "4"),
        ("it", "Quante lettere ha la parola arcobaleno?", "print('Ha', len('arcobaleno'), 'lettere')", None),  # one word
        ("en", "How many words are in notes.txt?", "print(len(open('notes.txt').read().split()))", None),
        ("en", "How long is the phrase hello world?", "print(len('hello world'))", None),  # no words or letters asked
    ],
)
async def test_the_characters_of_a_text_counted_for_its_words_are_handed_back(
    make_agent, llm: ScriptedLLM, language: str, text: str, src: str, said: str | None
) -> None:
    """"¿Cuántas palabras tiene la frase ...?" answered with len() of the text, its characters (seventh
    held-out set, a dev set): the request hands back the block counting its split() (or its letters), and a
    model that runs it says the count. One word's len() is its letters; a split() is left alone."""
    from o1_server.agent.answer_shape import count_request

    if said is None:
        assert count_request(text, src, language) is None
        return
    agent = make_agent()
    llm.script(code(src), llm.handed)
    reply = await agent.ask(text, f"c-count-{language}", profile="default", language=language)
    assert reply.retries == 1 and said in reply.answer, reply.answer
    assert "Run this corrected block" in str(llm.requests[1]["messages"][-1]["content"])


@pytest.mark.parametrize(
    ("language", "text", "output", "word"),
    [
        ("es", "¿Cómo se dice la palabra caramelo al revés?", "El reverso de caramelo es melacón", "caramelo"),
        ("en", "spell the word rhubarb backwards", "b r a h u b r", "rhubarb"),
        ("en", "reverse the word rhubarb", "rhubarb", "rhubarb"),
        ("it", "Come si scrive al contrario la parola cavallo?", "cavallo", "cavallo"),
        ("de", "Wie heißt das Wort Regenschirm rückwärts?", "Regenschirm", "Regenschirm"),
        ("fr", "Écris le mot «bonjour» à l'envers", "bonjour", "bonjour"),
        ("nl", "Wat is het woord fiets achterstevoren?", "fiets", "fiets"),
        # printed backwards already (letters alone compared), an order, no word named
        ("es", "¿Cómo se dice la palabra caramelo al revés?", "Caramelo al revés es olemarac.", None),
        ("en", "spell the word rhubarb backwards", "B-R-A-B-U-H-R", None),
        ("en", "sort the word list in reverse order", "done", None),
        ("en", "list the files in reverse alphabetical order", "c, b, a", None),
        ("en", "count backwards from ten", "10 9 8", None),
        # a breaker's finds: a preposition after the noun, a list or an order, an elision taken for a quote
        ("en", "Say the name of my cat backwards, it's Tiger", "regiT", None),
        ("es", "Escribe el nombre de mi perro al revés: Rocky", "Rocky", None),
        ("nl", "de naam van mijn hond achterstevoren", "Rex", None),
        ("de", "Wie lautet das Wort rückwärts: Erdbeere?", "Erdbeere", None),
        ("de", "Lies mir die Liste „Einkauf“ in umgekehrter Reihenfolge vor", "Milch, Brot", None),
        ("en", "Read my 'todo' list backwards", "c, b, a", None),
        ("fr", "la date d'aujourd'hui à l'envers", "8 décembre", None),
        ("it", "il nome dell'utente al contrario", "Mario", None),
    ],
)
def test_a_word_asked_for_backwards_is_handed_reversed(
    language: str, text: str, output: str, word: str | None
) -> None:
    from o1_server.agent.answer_shape import REVERSE, reverse_request

    told = reverse_request(text, output, language)
    if word is None:
        assert told is None, told
        return
    assert told is not None and told.startswith(REVERSE.split("{", 1)[0]) and f"print({word!r}[::-1])" in told


async def test_a_word_backwards_is_said_reversed(make_agent, llm: ScriptedLLM) -> None:
    """"¿Cómo se dice la palabra caramelo al revés?" printed "melacón" twice (eighth held-out set, now a dev
    set): handed the line that reverses it, the model runs it and "olemarac" is said."""
    agent = make_agent()
    llm.script(code("print('El reverso de caramelo es melacón')"), llm.handed)
    reply = await agent.ask("¿Cómo se dice la palabra caramelo al revés?", "c-reves", profile="default", language="es")
    assert reply.retries == 1 and "olemarac" in reply.answer, reply.answer


READ_LINES = "with open('family_birthdays.txt') as f:\n    for line in f:\n        print(line.strip())"


@pytest.mark.parametrize(
    ("language", "text", "src", "asked"),
    [
        ("en", "read out the birthdays in family_birthdays.txt in the order they come round in the year", READ_LINES,
         True),
        ("en", "read me the names in alphabetical order", READ_LINES, True),
        ("it", "Mettimi in ordine alfabetico le cose di lista_spesa.txt", READ_LINES, True),
        ("de", "Sortiere die Liste alphabetisch", READ_LINES, True),
        ("fr", "Range les étapes de la plus courte à la plus longue", READ_LINES, True),
        ("es", "Ordena la lista por fecha", READ_LINES, True),
        ("nl", "Zet de groenten op alfabetische volgorde", READ_LINES, True),
        # sorted, picked by value, no order asked, "in order to"
        ("en", "read me the names in alphabetical order", "print(sorted(open('n.txt').read().split()))", False),
        ("en", "who scored most, in order", "import json\nd = json.load(open('s.json'))\nprint(max(d, key=d.get))",
         False),
        ("en", "I need the list in order to plan", READ_LINES, False),
        ("en", "read me the list", READ_LINES, False),
        ("it", "Voglio ordinare una pizza", READ_LINES, False),
        # a breaker's finds: the file's own order, "sort of", "in working order", a computer, sorts done otherwise
        ("en", "Read my shopping list in the order I wrote it", READ_LINES, False),
        ("de", "Lies mir die Schritte der Reihe nach vor", READ_LINES, False),
        ("fr", "Lis-moi la liste dans l'ordre où je l'ai écrite", READ_LINES, False),
        ("nl", "Lees de lijst op volgorde van invoer voor", READ_LINES, False),
        ("en", "What sort of files are in my folder?", READ_LINES, False),
        ("en", "Is the printer in working order?", READ_LINES, False),
        ("es", "¿Cuánto espacio libre queda en el ordenador?", READ_LINES, False),
        ("it", "Ordina una pizza margherita", READ_LINES, False),
        ("fr", "Quels fichiers ai-je triés hier ?", READ_LINES, False),
        ("en", "list the sales in date order", "import pandas as pd\nprint(pd.read_csv('s.csv').sort_index())", False),
        ("en", "names in alphabetical order", "import sqlite3\nprint(sqlite3.connect('d.db').execute("
         "'SELECT n FROM t ORDER BY n').fetchall())", False),
    ],
)
def test_an_order_asked_and_never_sorted_is_asked_again(language: str, text: str, src: str, asked: bool) -> None:
    """"read out the birthdays ... in the order they come round in the year" printed the file as it was (eighth
    held-out set, now a dev set): code that never sorts for an asked order is asked once more."""
    from o1_server.agent.answer_shape import UNSORTED, unsorted_request

    told = unsorted_request(text, src, "Auntie Joan - 23 September", language)
    assert (told is not None and told.startswith(UNSORTED)) is asked, told


async def test_names_never_sorted_are_said_in_order_after_one_request(
    make_agent, llm: ScriptedLLM, tmp_path: Path
) -> None:
    agent = make_agent()
    conversation_files(tmp_path, "c-unsorted", {"team.txt": "Zoe\nAmir\nLuca\n"})
    unsorted = "print(', '.join(open('team.txt').read().split()))"
    llm.script(code(unsorted), code(unsorted.replace("', '.join(", "', '.join(sorted(") + ")"))
    reply = await agent.ask("read me the names in team.txt in alphabetical order", "c-unsorted", profile="default")
    assert reply.retries == 1 and "Amir, Luca, Zoe" in reply.answer, reply.answer
    assert "never sorts them" in str(llm.requests[1]["messages"][-1]["content"])
