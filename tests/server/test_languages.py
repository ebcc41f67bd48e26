"""The conversation's language: o1's own sentences (agent/i18n.py, agent/translations/*.yaml), the confirmation
answer judged in it, what the model is told, and number words as digits. End to end with a real agent, real
Open Interpreter and sandbox, and the scripted LLM."""

from __future__ import annotations

from pathlib import Path

import pytest

from o1_server.agent import i18n, policy
from o1_server.agent.policy.categories import TABLE
from o1_server.agent.sandbox import conversation_dir
from o1_server.agent.declines import restates
from o1_server.agent.session import is_yes
from o1_server.agent.types import AgentError
from tests.support.scripted_llm import ScriptedLLM

ENGLISH = i18n.table("en")


def code(src: str, language: str = "python") -> str:
    return f"```{language}\n{src}\n```"


def folder(tmp_path: Path, cid: str) -> Path:
    path = conversation_dir(tmp_path / "data" / "sandbox", cid)
    path.mkdir(parents=True, exist_ok=True)
    return path


def user_text(llm: ScriptedLLM) -> str:
    """The last user message of the last request the model got."""
    users = [m for m in llm.requests[-1]["messages"] if m["role"] == "user"]
    content = users[-1]["content"]
    return content if isinstance(content, str) else " ".join(part.get("text", "") for part in content)


# ---------------------------------------------------------------------------------------------- the tables
@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_every_key_in_every_language_with_the_same_fields(language: str) -> None:
    """Every key of English's in every language, with the same fields; but the unit words (``units.``): each
    language names the units its speakers use (a German "Pfund" is 500 g, a Dutch "ons" 100 g), of English's."""
    table = i18n.table(language)
    own = {key for key in table if not key.startswith("units.")}
    common = {key for key in ENGLISH if not key.startswith("units.")}
    assert own == common, f"{language}: missing {common - own}, extra {own - common}"
    assert {key for key in table if key.startswith("units.")} <= set(ENGLISH), language
    assert sum(key.startswith("units.") for key in table) >= 20, language
    for key, english in ENGLISH.items():
        if key not in table and key.startswith("units."):
            continue
        said = table[key]
        if isinstance(english, list):
            assert isinstance(said, list) and said and all(isinstance(w, str) and w for w in said), key
        else:
            assert isinstance(said, str) and said.strip(), key
            assert i18n.fields(said) == i18n.fields(english), f"{language} {key}: {said!r}"


def test_english_says_what_the_categories_say() -> None:
    for category in TABLE:
        assert ENGLISH[f"category.{category.name}.denied"] == category.denied
        assert ENGLISH[f"category.{category.name}.clause"] == category.clause


def test_every_action_template_is_said_as_english_writes_it() -> None:
    for key, said in ENGLISH.items():
        if key.startswith("actions."):
            assert said == key.removeprefix("actions.").replace("{}", "{target}")


@pytest.mark.parametrize(
    ("asked", "spoken"),
    [
        ("de-DE", "de"),
        ("de_DE", "de"),
        ("DE", "de"),
        ("fr-CA", "fr"),
        ("es", "es"),
        ("nl-BE", "nl"),
        ("it_IT.UTF-8", "it"),
        ("pt-BR", "en"),
        ("", "en"),
        (None, "en"),
        ("xx", "en"),
        (42, "en"),
    ],
)
def test_normalize(asked: object, spoken: str) -> None:
    assert i18n.normalize(asked) == spoken


def test_a_missing_key_falls_back_to_english(monkeypatch: pytest.MonkeyPatch) -> None:
    german = dict(i18n.table("de"))
    del german["confirm.cancelled"]
    real = i18n.table
    monkeypatch.setattr(i18n, "table", lambda language: german if language == "de" else real(language))
    assert i18n.t("de", "confirm.cancelled") == "Okay, I won't do it."
    assert i18n.t("de", "confirm.done") == "Erledigt."
    with pytest.raises(KeyError):
        i18n.t("de", "no.such.key")


def test_an_unknown_language_is_english() -> None:
    assert i18n.t("pt-BR", "confirm.question", summary="I'm about to delete a.txt") == (
        "I'm about to delete a.txt. Shall I?"
    )
    assert i18n.language_name("de-AT") == "German"


# ---------------------------------------------------------------------------------------------- summaries
@pytest.mark.parametrize(
    ("language", "summary", "refusal"),
    [
        ("en", "I'm about to delete entwurf.txt.", "doesn't allow touching files outside my working folder"),
        ("de", "Ich würde jetzt entwurf.txt löschen.", "den Zugriff auf Dateien außerhalb meines Arbeitsordners"),
        ("fr", "Je vais supprimer entwurf.txt.", "n'autorise pas l'accès aux fichiers en dehors"),
        ("es", "Voy a borrar entwurf.txt.", "no permite tocar archivos fuera de mi carpeta de trabajo"),
        ("nl", "Ik ga entwurf.txt verwijderen.", "staat toegang tot bestanden buiten mijn werkmap niet toe"),
        ("it", "Sto per eliminare entwurf.txt.", "non consente di toccare file fuori dalla mia cartella"),
    ],
)
def test_the_policy_speaks_the_turn_language(tmp_path: Path, language: str, summary: str, refusal: str) -> None:
    with i18n.speaking(language):
        assert policy.classify("shell", "rm entwurf.txt", tmp_path).summary == summary
        found = policy.classify("shell", "cat /etc/passwd", tmp_path)
        assert refusal in policy.decide({"outside_sandbox": "deny"}, found).reason
        several = policy.classify("shell", "rm a.txt b.txt && curl https://example.com", tmp_path).summary
    assert "2" in several and "example.com" in several
    if language != "en":
        assert "I'm about to" not in several and " files " not in several
    assert policy.classify("shell", "rm a.txt", tmp_path).summary == "I'm about to delete a.txt."  # after the turn


