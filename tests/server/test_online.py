"""Requests only the internet can answer, for a profile without it: an honest sentence in the turn's language,
no model asked, nothing run; a lookup the model chose a site for is said the same way; other requests and
profiles with the internet are untouched."""

from __future__ import annotations

from pathlib import Path

import pytest

from o1_server.agent import i18n
from o1_server.agent import policy
from o1_server.agent.online import chosen_lookup, online_topic
from o1_server.agent.profiles import parse_profile
from tests.support.scripted_llm import ScriptedLLM


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("what's the weather like in Paris tomorrow", "en"),
        # air quality and pollen, and a currency's rate in Dutch ("koers")
        ("how much pollen is in the air today", "en"),
        ("Wie ist der Pollenflug heute?", "de"),
        ("Quelle est la qualité de l'air aujourd'hui à Paris ?", "fr"),
        ("Hoe is de luchtkwaliteit vandaag?", "nl"),
        ("Hoe staat de koers van de euro?", "nl"),
        ("any news today?", "en"),
        ("what's the exchange rate of the dollar", "en"),
        ("Wie wird das Wetter morgen in Berlin?", "de"),
        ("Gibt es einen Wetterbericht für Hamburg?", "de"),
        ("Quelle est la météo à Lyon ?", "fr"),
        ("Quelles sont les actualités ?", "fr"),
        ("¿Qué tiempo hace en Sevilla?", "es"),
        ("¿Cuáles son las noticias de hoy?", "es"),
        ("Wat is het weerbericht?", "nl"),
        ("Che tempo fa a Roma?", "it"),
        ("Will it rain tomorrow?", "en"),
        ("is it going to rain tomorrow? should I bother taking an umbrella", "en"),
        ("Was gibt's denn heute Neues in den Nachrichten?", "de"),
        ("il est à combien le dollar en ce moment, en euros ?", "fr"),
        ("quelles sont les dernières nouvelles", "fr"),
        ("a cuánto está el dólar hoy", "es"),
        ("oye, cómo quedó el partido del Madrid anoche?", "es"),
        ("Wird es morgen regnen?", "de"),
        ("Il va pleuvoir demain ?", "fr"),
        ("¿Va a llover mañana?", "es"),
        ("What's the weather forecast for Addis Ababa?", "en"),
        ("Weather in Listowel tomorrow?", "en"),
        # Topics beyond the weather, phrased freely: prices, sports, traffic, opening hours, timetables, searches.
        ("Do I need an umbrella today?", "en"),
        ("How are Apple shares doing today?", "en"),
        ("Did Arsenal win yesterday?", "en"),
        ("Is the A7 jammed right now?", "en"),  # the 7 of a road's name is no number given
        ("Is the pharmacy on Main Street open now?", "en"),
        ("When does the next train to Boston leave?", "en"),
        ("What's on TV tonight?", "en"),
        ("Where's my Amazon package?", "en"),
        ("Brauche ich heute einen Regenschirm?", "de"),
        ("Hat Bayern gestern gewonnen?", "de"),
        ("Wer hat das Formel-1-Rennen am Sonntag gewonnen?", "de"),
        ("Bis wann hat der Edeka heute geöffnet?", "de"),
        ("Hat mein ICE nach München Verspätung?", "de"),
        ("Est-ce qu'il va faire beau demain ?", "fr"),
        ("Combien vaut le bitcoin en ce moment ?", "fr"),
        ("Qu'est-ce qu'il y a à la télé ce soir ?", "fr"),
        ("Quelle est la pharmacie de garde ce soir ?", "fr"),
        ("¿Necesito paraguas hoy?", "es"),
        ("¿Ganó el Barça anoche?", "es"),
        ("¿A qué hora cierra el Mercadona hoy?", "es"),
        ("¿Cuándo sale el próximo AVE a Barcelona?", "es"),
        ("Cosa danno stasera in TV?", "it"),
        ("Gaat het vandaag regenen?", "nl"),
        ("Is de Albert Heijn nu nog open?", "nl"),
    ],
)
def test_online_requests_are_found(text: str, language: str) -> None:
    assert online_topic(text, language) is not None


