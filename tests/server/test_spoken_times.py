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
        ("nl", "De trein vertrekt om tien voor half negen", "De trein vertrekt om 8:20"),  # was "10 voor 8:30"
        ("nl", "vijf over half drie", "2:35"),
        ("de", "Ich fahr um fünf vor halb acht los", "Ich fahr um 7:25 los"),
        ("de", "um drei viertel acht", "um 7:45"),  # was "um 3 viertel 8"
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
        # A later time earlier on the clock than a morning one is after noon (everyday dev set "twenty past
        # four" after "quarter to seven this morning"; seventh held-out set "a las dos menos diez").
        ("en", "my shift started at quarter to seven this morning and I finished at twenty past four",
         "my shift started at 6:45 this morning and I finished at 16:20"),
        ("es", "a las diez y veinticinco de la mañana y lo apagué a las dos menos diez",
         "a las 10:25 de la mañana y lo apagué a las 13:50"),
        ("de", "um halb neun morgens angefangen und um Viertel nach drei aufgehört",
         "um 8:30 morgens angefangen und um 15:15 aufgehört"),
        ("en", "I start at 9:00 in the morning and finish at 11:30", "I start at 9:00 in the morning and finish at 11:30"),
        ("en", "I left at 8 in the morning and came back at 7 in the evening",
         "I left at 8:00 in the morning and came back at 19:00 in the evening"),
        ("en", "from 7:00 to 4:30", "from 7:00 to 4:30"),  # no morning said: left as it is
        # An evening said before the time, or "last night" after it (seventh held-out set: "ten to eleven last
        # night" stayed "10 to 11" and the model read 10:11).
        ("en", "on at ten to eleven last night and it beeped at twenty five past three this morning",
         "on at 22:50 last night and it beeped at 3:25 this morning"),
        ("de", "gestern Abend um zehn vor elf", "gestern Abend um 22:50"),
        ("fr", "hier soir à onze heures moins dix", "hier soir à 22:50"),
        ("es", "anoche a las once menos diez", "anoche a las 22:50"),
        ("it", "ieri sera alle undici meno dieci", "ieri sera alle 22:50"),
        ("nl", "gisteravond om tien voor elf", "gisteravond om 22:50"),
        ("en", "this morning at ten to eleven", "this morning at 10:50"),
        # "now" between "it is" and the time (seventh held-out set: "Hier is het nu tien voor acht 's avonds").
        ("nl", "Hier is het nu tien voor acht 's avonds.", "Hier is het nu 19:50 's avonds."),
        ("en", "it's now twenty to eight", "it's now 7:40"),
        ("en", "it is now seven forty in the evening", "it is now 19:40 in the evening"),
        ("de", "es ist jetzt zehn vor acht", "es ist jetzt 7:50"),
        ("fr", "il est huit heures moins dix", "il est 7:50"),
        ("fr", "il est maintenant vingt heures moins dix", "il est maintenant 19:50"),
        ("en", "it's twelve fifty for the tickets", "it's 12 50 for the tickets"),  # a price, not a time
        ("en", "I need now five to eight people", "I need now 5 to 8 people"),
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
        # A breaker's findings: ranges, scores, prices, addresses, years, counts, phone numbers, doses, sums.
        ("en", "Increase the temperature by 2 to 3 degrees", "Increase the temperature by 2 to 3 degrees"),
        ("en", "they won by 3 to 1", "they won by 3 to 1"),
        ("en", "it is 5 to 8 km from here", "it is 5 to 8 km from here"),
        ("en", "Add a quarter to two cups of flour", "Add a quarter to two cups of flour"),
        ("en", "apples at two fifty a kilo", "apples at 2.50 a kilo"),  # a price, not 2:50
        # A price said as two numbers after a count or before "each", "a kilo" (the model coded 6:45 rollers).
        ("en", "three tins of paint at twenty four ninety nine each and two rollers at six forty five, and",
         "3 tins of paint at 24.99 each and 2 rollers at 6.45, and"),
        ("en", "it costs eighty nine ninety nine", "it costs 89.99"),
        ("en", "the bill came to sixty two forty", "the bill came to 62.40"),
        ("en", "I live at twelve fifteen Main Street", "I live at 12 15 Main Street"),
        ("en", "How many days until twenty twenty six", "How many days until 20 26"),
        ("en", "multiply it by six five times", "multiply it by 6 5 times"),
        ("en", "call me at 5 55 12 34", "call me at 5 55 12 34"),
        ("en", "remind me at 12 am", "remind me at 0:00"),
        ("en", "wake me at one thirty tonight", "wake me at 1:30 tonight"),
        ("en", "at three twenty-five", "at 3:25"),
        ("en", "at seven in the evening", "at 19:00 in the evening"),
        ("en", "quarter past ²", "quarter past ²"),  # a digit int() cannot read: left alone, no crash
        ("de", "bis zehn nach sechs Uhr abends", "bis 6:10 Uhr abends"),
        ("de", "die Temperatur ist 5 vor 8 Grad", "die Temperatur ist 5 vor 8 Grad"),
        ("fr", "toutes les 8 heures 2 comprimés", "toutes les 8 heures 2 comprimés"),
        ("fr", "il faut 2 heures moins 10 minutes", "il faut 2 heures moins 10 minutes"),
        ("es", "a las tres y media de la noche", "a las 3:30 de la noche"),
        ("es", "a las cuatro de la tarde", "a las 16:00 de la tarde"),
        ("es", "Suma las 3 y 4 manzanas", "Suma las 3 y 4 manzanas"),
        ("es", "entre las 5 y 8", "entre las 5 y 8"),
        ("it", "tra le 5 e 8", "tra le 5 e 8"),
        ("nl", "De prijs is 3 voor 10 euro", "De prijs is 3 voor 10 euro"),
        ("nl", "een kwart voor 4 personen", "een kwart voor 4 personen"),
        ("nl", "half 5 kilo", "half 5 kilo"),
        # A subordinate clause ends with its verb (de, nl): the time before it is a time all the same. Before,
        # "um sieben Uhr zwanzig aufstehe" reached the model as "um 7:00 20 aufstehe".
        ("de", "wenn ich um halb neun losfahre", "wenn ich um 8:30 losfahre"),
        ("de", "wenn ich um sieben Uhr zwanzig aufstehe", "wenn ich um 7:20 aufstehe"),
        ("de", "wenn der Zug um zehn vor acht abfährt, wann bin ich da", "wenn der Zug um 7:50 abfährt, wann bin ich da"),
        ("de", "wenn wir um viertel nach sieben ankommen", "wenn wir um 7:15 ankommen"),
        ("de", "ich muss bis drei viertel acht fertig sein", "ich muss bis 7:45 fertig sein"),
        ("de", "um sieben Uhr zwei Brötchen", "um 7:00 2 Brötchen"),  # a noun after the minutes: not 7:02
        ("nl", "als ik om half negen vertrek", "als ik om 8:30 vertrek"),
        ("nl", "als de trein om tien over acht vertrekt", "als de trein om 8:10 vertrekt"),
        ("nl", "als ik om kwart over zeven opsta", "als ik om 7:15 opsta"),
        # British "half eight" is 8:30, not German's 7:30.
        ("en", "if I leave at half eight", "if I leave at 8:30"),
        ("en", "I'll be there by half ten", "I'll be there by 10:30"),
        ("en", "at half past eight", "at 8:30"),
        ("en", "cut it at half 5 kilos", "cut it at half 5 kilos"),
        # A breaker's finds: minutes after "Uhr"/"uur" were cut from their hour ("9:00 12"), two-word minutes
        # were split ("6:40 y 5"), "pm" took only the last word ("7 40 17:00"), and "von", "van", "dalle",
        # "now" after a time were not known.
        ("de", "Der Zug von neun Uhr zwölf fällt aus.", "Der Zug von 9:12 fällt aus."),
        ("de", "Um acht Uhr fünfzehn Meeting mit dem Team", "Um 8:15 Meeting mit dem Team"),
        ("de", "von Viertel nach zehn bis elf", "von 10:15 bis 11"),
        ("nl", "om zes uur vijfenveertig", "om 6:45"),
        ("nl", "de trein van zeventien uur twaalf van spoor drie", "de trein van 17:12 van spoor 3"),
        ("nl", "het duurt twee uur twintig", "het duurt 2 h 20 min"),  # a duration stays one
        ("nl", "van tien over negen tot tien", "van 9:10 tot 10"),
        ("es", "a las seis y cuarenta y cinco", "a las 6:45"),
        ("es", "a las once y cincuenta y cinco de la noche", "a las 23:55 de la noche"),
        ("en", "set an alarm for seven forty five pm", "set an alarm for 19:45"),
        ("en", "wake me at seven oh five am", "wake me at 7:05"),
        ("en", "It's ten to three now", "It's 2:50 now"),
        ("it", "dalle dieci e un quarto", "dalle 10:15"),
        ("it", "alle diciassette e dodici dal binario tre", "alle 17:12 dal binario 3"),
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