# ---------------------------------------------------------------------------------------------- yes and no
@pytest.mark.parametrize(
    ("language", "answer"),
    [
        ("de", "Ja."),
        ("de", "Ja, mach das."),
        ("de", "jawohl"),
        ("de", "Klar, bitte."),
        ("fr", "Oui."),
        ("fr", "D’accord."),
        ("fr", "Oui, vas-y."),
        ("es", "¡Sí, claro!"),
        ("es", "Vale."),
        ("nl", "Ja, doe maar."),
        ("nl", "Jazeker!"),
        ("it", "Sì, certo."),
        ("it", "Va bene."),
        ("de", "Yes."),
        ("en", "Ja."),
    ],
)
def test_a_plain_yes(language: str, answer: str) -> None:
    assert is_yes(answer, language)


@pytest.mark.parametrize(
    ("language", "answer"),
    [
        ("de", "Ja, aber nicht jetzt."),
        ("de", "Nein."),
        ("de", "Ja nein"),
        ("fr", "oui mais non"),
        ("fr", "Non."),
        ("es", "no"),
        ("es", "Sí, pero mañana."),
        ("nl", "Nee."),
        ("nl", "ja, later"),
        ("it", "No, grazie."),
        ("it", "sì ma dopo"),
        ("de", "Okay, cancel that."),
        ("en", "Okay, cancel that."),
        ("en", "vale"),
        ("fr", "Oui ?"),
    ],
)
def test_anything_else_is_no(language: str, answer: str) -> None:
    assert not is_yes(answer, language)


HELD = "I'm about to delete entwurf.txt.\nimport os\nos.remove('entwurf.txt')"


@pytest.mark.parametrize(
    ("language", "answer"),
    [
        ("en", "Yes, delete it."),
        ("en", "yes delete entwurf.txt"),
        ("en", "Sure, go ahead and delete it"),
        ("en", "Of course."),
        ("en", "Yes, I'm sure"),
        ("de", "Ja, lösch sie."),
        ("de", "Natürlich, danke."),
        ("fr", "Oui, supprime-le"),
        ("fr", "Oui, merci"),
        ("es", "Sí, bórralo ya"),
        ("es", "Sí, por favor, bórralo"),
        ("it", "Sì, cancellalo pure"),
        ("nl", "Ja, verwijder het maar"),
    ],
)
def test_a_yes_that_says_what_it_agrees_to(language: str, answer: str) -> None:
    assert is_yes(answer, language, HELD)
    assert restates(answer, language, HELD) or i18n.confirms(answer, language)


@pytest.mark.parametrize(
    ("language", "answer"),
    [
        ("en", "Yes, delete b.txt"),  # another file than the held block's
        ("en", "yes, delete all 3 files"),  # a number the block does not hold
        ("en", "Yes but only the first"),
        ("en", "Yes, and then list the files"),
        ("en", "Yes, but keep a copy of it first"),
        ("en", "yes, wait"),
        ("en", "Yes? What will be deleted?"),
        ("en", "Yes, delete it and then empty the whole folder and the trash as well"),  # too long to be a restatement
        ("de", "Ja, aber erst morgen"),
        ("de", "Ja, lösch stattdessen notes.txt"),
        ("fr", "Oui, et aussi notes.txt"),
        ("fr", "Oui, mais pas maintenant"),
        ("es", "Sí, pero solo el primero"),
        ("it", "Sì, ma prima fammi vedere"),
        ("nl", "Ja, maar niet nu"),
        # more than the one held file: a new request (it was run as held, one file deleted of "all")
        ("en", "yes delete all the files"),
        ("en", "Yes, delete everything"),
        ("es", "sí, borra todos los archivos"),
        ("de", "Ja, lösch alle Dateien"),
        ("fr", "Oui, supprime tous les fichiers"),
        ("it", "Sì, cancella tutti i file"),
        ("nl", "Ja, verwijder alle bestanden"),
    ],
)
def test_a_yes_that_asks_for_something_else_is_not_one(language: str, answer: str) -> None:
    assert not is_yes(answer, language, HELD)


def test_all_agrees_when_the_held_block_names_several_files() -> None:
    held = "I'm about to delete a.txt and b.txt. Shall I?"
    assert is_yes("yes, delete them all", "en", held) and is_yes("Ja, lösch alle", "de", "Ich lösche a.txt und b.txt.")


@pytest.mark.parametrize(
    ("language", "answer"),
    [("en", "yes, every one of them"), ("en", "yes, each of them"), ("de", "Ja, jede einzelne"),
     ("fr", "oui, tous"), ("es", "sí, todas"), ("it", "sì, ognuno"), ("nl", "ja, allemaal")],
)
def test_every_one_agrees_when_the_held_block_names_no_file(language: str, answer: str) -> None:
    """"get rid of all the voice memos": the held question names no file ("some files", a pattern run later), so
    "every one of them" asks for nothing more (seventh held-out set, now a dev set: it was a new request)."""
    held = i18n.t(language, "confirm.question", summary=i18n.t(language, "kind_plain.delete"))
    assert is_yes(answer, language, held), held
    assert not is_yes(answer, language, HELD)  # one held file: "all of them" is more than it would do