@pytest.mark.parametrize(
    ("text", "language", "names"),
    [
        ("how long does it take from 8:45 to 11:05", "en", ()),
        ("¿Cuánto tiempo falta para las 5?", "es", ()),  # "tiempo" is time, not the weather
        ("add check the weather to my to-do list", "en", ()),
        ("write a note about pollen allergies", "en", ()),
        ("what does weather.txt say", "en", ()),
        ("what's the average score in grades", "en", ("grades.csv",)),
        ("read me the news I saved", "en", ("news_digest.txt",)),
        ("schreib Wetter prüfen auf meine Liste", "de", ()),
        ("what is 15 percent of 80", "en", ()),
        # Found by a breaker: words of an online topic in requests that are not lookups.
        ("Convert 100 dollars to euros at an exchange rate of 1.1", "en", ()),
        ("Compute the z-scores of 4, 8, 15", "en", ()),
        ("Tell me a joke about the weather", "en", ()),
        ("Translate 'good news' into German", "en", ()),
        ("Forecast the next value of 2, 4, 6 with linear regression", "en", ()),
        ("Delete the news", "en", ()),
        ("Count the lines of the traffic log", "en", ()),
        ("Who won the battle of Hastings?", "en", ()),
        ("Erzähl einen Witz über das Wetter", "de", ()),
        ("Lösche die Nachrichten", "de", ()),
        ("Was bedeutet TCP im Internet?", "de", ()),
        ("Qui a gagné la bataille de Waterloo ?", "fr", ()),
        ("Quelles sont les nouvelles fonctions de Python ?", "fr", ()),
        ("Calcule la moyenne des scores trois, cinq et huit", "fr", ()),
        ("Calcula el tiempo de cocción de un pavo", "es", ()),
        ("Convierte el tiempo en segundos", "es", ()),
        ("Pon un marcador en la página cinco", "es", ()),
        ("Borra las noticias", "es", ()),
        ("what's the weather in Madrid", "de", ()),  # a German conversation's lookups are German phrases
        # Definitions and explanations are known without a lookup; the home, odds and scenes are local.
        ("What is an exchange rate?", "en", ()),
        ("How does a weather forecast work?", "en", ()),
        ("What's the difference between weather and climate?", "en", ()),
        ("Was ist eine Aktie?", "de", ()),
        ("Qu'est-ce qu'une action en bourse ?", "fr", ()),
        ("¿Qué es la bolsa de valores?", "es", ()),
        ("Il fait froid dans le salon ?", "fr", ()),
        ("¿Hace frío en el salón?", "es", ()),
        ("Fa freddo in soggiorno?", "it", ()),
        ("Lies meine Notizen zum Wetter vor.", "de", ()),
        ("Quelle est la probabilité de gagner au Loto avec une seule grille ?", "fr", ()),
        ("Annule toutes les actions prévues dans la scène cinéma.", "fr", ()),
        ("the printer is jammed again", "en", ()),
        ("When was Google founded?", "en", ()),
        ("Ist der Drucker online?", "de", ()),
        ("Doe het weer aan", "nl", ()),  # "weer" is "again"
        ("what is the temperature outside", "en", ("Outside temperature",)),  # the home's own sensor
    ],
)
def test_other_requests_are_not(text: str, language: str, names: tuple[str, ...]) -> None:
    assert online_topic(text, language, names) is None


def test_internet_follows_the_network_policy_unless_said(tmp_path: Path) -> None:
    def profile(text: str):
        return parse_profile(f"name: p\n{text}", tmp_path / "p.yaml")

    assert not profile("policy: {network: confirm}").internet
    assert profile("policy: {network: allow}").internet
    assert profile("policy: {network: allow}\ninternet: false").internet is False
    assert profile("policy: {network: deny}\ninternet: true").internet is True