def test_a_long_text_is_rewritten_in_linear_time() -> None:
    """A 40,000-character hyphenated text took 51 s with unbounded hyphen-word groups; it is left as it is."""
    import time

    start = time.process_time()
    assert i18n.digits("a-" * 20_000, "fr") == "a-" * 20_000
    assert i18n.digits("à " + "a-" * 400 + " heures", "fr")
    assert time.process_time() - start < 5  # generous: the quadratic version took 13 s for half of this


@pytest.mark.parametrize(
    ("language", "said", "facts"),
    [
        ("en", "the fight starts at seven thirty pm Eastern time, which is UTC minus five, what time is that for my "
               "cousin in Berlin, who's on UTC plus one", "Time facts: UTC+1 is 6 hours ahead of UTC-5."),
        ("fr", "Il est 15 h à Paris (UTC+1). Quelle heure est-il à New York, UTC moins cinq ?",
         "Time facts: UTC+1 is 6 hours ahead of UTC-5."),
        ("es", "Son las 10 en UTC menos 3, ¿qué hora es en UTC más 9?", "Time facts: UTC+9 is 12 hours ahead of UTC-3."),
        ("de", "Es ist 10 Uhr in UTC+1, wie spät ist es in UTC+2?", "Time facts: UTC+2 is 1 hour ahead of UTC+1."),
        ("nl", "Het is 9 uur in UTC min 4. Hoe laat is het in UTC?", "Time facts: UTC is 4 hours ahead of UTC-4."),
        ("it", "A Delhi è UTC più 5:30, che ore sono lì alle 12:00 GMT?",
         "Time facts: UTC+5:30 is 5 hours 30 minutes ahead of UTC."),
        ("en", "UTC+2 and GMT+2 are the same", None),  # one offset
        ("en", "what does UTC stand for", None),
        ("en", "what is 7 minus 5 in UTCs", None),
        # A breaker's finds: a range of times, time arithmetic, an en dash, a half hour as a decimal
        ("en", "The maintenance window is 08:00 UTC-10:00 UTC, what is that in Berlin?", None),
        ("en", "what is 14:00 UTC plus 3 hours, and 09:00 UTC minus 2 hours", None),
        ("en", "Eastern is UTC–5 and Berlin is UTC+1", "Time facts: UTC+1 is 6 hours ahead of UTC-5."),
        ("en", "India is UTC plus five and a half and New York is UTC minus four",
         "Time facts: UTC+5:30 is 9 hours 30 minutes ahead of UTC-4."),
    ],
)
def test_two_utc_offsets_get_the_hours_between_them(language: str, said: str, facts: str | None) -> None:
    from o1_server.agent.spoken_times import offset_facts

    assert offset_facts(i18n.digits(said, language), language) == facts


async def test_the_model_gets_the_hours_between_two_offsets(make_agent, llm: ScriptedLLM) -> None:
    """"UTC minus five ... UTC plus one" was moved by 5 hours (seventh held-out set, a dev set): the request the
    model reads holds the 6 hours between them."""
    agent = make_agent()
    llm.script("```python\nimport datetime\nt = datetime.datetime(2026, 1, 1, 19, 30) + datetime.timedelta(hours=6)\n"
               "print('The fight starts at', t.strftime('%H:%M'), 'in Berlin')\n```")
    reply = await agent.ask("the fight starts at seven thirty pm, which is UTC minus five, what time is that in "
                            "Berlin, UTC plus one", "c-offsets", profile="default")
    sent = str(llm.requests[0]["messages"][-1]["content"])
    assert "(Time facts: UTC+1 is 6 hours ahead of UTC-5.)" in sent, sent
    assert "01:30" in reply.answer or "1:30" in reply.answer, reply.answer