@pytest.mark.parametrize(
    ("language", "answer"),
    [("de", "Ja, überschreib sie ruhig."), ("en", "yes, overwrite it"), ("fr", "oui, écrase-le"),
     ("es", "sí, sobrescribe"), ("it", "sì, sovrascrivi pure"),
     ("nl", "ja, overschrijf het maar")],
)
def test_a_yes_to_overwrite_agrees_to_a_held_change_only(language: str, answer: str) -> None:
    """"Ja, überschreib sie ruhig." to "ich würde den Inhalt von wunschliste.txt ersetzen" was no yes (seventh
    held-out set, now a dev set): a verb of changing a file agrees to a held block that changes one, never to a
    deletion."""
    held = "wunschliste.txt"
    change = "open('wunschliste.txt', 'w').write('Fahrradhelm')"
    assert is_yes(answer, language, held, change)
    assert not is_yes(answer, language, held, "import os\nos.remove('wunschliste.txt')")


def test_a_yes_that_names_another_device_is_not_one() -> None:
    held, code = "I'm about to unlock Front Door.", "print(o1_ha.call_service('lock', 'unlock', entity_id='lock.front_door'))"
    assert not is_yes("Yes, unlock the back door", "en", held, code)
    assert is_yes("Yes, unlock it", "en", held, code) and is_yes("yes, unlock the front door", "en", held, code)
    assert not is_yes("Yes, lock the front door", "en", held, code)  # "lock" is in the code, not in the question
    assert is_yes("Sì, cancellalo pure", "it", "Sto per eliminare entwurf.txt.")  # a verb with its pronoun
    assert is_yes("dale, elimínalo", "es", "Voy a borrar notas.txt.")


def test_a_yes_that_names_the_held_file_in_its_own_words() -> None:
    """"Ja, klar, weg mit dem alten Entwurf." to the deletion of steuer_entwurf_alt.txt was no yes (eighth
    held-out set, now a dev set): a held word with an ending ("alten") and "mit" agree; another word does not."""
    held, code = "Ich würde jetzt steuer_entwurf_alt.txt löschen.", "import os\nos.remove('steuer_entwurf_alt.txt')"
    assert is_yes("Ja, klar, weg mit dem alten Entwurf.", "de", held, code)
    assert not is_yes("Ja, klar, weg mit dem neuen Entwurf.", "de", held, code)
    assert not is_yes("Ja, mit dem Steuerberater zusammen.", "de", held, code)
    assert not is_yes("Ja, weg mit dem Steuerbescheid", "de", held, code)  # a breaker's: another word's start
    assert not is_yes("Ja, lösch die Sicherungskopie", "de", held, code)