async def test_the_weather_is_an_honest_cant_without_the_model(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent(policy={"network": "confirm"})
    llm.script("```python\nprint('It is 21 degrees')\n```")
    reply = await agent.ask("What's the weather in Oslo today?", "w1")
    assert reply.answer == i18n.t("en", "online.cant") and reply.code_blocks == []
    assert llm.requests == []  # the model was not asked, so it made nothing up
    de = await agent.ask("Wie wird das Wetter morgen?", "w2", language="de-DE")
    assert de.answer == i18n.t("de", "online.cant") and de.answer != reply.answer
    # The next turn's model sees that it was asked and what was said.
    llm.script("```python\nprint(2 + 2)\n```", "4")
    await agent.ask("what is 2 plus 2", "w1")
    said = [m["content"] for m in llm.requests[0]["messages"]]
    assert "What's the weather in Oslo today?" in said and reply.answer in said


@pytest.mark.parametrize(
    ("first", "then", "language"),
    [("Tengo un depósito de 1200 litros y gasto 80 al día. ¿Para cuántos días me llega?",
      "¿Y si llueve y solo riego la mitad que antes?", "es"),
     ("On consomme 80 litres par jour d'une cuve de 1200 litres, ça dure combien de jours ?",
      "Et s'il pleut et que j'arrose moitié moins ?", "fr"),
     ("Consumo 80 litri al giorno da una cisterna di 1200 litri, quanti giorni dura?",
      "E se piove e innaffio la metà?", "it"),
     ("Wir verbrauchen 80 Liter am Tag aus 1200 Litern, wie lange reicht das?",
      "Und wenn es regnet und ich nur halb so viel gieße?", "de")],
)
async def test_a_condition_in_a_follow_up_is_no_lookup(
    make_agent, llm: ScriptedLLM, first: str, then: str, language: str
) -> None:
    """"¿Y si llueve y solo riego la mitad?" after a computation was said as "no internet" (seventh held-out set,
    now a dev set): in a follow-up, rain in a condition is data for the model. Asked first, it is a lookup."""
    agent = make_agent()
    llm.script("```python\nprint(1200 / 80)\n```", "```python\nprint(1200 / 40)\n```")
    await agent.ask(first, f"c-if-{language}", profile="default", language=language)
    reply = await agent.ask(then, f"c-if-{language}", profile="default", language=language)
    assert len(llm.requests) == 2 and "30" in reply.answer, reply.answer
    assert online_topic(then, language) is not None  # a first turn: "if it rains" asks about the weather
    assert online_topic(then, language, follow_up=True) is None


async def test_a_profile_with_the_internet_asks_the_model(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent(policy={"network": "allow"})
    llm.script("I would need to look that up.")
    reply = await agent.ask("What's the weather in Oslo today?", "w3")
    assert reply.answer == "I would need to look that up." and len(llm.requests) == 1


def chosen(code: str, request: str) -> bool:
    found = policy.classify("python", code, Path("/tmp/box"), None, ())
    return chosen_lookup(found.categories, found.reasons, request)


NEWS = "import requests\nprint(requests.get('https://www.bbc.com/news').text[:200])"


def test_a_site_the_model_picked_is_a_lookup_and_one_the_user_named_or_the_home_is_not() -> None:
    assert chosen(NEWS, "was gibt es Neues in den Nachrichten")
    saved = "import requests\nopen('n.txt', 'a').write(requests.get('https://www.lemonde.fr/rss').text)"
    assert chosen(saved, "quelles sont les dernières nouvelles")  # writes what it fetched: still a lookup
    assert not chosen(NEWS, "read me the headlines from bbc.com")  # the user named the site
    # The reply's attributes are not on the classifier's list: a lookup all the same (it never runs).
    checked = "import requests\nr = requests.get('https://api.fuelprices.example.com/v1')\nprint(r.status_code, r.json())"
    assert "unparseable" in policy.classify("python", checked, Path("/tmp/box"), None, ()).categories
    assert chosen(checked, "where is diesel cheapest right now")
    assert not chosen(checked.replace("import requests", "import requests, subprocess\nsubprocess.run('ls')"), "diesel")
    assert not chosen("import urllib.request\nprint(urllib.request.urlopen('http://192.168.1.5/').status)", "is it up")
    assert not chosen("import requests\nprint(requests.get('http://printer.local/status').text)", "printer?")
    assert not chosen("import requests\nimport os\nos.remove('a.txt')\nrequests.get('https://x.org')", "clean")
    assert not chosen("import socket\nsocket.create_connection((input(), 80))", "connect")  # no address named
    assert not chosen("print(1)", "news")
    # The home's own names, a host known only at run time, a site named in words or in its Unicode form.
    assert not chosen("import requests\nprint(requests.get('http://fritz.box').text)", "is my router up")
    assert not chosen("import requests\nprint(requests.get('http://nas.tail1234.ts.net').text)", "is the nas up")
    assert not chosen("import requests\nfor ip in open('d.txt'):\n    print(requests.get(f'http://{ip}/'))", "devices")
    assert not chosen("import requests\nprint(requests.get('https://www.bbc.co.uk/news').text)", "the BBC headlines")
    assert not chosen("import requests\nprint(requests.get('https://xn--mnchen-3ya.de').text)", "open münchen.de")


async def test_a_lookup_the_model_chose_is_said_honestly_and_never_connects(
    make_agent, llm: ScriptedLLM, tmp_path: Path
) -> None:
    agent = make_agent(policy={"network": "confirm"})
    llm.script(f"```python\n{NEWS}\n```")
    reply = await agent.ask("Was ist heute so los in der Welt?", "n1", language="de")  # no phrase matches
    assert reply.answer == i18n.t("de", "online.cant"), reply.answer
    assert [(b.decision, b.exit_status) for b in reply.code_blocks] == [("deny", None)]  # nothing ran
    assert not reply.continue_conversation  # no question left waiting for a yes
    [record] = agent.audit.read("n1")
    assert record["decision"] == "deny" and record["reason"] == i18n.t("de", "online.cant")
    # A site the user named stays theirs to confirm.
    llm.script(f"```python\n{NEWS}\n```")
    named = await agent.ask("Read me the top story on bbc.com", "n2")
    assert named.continue_conversation and "www.bbc.com" in named.answer, named.answer
    # ... and in a later turn of the same conversation.
    await agent.ask("no", "n2")
    llm.script(f"```python\n{NEWS}\n```")
    again = await agent.ask("read me that page again", "n2")
    assert again.continue_conversation and "www.bbc.com" in again.answer, again.answer


async def test_a_word_of_the_homes_own_devices_keeps_the_request(make_agent, llm: ScriptedLLM) -> None:
    from o1_server.agent.home.context import HomeContext

    home = HomeContext.from_json(
        {"entities": [{"entity_id": "sensor.outside_temperature", "name": "Outside temperature", "areas": ["Garden"],
                       "domain": "sensor", "state": "12.5"}]}
    )
    agent = make_agent(policy={"network": "confirm"})
    llm.script("```python\nprint('It is 12.5 degrees outside')\n```")
    reply = await agent.ask("What is the temperature outside right now?", "w9", profile="default", home=home)
    asked = len(llm.requests)
    assert asked >= 1 and reply.answer != i18n.t("en", "online.cant"), reply.answer
    # Without the sensor, the same request is a lookup: said honestly, no model asked.
    bare = await agent.ask("What is the temperature outside right now?", "w10", profile="default")
    assert bare.answer == i18n.t("en", "online.cant") and len(llm.requests) == asked


async def test_a_lookup_whose_reply_cannot_be_checked_is_said_as_no_internet(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent(policy={"network": "confirm", "unparseable": "deny"})
    code = "import requests\nr = requests.get('https://api.concertfinder.example.com/v1/events')\nprint(r.status_code)"
    llm.script(f"```python\n{code}\n```")
    reply = await agent.ask("Are there still tickets for the concert on Friday?", "n7")
    assert reply.answer == i18n.t("en", "online.cant"), reply.answer  # not "code I can't check"
    assert [(b.decision, b.exit_status) for b in reply.code_blocks] == [("deny", None)]
    [record] = agent.audit.read("n7")
    assert record["decision"] == "deny" and set(record["category"]) == {"network", "unparseable"}


@pytest.mark.parametrize(
    ("text", "language"),
    [("Is the window still open", "en"), ("It's raining, close the windows", "en"),
     ("Where is the python package installed", "en"), ("Ist das Fenster noch offen", "de"),
     ("Wie warm ist es heute im Bad", "de"), ("La fenêtre est encore ouverte ?", "fr"),
     ("Llueve, cierra las ventanas", "es"), ("Cuánto tiempo hace que llegué", "es"),
     ("Piove, chiudi le finestre", "it"), ("Staat het raam nog open?", "nl")],
)
def test_the_home_and_durations_are_not_lookups(text: str, language: str) -> None:
    """Found by a breaker: a device that is "still open", rain as the reason for an action, Spanish "tiempo" as
    a duration, a software package: none is a lookup."""
    assert online_topic(text, language) is None


@pytest.mark.parametrize(
    ("text", "language"),
    [("How much is a bitcoin", "en"), ("Was kostet ein Bitcoin", "de"), ("Quanto costa un bitcoin", "it"),
     ("Wie viel kostet Benzin gerade", "de"), ("Combien coûte l'essence aujourd'hui", "fr"),
     ("Did Bayern win", "en"), ("Heeft Ajax gewonnen", "nl"), ("Ha vinto la Juve", "it"),
     ("How bad is the pollen today", "en"), ("¿Ganó el Madrid?", "es"), ("¿cómo quedó el Betis ayer?", "es"),
     ("When's the next train at 8", "en"), ("¿El tren de las 8 lleva retraso?", "es"),
     ("Heeft de intercity naar Utrecht vanochtend vertraging?", "nl"), ("Brauch ich morgen früh eine Jacke?", "de"),
     ("Wie kalt wird's denn?", "de")],
)
def test_prices_results_and_pollen_are_lookups(text: str, language: str) -> None:
    """Found by a breaker: a coin or fuel price, a team's result without the word "game", pollen."""
    assert online_topic(text, language) is not None


@pytest.mark.parametrize(
    ("text", "language"),
    [
        # The sun, shops' hours asked with a verb, officeholders, currencies "doing", prices at a named shop.
        ("what time is sunset today", "en"),
        ("when does the sun go down tonight", "en"),
        ("how's the pound doing against the euro", "en"),
        ("who is the current prime minister of the UK", "en"),
        ("how much is a pint of milk at Tesco", "en"),
        ("Wann hat Lidl auf", "de"),
        ("Wann geht heute die Sonne unter", "de"),
        ("à quelle heure se couche le soleil ce soir", "fr"),
        ("a qué hora se pone el sol hoy", "es"),
        ("com'è il tempo domani", "it"),
        ("a che ora tramonta il sole", "it"),
        ("hoe laat gaat de zon onder", "nl"),
    ],
)
def test_the_sun_shops_and_officeholders_are_lookups(text: str, language: str) -> None:
    assert online_topic(text, language)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("wann macht die Waschmaschine fertig", "de"),
        ("what's the latest version of my notes file", "en"),
        ("put sunglasses on my packing list", "en"),
        ("convert 20 pounds to euros", "en"),
    ],
)
def test_their_look_alikes_are_not(text: str, language: str) -> None:
    assert online_topic(text, language) is None


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Wie steht es gerade im Spiel von Borussia Dortmund?", "de"),  # eighth held-out set, now a dev set
        ("Wie steht's bei Bayern gegen Leverkusen?", "de"),
        ("Wer führt gerade in der Bundesliga?", "de"),
        ("Gibt es heute eine Unwetterwarnung?", "de"),
        ("who's top of the Premier League at the moment", "en"),
        ("Is there a thunderstorm warning for tonight?", "en"),
        ("How much is a share of Apple worth now?", "en"),
        ("Où en est le match de l'OM ce soir ?", "fr"),
        ("Qui a gagné le Tour de France cette année ?", "fr"),
        ("Come sta andando la partita della Juve?", "it"),
        ("Chi ha vinto il Giro d'Italia?", "it"),
        ("Hoe staat het bij Ajax tegen PSV?", "nl"),
        ("Wat is de stand van de wedstrijd van Feyenoord?", "nl"),
        ("Heeft Max Verstappen gewonnen vandaag?", "nl"),
        ("Wat kost benzine vandaag?", "nl"),
        ("Hoeveel file staat er op dit moment op de snelweg bij Utrecht?", "nl"),  # a traffic jam, no file
        ("Staat er file op de A12?", "nl"),
    ],
)
def test_live_results_and_warnings_are_lookups(text: str, language: str) -> None:
    """A game's score, a league's table, a race's winner and a weather warning, in each language: the
    eighth held-out set's "Wie steht es gerade im Spiel" reached the model, which asked the home for it."""
    assert online_topic(text, language)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Who's top of my quiz_team list?", "en"),
        ("which team won the most games in league.csv", "en"),
        ("How many shares of Apple do I have in portfolio.json?", "en"),
        ("Wie steht es um meine Einkaufsliste?", "de"),
        ("Welche Mannschaft hat laut ergebnisse.csv am Wochenende gewonnen?", "de"),
        ("¿Cuánto va a costar si compro tres?", "es"),
        ("Come sta andando il mio risparmio se metto 50 euro al mese?", "it"),
        ("Hoe staat het met mijn boodschappenlijst?", "nl"),
        ("Ik tank 40 liter benzine van 1,95 per liter, wat kost dat nu?", "nl"),
        ("Hoeveel files zijn er in de map?", "nl"),
        # a breaker's finds: the user's own scores, budgets and spending
        ("Wie steht's bei uns mit dem Stromverbrauch?", "de"),
        ("Wie viel Gewicht habe ich am Wochenende verloren?", "de"),
        ("Who's ahead in our family step challenge?", "en"),
        ("¿Cuánto va el gasto de la compra esta semana?", "es"),
        ("¿Dónde dejé la liga del pelo?", "es"),
        ("Come va il mio budget per il viaggio a Roma?", "it"),
        ("Hoe staat het bij ons met de energierekening?", "nl"),
        ("Hoeveel heb ik aan benzine uitgegeven tot nu toe?", "nl"),
        ("Welke files heb ik nu open staan?", "nl"),
        ("Zijn er files op de USB-stick?", "nl"),
        ("Qui a gagné le tournoi de belote de la famille d'après mes scores ?", "fr"),
    ],
)
def test_results_in_the_users_own_things_are_not_lookups(text: str, language: str) -> None:
    assert online_topic(text, language) is None


