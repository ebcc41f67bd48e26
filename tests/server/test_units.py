"""Unit facts told with a request (agent/units.py): which units a request names in six languages, the factor
pint gives between two of one kind, and a real turn whose model message carries it (scripted LLM)."""

from __future__ import annotations

import pytest

from o1_server.agent import i18n
from o1_server.agent.units import named_units, unit_facts
from tests.support.scripted_llm import ScriptedLLM


@pytest.mark.parametrize(
    ("language", "said", "fact"),
    [
        # the seventh held-out set's conversion misses (now a dev set): 0.9144, 5280 and 0.016 were coded
        ("en", "the carpet shop quoted thirty square yards, how many square metres is that",
         "1 square yard = 0.836127 square meter"),
        ("en", "fourteen thousand steps and my stride is seventy eight centimetres, how many miles did I walk",
         "1 mile = 160934 centimeter"),
        ("es", "Mi tío tiene una finca de cuarenta acres en Texas. ¿Cuántas hectáreas son?", "1 acre = 0.404687 hectare"),
        ("fr", "Ma voiture consomme six litres aux cent kilomètres. Ça fait combien de miles par gallon américain ?",
         "miles per US gallon = 235.21 / (L/100 km), and L/100 km = 235.21 / (miles per US gallon)"),
        ("it", "Quanti chilometri sono ventisei miglia?", "1 mile = 1.60934 kilometer"),  # the unit after a number first
        ("de", "Wie viel sind 350 Grad Fahrenheit in Celsius?", "°F = °C × 9/5 + 32, and °C = (°F - 32) × 5/9"),
        ("nl", "Hoeveel liter is vijf gallon?", "1 gallon = 3.78541 liter"),
        ("en", "my baby weighs seven pounds, how many kilos is that", "1 pound = 0.453592 kilogram"),
        ("nl", "Ik loop 5 kilometer te voet, hoeveel mijl is dat?", "1 kilometer = 0.621371 mile"),
        # the eighth held-out set's (now a dev set): 32 PSI coded 32 * 0.145, the factor the other way round
        ("fr", "La notice du vélo dit de gonfler les pneus à trente-deux PSI. Ça fait combien en bars ?",
         "1 psi = 0.0689476 bar"),
        ("de", "Ein Riegel hat 250 kcal, wie viel kJ sind das?", "1 kilocalorie = 4.184 kilojoule"),
        ("en", "my tyres need thirty five psi, how many kPa is that", "1 psi = 6.89476 kilopascal"),
    ],
)
def test_two_units_of_one_kind_get_their_factor(language: str, said: str, fact: str) -> None:
    facts = unit_facts(i18n.digits(said, language), language)
    assert facts is not None and fact in facts, facts


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "and a bag is fifty four pounds eighty, so what's she costing me a day"),  # money, one weight unit
        ("en", "twelve kilo bags and three hundred grams a day"),  # metric prefixes: known
        ("en", "I drive eleven point four miles each way, how many miles a week"),  # one unit
        ("de", "Ich laufe 5 km in 30 Minuten, wie viele Meter pro Minute?"),
        ("en", "what is three plus four"),
        ("nl", "Hoeveel gram is 3 ons?"),  # a Dutch ons is 100 g, no ounce
        ("en", "Cheese costs 12 pounds a kilo, how much for 300 grams?"),  # pounds of money
        ("de", "Ich gehe 3 km zu Fuß, wie viele Meter sind das?"),  # on foot, no foot
        ("it", "Al bar prendo 2 caffè a 1.20 euro, quanto spendo?"),  # a café, no pressure
        ("en", "a chocolate bar has 230 calories, how many do 3 have?"),  # one unit of each kind
    ],
)
def test_no_fact_without_two_units_to_convert(language: str, said: str) -> None:
    assert unit_facts(i18n.digits(said, language), language) is None


def test_square_yards_are_not_also_yards() -> None:
    assert named_units("30 square yards in square metres", "en") == ["yard ** 2", "meter ** 2"]


async def test_the_model_gets_the_factor_with_the_request(make_agent, llm: ScriptedLLM) -> None:
    """The request the model reads holds the fact; the user's words in the history stay as said, digits aside."""
    agent = make_agent()
    llm.script("```python\nprint('That is', round(40 * 0.404687, 2), 'hectares')\n```")
    reply = await agent.ask("Mi tío tiene una finca de cuarenta acres. ¿Cuántas hectáreas son?", "c-units",
                            profile="default", language="es")
    sent = str(llm.requests[0]["messages"][-1]["content"])
    assert "40 acres" in sent and "(Unit facts: 1 acre = 0.404687 hectare.)" in sent, sent
    assert "16,19" in reply.answer, reply.answer