# ---------------------------------------------------------------------------------------------- number words
@pytest.mark.parametrize(
    ("language", "said", "seen"),
    [
        ("en", "What is three hundred and twelve times four?", "What is 312 times 4?"),
        ("en", "What is two plus two?", "What is 2 plus 2?"),
        ("en", "What is a third of ninety?", "What is 1/3 of 90?"),  # text2num: "a 3rd of 90"
        ("es", "la cuenta fue de ciento treinta y siete con sesenta", "la cuenta fue de 137.60"),  # "137 con 60"
        ("es", "costaban ochenta y nueve con noventa y ahora", "costaban 89.90 y ahora"),
        ("fr", "un fromage à quatre euros quatre-vingt-dix et trois yaourts", "un fromage à 4.90 euros et 3 yaourts"),
        ("fr", "trois cent douze euros quarante-cinq hors taxe", "312.45 euros hors taxe"),  # was 312 and 45
        ("fr", "soixante et onze", "71"),
        ("de", "zwei Euro fünfzig", "2.50 Euro"),  # a small number before a currency
        ("it", "costa sette euro e cinquanta al chilo", "costa 7.50 euro al chilo"),
        ("nl", "drie euro vijftig per stuk", "3.50 euro per stuk"),
        ("de", "ich habe drei Euro und zwanzig Freunde", "ich habe 3 Euro und 20 Freunde"),
        ("en", "two thirds of ninety", "2/3 of 90"),
        ("en", "the third of May", "the 3rd of May"),
        ("es", "un cuarto de ochenta", "1/4 de 80"),
        ("it", "due terzi di novanta", "2/3 di 90"),
        ("nl", "een derde van negentig", "1/3 van 90"),
        ("en", "What is ten divided by two?", "What is 10 divided by 2?"),
        ("en", "How many days until the twenty fifth of December?", "How many days until the 25th of December?"),
        ("en", "One of them is broken.", "One of them is broken."),
        ("en", "Give it a second try.", "Give it a second try."),
        ("en", "I have one question.", "I have one question."),
        ("en", "Delete the first file.", "Delete the first file."),
        ("de", "Was ist dreihundertzwölf mal vier?", "Was ist 312 mal 4?"),
        ("de", "Wie viel ist zwei plus zwei?", "Wie viel ist 2 plus 2?"),
        # an offset from a time zone is a number (seventh held-out set: "who's on UTC plus one" stayed a word)
        ("en", "my cousin in Berlin, who's on UTC plus one", "my cousin in Berlin, who's on UTC plus 1"),
        ("es", "Madrid está en GMT más dos", "Madrid está en GMT más 2"),
        ("en", "plus one more thing", "plus one more thing"),
        # Dutch "min" between numbers is minus (seventh held-out set: the model added 782 "min" 349)
        ("nl", "Hoeveel is zevenhonderdtweeëntachtig min driehonderdnegenenveertig?", "Hoeveel is 782 minus 349?"),
        ("nl", "het duurt 5 min", "het duurt 5 min"),
        ("de", "Ich habe eine Frage.", "Ich habe eine Frage."),
        ("de", "Lösche die erste Datei.", "Lösche die erste Datei."),
        ("fr", "Combien font trois cent douze fois quatre ?", "Combien font 312 fois 4 ?"),
        ("fr", "J'ai une question.", "J'ai une question."),
        ("es", "¿Cuánto es veinte más tres?", "¿Cuánto es 20 más 3?"),
        ("es", "Tengo una pregunta.", "Tengo una pregunta."),
        ("nl", "Hoeveel is zeven keer acht?", "Hoeveel is 7 keer 8?"),
        ("nl", "Ik heb een vraag.", "Ik heb een vraag."),
        ("it", "Quanto fa tre per due?", "Quanto fa 3 per 2?"),
        ("it", "Dammi una per favore.", "Dammi una per favore."),
        # A number and a half (the model coded "three and a half hours" as 1.5 * 60).
        ("en", "How many minutes is three and a half hours?", "How many minutes is 3.5 hours?"),
        ("en", "What is 12 and a half percent of 80?", "What is 12.5 percent of 80?"),
        ("en", "One and a half liters", "1.5 liters"),
        ("en", "A day and a half", "A day and a half"),  # no number to add a half to
        ("de", "Wie viele Minuten sind dreieinhalb Stunden?", "Wie viele Minuten sind 3.5 Stunden?"),
        ("de", "anderthalb Stunden", "1.5 Stunden"),
        ("nl", "Hoeveel minuten is drie en een half uur?", "Hoeveel minuten is 3.5 uur?"),
        ("nl", "anderhalf uur", "1.5 uur"),
        # French, Spanish and Italian halves are also clock times ("à trois heures et demie"): written as one
        # (tests/server/test_spoken_times.py), never as a decimal.
        ("fr", "trois heures et demie", "3:30"),
        ("fr", "deux kilos et demi de farine", "2.5 kilos de farine"),
        ("es", "un año y medio", "1.5 año"),
        ("es", "a las tres y media", "a las 3:30"),
        ("it", "due chili e mezzo", "2.5 chili"),
        # A percent in words stays a percent (text2num made "cinq pour cent" "5 pour 100"), and an operator
        # word small models misread between two digits is spelt out ("108 por 24" was coded as a division).
        ("fr", "Combien font cinq pour cent de quatre-vingts ?", "Combien font 5 % de 80 ?"),
        ("es", "¿Cuánto es el veinte por ciento de cincuenta?", "¿Cuánto es el 20 % de 50?"),
        ("es", "el diez por cien de treinta", "el 10 % de 30"),
        ("it", "il dieci per cento di cinquanta", "il 10 % di 50"),
        ("en", "twenty per cent of fifty", "20 % of 50"),
        ("es", "ciento ocho entre cuatro", "108 dividido entre 4"),
        ("es", "dime cuánto es ciento ocho por veinticuatro", "dime cuánto es 108 por 24"),  # "por": also divided
        ("es", "ciento ocho dividido entre cuatro", "108 dividido entre 4"),
        ("en", "what is 12 x 4", "what is 12 times 4"),
        ("de", "was ist 12 x 4", "was ist 12 mal 4"),
        # Cents said after the currency are one amount (the model divided "143 euros 50" by 50).
        ("en", "the bill came to eighty six dollars fifty, we are four", "the bill came to 86.50 dollars, we are 4"),
        ("fr", "l'addition fait cent quarante-trois euros cinquante.", "l'addition fait 143.50 euros."),
        ("de", "es kostet zwölf Euro fünfzig", "es kostet 12.50 Euro"),
        ("es", "cuesta tres dólares con veinte céntimos", "cuesta 3.20 dólares"),
        ("en", "it costs 3 dollars and 5 cents", "it costs 3.05 dollars"),
        ("en", "20 euros 10 people", "20 euros 10 people"),
        # ... whatever arithmetic follows (the cents were dropped before "minus", "moins", "menos"...).
        ("de", "neunzehn Euro neunundneunzig minus zwanzig Prozent", "19.99 Euro minus 20 Prozent"),
        ("en", "nineteen dollars ninety nine minus twenty percent", "19.99 dollars minus 20 percent"),
        ("fr", "dix-neuf euros quatre-vingt-dix-neuf moins vingt pour cent", "19.99 euros moins 20 %"),
        ("it", "diciannove euro e novantanove meno il venti per cento", "19.99 euro meno il 20 %"),
        ("nl", "negentien euro negenennegentig min twintig procent", "19.99 euro min 20 procent"),
        ("en", "twenty euros five times a month", "20 euros 5 times a month"),  # a count, not cents
        # An article before a number is an article: "un treinta por ciento" was "1 30 %", "un millón" "1 1000000".
        ("es", "me hacen un treinta por ciento de descuento", "me hacen un 30 % de descuento"),
        ("es", "diecinueve euros con noventa y nueve menos un veinte por ciento", "19.99 euros menos un 20 %"),
        ("fr", "un vingt pour cent de remise", "un 20 % de remise"),
        ("it", "un venti per cento di sconto", "un 20 % di sconto"),
        ("es", "un millón de euros", "1000000 de euros"),
        ("de", "eine Million Euro", "1000000 Euro"),
        ("es", "cuánto es uno más uno", "cuánto es 1 más 1"),
        ("es", "tres cuartos de ciento veinte", "3/4 de 120"),  # text2num: "3 4ᵒˢ de 120"
        # A number and a quarter or three quarters is one decimal ("two and three quarter cups" was "2 and 3
        # quarter cups": the model answered 182 ml for 2.75 cups of 240 ml).
        ("en", "how many millilitres is two and three quarter cups", "how many millilitres is 2.75 cups"),
        ("en", "one and a quarter hours", "1.25 hours"),
        ("de", "zweidreiviertel Tassen", "2.75 Tassen"),
        ("de", "eineinviertel Stunden", "1.25 Stunden"),
        ("fr", "deux tasses et trois quarts", "2.75 tasses"),
        ("es", "dos tazas y tres cuartos", "2.75 tazas"),
        ("it", "due tazze e tre quarti", "2.75 tazze"),
        ("nl", "twee en driekwart kopjes", "2.75 kopjes"),
        ("en", "a quarter to two cups of flour", "a quarter to two cups of flour"),
        # A year said in two numbers is one year (text2num: "born in 19 41"), after a word that takes a year.
        ("en", "my grandad was born on the second of November nineteen forty one", "my grandad was born on the second of November 1941"),
        ("en", "what day of the week is the fourth of July twenty twenty seven", "what day of the week is the 4th of July 2027"),
        ("en", "the house was built in nineteen sixty five", "the house was built in 1965"),
        ("en", "between twelve fifteen and one", "between 12 15 and 1"),  # not a year
        # ... also before a comma or a full stop (it was left "19 41, how old is he": the model said 64)
        ("en", "born on the second of November nineteen forty one, how old is he now",
         "born on the second of November 1941, how old is he now"),
        ("nl", "geboren in negentien zesenzestig.", "geboren in 1966."),
        ("en", "it was 19 41.5 degrees", "it was 19 41.5 degrees"),  # a decimal after it: not a year
        # Words text2num read as numbers, and amounts it left apart (a breaker's finds).
        ("it", "dodici euro e cinquanta centesimi", "12.50 euro"),  # was "12 euro e 50 100º"
        ("it", "novantadue centesimi", "0.92"),
        ("it", "cinquanta centesimi e un venti per cento di sconto", "0.50 e un 20 % di sconto"),  # both kept words
        ("en", "six pounds forty", "6.40 pounds"),
        # a price said after "for" with no currency word ("a kilo and a half for 3 75" was two numbers); a clock
        # time or a count after it stays ("for ten thirty", "for three twenty minutes")
        ("en", "a kilo and a half for three seventy five? and what", "a kilo and a half for 3.75? and what"),
        ("en", "I bought it for twelve fifty", "I bought it for 12.50"),
        ("en", "book it for ten thirty", "book it for 10 30"),
        ("en", "I waited for three twenty minutes", "I waited for 3 20 minutes"),
        # a small number said before a percent word ("un dos por ciento" was "un 2 por 100")
        ("es", "la casa de cambio se queda un dos por ciento", "la casa de cambio se queda un 2 %"),
        ("fr", "un deux pour cent de frais", "un 2 % de frais"),
        # an amount's cents before what the money is for (a deposit, a fee): "3 Euro 30 Pfand" was left apart
        ("de", "plus drei Euro dreißig Pfand", "plus 3.30 Euro Pfand"),
        ("en", "plus two dollars fifty shipping", "plus 2.50 dollars shipping"),
        ("fr", "plus quatre euros vingt de frais", "plus 4.20 euros de frais"),
        ("nl", "plus drie euro tien statiegeld", "plus 3.10 euro statiegeld"),
        ("en", "The baby weighs seven pounds eight.", "The baby weighs 7 pounds 8."),  # pounds and ounces
        ("es", "veintiún euros con noventa céntimos", "21.90 euros"),
        ("en", "I paid a hundred and twelve dollars for three tickets", "I paid 112 dollars for 3 tickets"),
        # Cents said alone are a decimal of the currency (the model divided by 92 for "a dollar is 92 cents").
        ("en", "say one dollar is ninety two cents", "say 1 dollar is 0.92"),
        ("de", "ein Dollar sind 92 Cent", "1 Dollar sind 0.92"),
        ("fr", "un dollar vaut quatre-vingt-douze centimes", "1 dollar vaut 0.92"),
        ("es", "un timbre cuesta cinco céntimos", "un timbre cuesta 0.05"),
        ("en", "it is 150 cents, or 2.5 cents", "it is 150 cents, or 2.5 cents"),
        # A duration's minutes said after its hours get their unit (the model coded "une heure 50" as hours=50).
        ("fr", "le rôti doit cuire une heure cinquante et on mange à 20h15", "le rôti doit cuire 1 h 50 min et on mange à 20:15"),
        ("fr", "il faut deux heures vingt pour y aller", "il faut 2 h 20 min pour y aller"),
        ("fr", "un film d'une heure cinquante-deux et un de deux heures huit", "un film d'1 h 52 min et 1 de 2 h 8 min"),
        ("de", "Der Braten braucht eine Stunde zwanzig.", "Der Braten braucht 1 h 20 min."),
        ("es", "el asado necesita una hora y cuarenta", "el asado necesita 1 h 40 min"),
        ("it", "ci vuole un'ora e venti", "ci vuole 1 h 20 min"),
        ("nl", "het duurt een uur twintig", "het duurt 1 h 20 min"),
        ("en", "it takes an hour forty, when do I leave", "it takes 1 h 40 min, when do I leave"),
        ("fr", "le rendez-vous est à une heure cinquante", "le rendez-vous est à 1:50"),  # a clock time
        ("en", "3 hours 15 days", "3 hours 15 days"),
        ("en", "2 hours 30.5", "2 hours 30.5"),
        ("en", "which hour 20 is it", "which hour 20 is it"),
        ("es", "a la una y veinte", "a la 1:20"),
        # An amount said with an article for one and its cents before "each" words ("a 1 euro e 20 l'uno": the
        # model priced a coffee at 1 euro), and two as a count among other numbers (it left "due caffè" out).
        ("it", "prendo due caffè a un euro e venti l'uno", "prendo 2 caffè a 1.20 euro l'uno"),
        ("en", "the coffees are a pound twenty each and I buy two a day", "the coffees are 1.20 pound each and I buy 2 a day"),
        ("de", "Ein Brötchen kostet einen Euro zwanzig das Stück", "Ein Brötchen kostet 1.20 Euro das Stück"),
        ("fr", "les croissants sont à un euro vingt l'unité", "les croissants sont à 1.20 euro l'unité"),
        ("fr", "le café coûte deux euros dix pièce", "le café coûte 2.10 euros pièce"),
        ("nl", "twee koffie van twee euro vijftig", "2 koffie van 2.50 euro"),
        ("en", "two-thirds of ninety", "two-thirds of 90"),
        ("en", "two of them", "two of them"),  # no other number: a word
        # A length or a weight in a unit and its smaller one is one decimal ("twee meter veertig" was 2 and 40).
        ("nl", "mijn muur is twee meter veertig hoog", "mijn muur is 2.4 meter hoog"),
        ("nl", "de muur is vijf meter dertig breed en een baan is drieënvijftig centimeter",
         "de muur is 5.3 meter breed en een baan is 53 centimeter"),
        ("en", "the shelf is two metres five long", "the shelf is 2.05 metres long"),
        ("en", "I am one metre eighty tall", "I am 1.8 metre tall"),
        ("de", "Das Paket wiegt ein Kilo zweihundert Gramm und kostet 5 Euro", "Das Paket wiegt 1.2 Kilo und kostet 5 Euro"),
        ("fr", "un mètre quatre-vingts de haut", "1.8 mètre de haut"),
        ("es", "un kilo doscientos gramos de harina", "1.2 kilo de harina"),
        ("it", "la parete è alta due metri e quaranta", "la parete è alta 2.4 metri"),
        ("en", "five meters three times", "5 meters 3 times"),  # a count after it
        ("en", "10 metres 3 planks", "10 metres 3 planks"),
        # a breaker's finds: a count after a price, two before a price, a count after "and", one digit of kilos
        ("de", "Ich habe für 10 Euro 2 Kilo Äpfel gekauft", "Ich habe für 10 Euro 2 Kilo Äpfel gekauft"),
        ("fr", "j'ai payé 10 euros 3 pièces", "j'ai payé 10 euros 3 pièces"),
        ("en", "dinner for two 25 dollars each", "dinner for 2 25 dollars each"),
        ("en", "I bought 2 kilos and 3 for my mother", "I bought 2 kilos and 3 for my mother"),
        ("fr", "mon bébé pesait 3 kilos 2 à la naissance", "mon bébé pesait 3.2 kilos à la naissance"),
        # A breaker's findings: "for a hundred", divisions and offers, decimal commas, weights, sums.
        ("fr", "J'ai acheté un vélo pour cent euros", "J'ai acheté un vélo pour 100 euros"),
        ("es", "Lo compré por cien euros", "Lo compré por 100 euros"),
        ("fr", "trois pour cent mille habitants", "3 pour 100000 habitants"),
        ("it", "dividi 100 per 4", "dividi 100 per 4"),
        ("es", "la oferta es 3 por 2", "la oferta es 3 por 2"),
        ("de", "Ich habe 20 Euro und 2,5 Kilo", "Ich habe 20 Euro und 2,5 Kilo"),
        ("en", "The baby weighs 7 pounds 8.", "The baby weighs 7 pounds 8."),
        ("de", "Rechne 100 Euro und 20.", "Rechne 100 Euro und 20."),
        # Two numbers joined by "and" after a tens word; thousands written apart; a decimal before a scale word.
        ("en", "three meters forty and two meters ninety", "3.4 meters and 2.9 meters"),
        ("en", "I paid forty and she paid two", "I paid 40 and she paid 2"),
        ("en", "one hundred and twenty", "120"),
        ("fr", "quarante et deux", "40 et 2"),
        ("fr", "soixante et onze et trente et un", "71 et 31"),
        ("it", "quaranta e due", "40 e 2"),
        ("fr", "J'ai 1 500 euros", "J'ai 1500 euros"),
        ("fr", "Il y a 1\u202f500\u00a0000 habitants", "Il y a 1500000 habitants"),
        ("de", "Ich habe 1.500,50 Euro und 2,5 kg", "Ich habe 1500.50 Euro und 2,5 kg"),
        ("nl", "10.000 stappen", "10000 stappen"),
        ("de", "um 12.30 Uhr", "um 12.30 Uhr"),
        ("en", "I have 1,500 dollars", "I have 1,500 dollars"),
        ("en", "a budget of 2.5 million dollars split by four", "a budget of 2500000 dollars split by 4"),
        ("en", "three point two billion", "3200000000"),
        ("en", "one and a half thousand", "1500"),
        ("en", "a million and a half", "1500000"),
        ("fr", "un million et demi d'euros", "1500000 d'euros"),
        ("es", "un millón y medio de euros", "1500000 de euros"),
        ("it", "due milioni e mezzo di euro", "2500000 di euro"),
        ("fr", "trois kilos et demi", "3.5 kilos"),
        ("de", "zweieinhalb Millionen Euro durch vier", "2500000 Euro durch 4"),
        ("de", "zwei Komma fünf Millionen", "2500000"),
        ("fr", "deux virgule cinq millions", "2500000"),
        ("fr", "deux virgule zéro cinq millions", "2050000"),
        ("fr", "2,50 euros", "2,50 euros"),
        # A breaker's finds: a decimal typed with a dot or a leading zero is no thousands group; numbers read
        # apart by text2num stay apart; no scale word said, no product.
        ("de", "0.125 Liter und Pi ist 3.141", "0.125 Liter und Pi ist 3.141"),
        ("de", "Benzin kostet 1.799 Euro pro Liter", "Benzin kostet 1.799 Euro pro Liter"),
        ("de", "1.500.000 Einwohner", "1500000 Einwohner"),
        ("fr", "0 125", "0 125"),
        ("de", "3,141000000", "3,141000000"),
        ("en", "version 1.2 1000 times", "version 1.2 1000 times"),
        ("fr", "deux virgule cinq mille", "2500"),
        ("es", "dos coma cinco mil euros", "2500 euros"),
        ("nl", "twee komma vijf duizend", "2500"),
    ],
)
def test_number_words_become_digits(language: str, said: str, seen: str) -> None:
    assert i18n.digits(said, language) == seen