@pytest.mark.parametrize(
    ("text", "language", "names", "asked"),
    [
        ("Fahr den Rechner jetzt bitte komplett herunter.", "de", (), True),  # eighth held-out set, a dev set now
        ("Starte den Rechner neu", "de", (), True),
        ("shut down the computer", "en", (), True),
        ("reboot", "en", (), True),
        ("Éteins l'ordinateur", "fr", (), True),
        ("Apaga el ordenador", "es", (), True),
        ("Spegni il computer", "it", (), True),
        ("Zet de computer uit", "nl", (), True),
        # the home's own PC switch, a light, a timer, a question about files
        ("turn off the PC", "en", ("Gaming PC",), False),
        ("Turn off the kitchen light", "en", (), False),
        ("restart the timer", "en", (), False),
        ("How many files are on my computer?", "en", (), False),
    ],
)
def test_a_shutdown_of_the_computer_is_found(text: str, language: str, names: tuple[str, ...], asked: bool) -> None:
    from o1_server.agent.online import system_request

    assert system_request(text, language, names) is asked


async def test_a_shutdown_is_refused_with_the_rule_and_nothing_runs(make_agent, llm: ScriptedLLM) -> None:
    """"Fahr den Rechner jetzt bitte komplett herunter." was answered "Rechner wurde komplett heruntergeladen."
    by a block that printed it: the default profile denies controlling programs, so o1 says that rule itself."""
    agent = make_agent()
    llm.script("This reply must never be requested.")
    reply = await agent.ask("Fahr den Rechner jetzt bitte komplett herunter.", "c-off", profile="default",
                            language="de")
    assert reply.answer.startswith("Das führe ich nicht aus") and "Programmen" in reply.answer, reply.answer
    assert reply.code_blocks == [] and llm.requests == []
