"""Clock times said in words reach the model as H:MM (agent/spoken_times.py through i18n.digits), in every
language o1 speaks; arithmetic, ranges and durations that only look like times are left as they are."""

from __future__ import annotations

import pytest

from o1_server.agent import i18n
from tests.support.scripted_llm import ScriptedLLM


@pytest.mark.parametrize(
    ("language", "said", "seen"),
    [
        ("en", "the film starts at quarter past eight in the evening", "the film starts at 20:15 in the evening"),
        ("en", "we want to eat at seven thirty tonight", "we want to eat at 19:30 tonight"),
        ("en", "I leave at twenty to eight", "I leave at 7:40"),
        ("en", "half past seven", "7:30"),
        ("en", "a quarter to twelve", "11:45"),
        ("en", "ten past eight", "8:10"),
        ("en", "at 7 pm", "at 19:00"),
        ("en", "at nine o'clock", "at 9:00"),
        ("de", "Ich fahr um zwanzig vor acht los", "Ich fahr um 7:40 los"),
        ("de", "von halb elf abends bis Viertel nach sechs morgens", "von 22:30 abends bis 6:15 morgens"),
        ("de", "dreiviertel acht", "7:45"),
        ("de", "um 7 Uhr 30", "um 7:30"),
        ("de", "halb eins", "12:30"),
        ("fr", "à huit heures et quart", "à 8:15"),
        ("fr", "sept heures moins le quart", "6:45"),
        ("fr", "à vingt heures quinze", "à 20:15"),
        ("fr", "passer à table à 20h15", "passer à table à 20:15"),
        ("fr", "à sept heures du soir", "à 19:00 du soir"),
        ("es", "salgo a las seis menos cuarto de la tarde", "salgo a las 17:45 de la tarde"),
        ("es", "a las ocho y diez", "a las 8:10"),
        ("es", "cuántos minutos son tres horas y cuarto", "cuántos minutos son 3 horas y 15 minutos"),
        ("es", "un cuarto de hora", "15 minutos"),
        ("it", "alle otto e un quarto", "alle 8:15"),
        ("it", "alle nove meno un quarto di sera", "alle 20:45 di sera"),
        ("nl", "om kwart over acht", "om 8:15"),
        ("nl", "half negen", "8:30"),
        # Not clock times: arithmetic, ranges, other words after "halb", ordinals, a time already in digits.
        ("en", "add 5 to 7", "add 5 to 7"),
        ("en", "from five to eight people", "from 5 to 8 people"),
        ("en", "how many minutes past the hour", "how many minutes past the hour"),
        ("en", "I am at home", "I am at home"),
        ("en", "the train leaves at 11:06 and takes 35 minutes", "the train leaves at 11:06 and takes 35 minutes"),
        ("de", "halb so viel", "halb so viel"),
        ("de", "wie viel Uhr ist es", "wie viel Uhr ist es"),
        ("es", "cuánto es diez menos cinco", "cuánto es 10 menos 5"),
        ("es", "el cuarto archivo", "el 4º archivo"),
    ],
)
def test_clock_times_in_words_become_digits(language: str, said: str, seen: str) -> None:
    assert i18n.digits(said, language) == seen


async def test_the_model_reads_the_time_as_digits(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent()
    llm.script('```python\nprint("Du bist um", "9:15", "da.")\n```')
    await agent.ask("Ich fahr um zwanzig vor acht los und brauch eine Stunde fünfunddreißig, wann bin ich da?", "st",
                    language="de")
    assert "um 7:40 los" in str(llm.requests[0]["messages"][-1]["content"])


async def test_a_time_said_in_words_is_the_time_the_code_must_start_from(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent()
    llm.script(
        "```python\nimport datetime\nprint((datetime.datetime.now() + datetime.timedelta(minutes=95)).strftime('%H:%M'))\n```",
        "```python\nimport datetime\nt = datetime.datetime.strptime('7:40', '%H:%M') + datetime.timedelta(minutes=95)\n"
        "print('Du bist um', t.strftime('%H:%M'), 'da.')\n```",
    )
    reply = await agent.ask("Ich fahr um zwanzig vor acht los und brauch 95 Minuten, wann bin ich da?", "st2",
                            profile="default", language="de")
    assert "The question gives the time 7:40" in str(llm.requests[1]["messages"][-1]["content"])
    assert reply.answer == "Du bist um 09:15 da.", reply.answer