# ---------------------------------------------------------------------------------------------- end to end
async def test_a_german_deletion_is_asked_in_german_and_ja_runs_it(make_agent, llm: ScriptedLLM, tmp_path) -> None:
    agent = make_agent()
    draft = folder(tmp_path, "de-ja") / "entwurf.txt"
    draft.write_text("x")
    llm.script(code("rm entwurf.txt", "shell"))
    asked = await agent.ask("Lösche entwurf.txt", "de-ja", language="de-DE")
    assert asked.answer == "Ich würde jetzt entwurf.txt löschen. Soll ich das tun?"
    assert asked.continue_conversation and draft.exists()
    done = await agent.ask("Ja.", "de-ja")  # no language: the conversation's, German
    assert not draft.exists()
    assert done.answer.startswith("Erledigt.")
    [record] = [r for r in agent.audit.read("de-ja") if r.get("decision") == "allow"]
    assert record["code"] == "rm entwurf.txt" and record["completed"] and record.get("exit_status") == 0


async def test_nein_keeps_the_file(make_agent, llm: ScriptedLLM, tmp_path) -> None:
    agent = make_agent()
    draft = folder(tmp_path, "de-nein") / "entwurf.txt"
    draft.write_text("x")
    llm.script(code("rm entwurf.txt", "shell"))
    await agent.ask("Lösche entwurf.txt", "de-nein", language="de")
    kept = await agent.ask("Ja, aber nicht jetzt.", "de-nein", language="de")
    assert kept.answer == "Okay, dann lasse ich es." and draft.exists()
    llm.script(code("rm entwurf.txt", "shell"))
    await agent.ask("Lösche entwurf.txt", "de-nein", language="de")
    kept = await agent.ask("Nein.", "de-nein", language="de")
    assert draft.exists() and kept.code_blocks[0].decision == "cancelled"
    assert [r.get("decision") for r in agent.audit.read("de-nein")].count("allow") == 0


async def test_the_language_survives_a_restart(make_agent, llm: ScriptedLLM, tmp_path) -> None:
    data = tmp_path / "data"
    first = make_agent(data_dir=data)
    draft = folder(tmp_path, "de-restart") / "entwurf.txt"
    draft.write_text("x")
    llm.script(code("rm entwurf.txt", "shell"))
    await first.ask("Lösche entwurf.txt", "de-restart", language="de")
    await first.shutdown()
    second = make_agent(data_dir=data)
    done = await second.ask("jawohl", "de-restart")
    assert not draft.exists() and done.answer.startswith("Erledigt")


async def test_a_french_refusal_is_french(make_agent, llm: ScriptedLLM, tmp_path) -> None:
    agent = make_agent()
    llm.script(code("cat /etc/passwd", "shell"))
    reply = await agent.ask("Montre-moi /etc/passwd", "fr-no", language="fr-FR")
    assert reply.answer == (
        "Je ne vais pas exécuter ça, car ce profil n'autorise pas l'accès aux fichiers en dehors de mon dossier"
        " de travail."
    )
    [block] = reply.code_blocks
    assert block.decision == "deny" and block.exit_status is None


async def test_the_model_is_told_the_language_and_gets_digits(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent()
    llm.script("Zwölf.")
    reply = await agent.ask("Was ist drei mal vier?", "de-model", language="de")
    assert reply.answer == "Zwölf."
    seen = user_text(llm)
    assert "Was ist 3 mal 4?" in seen and "the sentence it prints must be in German." in seen
    llm.script("312 times 4 is 1248.")
    await agent.ask("What is three hundred and twelve times four?", "en-model", language="en-US")
    seen = user_text(llm)
    assert "What is 312 times 4?" in seen and "Answer in" not in seen
    # The user's own words are what the conversation keeps.
    assert agent.conversation("de-model")["turns"][0]["text"] == "Was ist drei mal vier?"


async def test_the_worked_example_still_leads_a_german_turn(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent()
    llm.script(code('print("3 plus 5 ist", 3 + 5)'))
    reply = await agent.ask("Was ist drei plus fünf?", "de-example", profile="default", language="de")
    assert reply.answer == "3 plus 5 ist 8"
    sent = [str(m["content"]) for m in llm.requests[0]["messages"]]
    assert any("What is 3 plus 5?" in m for m in sent), "the worked example was not sent"
    assert "Was ist 3 plus 5?" in user_text(llm) and "must be in German" in user_text(llm)


async def test_an_unknown_language_is_answered_in_english(make_agent, llm: ScriptedLLM, tmp_path) -> None:
    agent = make_agent()
    (folder(tmp_path, "pt") / "rascunho.txt").write_text("x")
    llm.script(code("rm rascunho.txt", "shell"))
    asked = await agent.ask("Apague rascunho.txt", "pt", language="pt-BR")
    assert asked.answer == "I'm about to delete rascunho.txt. Shall I?"
    assert "Answer in" not in user_text(llm)


async def test_errors_are_said_in_the_request_language(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent()
    with pytest.raises(AgentError) as err:
        await agent.ask("   ", "es-empty", language="es")
    assert err.value.message == "No he oído ninguna pregunta."
    with pytest.raises(AgentError) as err:
        await agent.ask("Bonjour", "fr-profile", profile="nope", language="fr")
    assert err.value.code == "unknown_profile" and err.value.message.startswith("Il n'y a pas de profil nommé nope.")
    llm.script(500)
    with pytest.raises(AgentError) as err:
        await agent.ask("Ciao", "it-down", language="it")
    assert (
        err.value.message == "In questo momento non riesco a raggiungere il mio modello linguistico. Riprova più tardi."
    )


# ------------------------------------------------------------------ replies the breaker found (declines.py)
OVEN = ("I'm about to turn off Oven.", "print(o1_ha.call_service('switch', 'turn_off', entity_id='switch.oven'))")
OLD_NOTES = ("I'm about to delete old_notes.txt.", "import os\nos.remove('old_notes.txt')")
THIRTY_DAYS = ("I'm about to delete the 2 files older than 30 days.",
               "import os, time\nfor f in os.listdir('.'):\n    if time.time() - os.path.getmtime(f) > 30 * 86400:\n"
               "        os.remove(f)")
DRAFT = ("I'm about to delete entwurf.txt.", "import os\nos.remove('entwurf.txt')")


@pytest.mark.parametrize(
    ("language", "answer", "held"),
    [
        ("en", "Yes, turn on the oven", OVEN),  # a two-letter word is checked too
        ("en", "Yes, delete notes.txt", OLD_NOTES),  # a whole name, not a part of one
        ("en", "Yes, older than 3 days", THIRTY_DAYS),  # a whole number, not a part of 30
        ("en", "Yes, import entwurf.txt", DRAFT),  # a word of the code only
        ("en", "Yes, delete it on my PC", DRAFT),
        ("en", "Thanks, I'm fine", DRAFT),  # thanks first is a no
        ("fr", "Merci, ça va", DRAFT),
        ("de", "Danke, ist gut so", DRAFT),
        ("nl", "Dank je, het is goed zo", DRAFT),
        ("it", "Grazie, va bene", DRAFT),
        ("fr", "Si tu peux", DRAFT),  # French "si" is "if"
        ("de", "Ja, nö", DRAFT),
        ("nl", "Ja maar", DRAFT),
        ("en", "Yeah, right", DRAFT),
    ],
)
def test_replies_that_do_not_agree_run_nothing(language: str, answer: str, held: tuple[str, str]) -> None:
    assert not is_yes(answer, language, *held)


@pytest.mark.parametrize(
    ("language", "answer"),
    [("en", "Why not"), ("fr", "Pourquoi pas"), ("de", "Ja, ich bin sicher"), ("it", "Sì, cancella il file"),
     ("nl", "Ja, dat mag weg"), ("es", "Sí, estoy seguro"), ("nl", "Ja, gooi maar weg"), ("en", "Yes, thanks")],
)
def test_more_ways_of_agreeing(language: str, answer: str) -> None:
    assert is_yes(answer, language, *DRAFT)


@pytest.mark.parametrize(
    ("language", "answer", "plain_no"),
    [("en", "Hold on", True), ("de", "Auf keinen Fall", True), ("es", "Ni hablar", True), ("it", "Lascia stare", True),
     ("nl", "Vergeet het", True), ("fr", "Oublie ça", True),
     ("en", "No, delete b.txt instead", False), ("de", "Warum geht das Licht nicht?", False), ("en", "Why?", False)],
)
def test_a_plain_no_or_a_request(language: str, answer: str, plain_no: bool) -> None:
    from o1_server.agent.declines import declines

    assert declines(answer, language) is plain_no


@pytest.mark.parametrize(
    ("language", "answer", "runs"),
    [
        # A breaker's finds. Run what was not agreed to: a question whose "?" speech-to-text dropped, thanks
        # first ("that's fine, thanks": no), a yes that says the file is still needed.
        ("en", "ok what is it about", False),
        ("en", "okay now what", False),
        ("en", "yes is it the right file", False),
        ("nl", "oké, weet je het zeker", False),
        ("de", "ja, kann ich die sicher löschen", False),
        ("de", "Danke, passt schon.", False),
        ("de", "passt schon, danke", False),
        ("de", "ja, die datei brauch ich doch", False),
        ("es", "sí, lo necesito", False),
        ("it", "sì, il file mi serve", False),
        # A yes that was missed: its words apart by a sentence's punctuation, a filler before it.
        ("en", "Yes. Go ahead.", True),
        ("en", "Okay. Yes.", True),
        ("en", "Yes…", True),
        ("de", "Ja! Los!", True),
        ("nl", "Oké. Ja.", True),
        ("de", "ähm ja", True),
        ("fr", "euh oui d'accord", True),
        ("es", "pues sí", True),
        ("nl", "nou ja goed", True),
        ("en", "Yes, go ahead and delete it.", True),
    ],
)
def test_a_question_back_is_no_yes_and_a_yes_with_fillers_is_one(language: str, answer: str, runs: bool) -> None:
    assert is_yes(answer, language, HELD) is runs
