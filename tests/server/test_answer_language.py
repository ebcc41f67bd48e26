"""An answer the code printed in English, in a conversation in another language (agent/language_id.py).

Through the real agent (Open Interpreter, gate, sandbox; scripted LLM): a block that changed files is never run
again, and o1 says what it changed in the conversation's language; a read-only block is asked once for its
sentence in the language; a yes to a held deletion says what was deleted in the language; weekday and month
names printed in English are said in the language. Judged by what is said and what is on disk.
"""

from __future__ import annotations

import pytest

from o1_server.agent import i18n
from o1_server.agent.language_id import printed_in_english
from o1_server.agent.speech_cleaning import plain
from tests.server.conftest import conversation_files
from tests.support.scripted_llm import ScriptedLLM


def code(src: str) -> str:
    return f"```python\n{src}\n```"


@pytest.mark.parametrize(
    ("text", "language", "english"),
    [
        ("Butter added to the To-Do list.", "de", True),
        ("reminders.txt has been deleted.", "de", True),
        ("There are 3 files in the folder.", "es", True),
        ("Ich habe Butter zur Liste hinzugefügt.", "de", False),
        ("Il y a 3 fichiers dans le dossier", "fr", False),
        ("Artículos que cuestan más de 32: mantequilla, café", "es", False),
        ("Het totaal is 42 euro", "nl", False),
        ("Il totale è 42 euro", "it", False),
        # Short sentences: English first and the conversation's language unlikely (seventh held-out set)
        ("The result is 720", "de", True),
        ("Tokyo time is 23:20", "it", True),
        ("Sono le 23:20", "it", False),
        ("Het is 12 uur", "nl", False),
        ("Dat is 5 euro", "nl", False),
        ("Son las 5", "es", False),
        ("Ça fait 42 euros", "fr", False),
        ("Es ist 17:20", "de", False),
        ("Total is 42", "nl", False),  # too short to tell
        ("The total is 42", "nl", False),  # Dutch is not unlikely enough
        # A breaker's finds: English names and nouns in a sentence of the language
        ("Living Room an", "de", False),
        ("Du hast 3 Meetings", "de", False),
        ("Tu as 2 meetings", "fr", False),
        ("Le meeting est à 10 h", "fr", False),
        ("Il meeting è alle 10", "it", False),
        ("Il podcast è in play", "it", False),
        ("Living Room on", "es", False),
        ("Bob is in Boston", "nl", False),
        ("Erledigt.", "de", False),
        ("There are 3 files in the folder.", "en", False),  # an English conversation
        # Found by a breaker: the user's own English data is not the model's sentence.
        ("Du hast 3 Termine: Dentist, Team Meeting, Lunch with Anna", "de", False),
        ("Buy milk\nCall the dentist\nPay the rent", "de", False),
        ("Status: open, closed, unavailable", "de", False),
        # The colon of a clock time is no label's: the whole sentence is the model's (seventh held-out set).
        ("The time in Tokyo will be 23:20", "it", True),
        ("Your flight lands at 14:05 local time", "nl", True),
        ("A Tokyo saranno le 23:20 di sera", "it", False),
    ],
)
def test_the_printed_language_is_told(text: str, language: str, english: bool) -> None:
    assert printed_in_english(text, language) is english


def test_english_weekday_and_month_names_are_said_in_the_language() -> None:
    assert plain("Dans 242 jours, nous serons le Friday", "fr") == "Dans 242 jours, nous serons le vendredi"
    assert plain("Am 3. March ist Monday", "de") == "Am 3. März ist Montag"
    assert plain("It is Friday in March", "en") == "It is Friday in March"
    assert plain("am 3. March", "de") == "am 3. März" and plain("le 5 August 2026", "fr") == "le 5 août 2026"
    # Found by a breaker: names that are not dates stay as written.
    assert plain('Das Lied heißt "Sunday Bloody Sunday".', "de") == 'Das Lied heißt "Sunday Bloody Sunday".'
    assert plain("Öffne report-Monday.txt", "de") == "Öffne report-Monday.txt"
    assert plain("March to the beat.", "de") == "March to the beat."
    assert plain("Prince nommé August", "fr") == "Prince nommé August"


async def test_a_write_printed_in_english_is_said_as_what_it_changed(make_agent, llm: ScriptedLLM, tmp_path) -> None:
    agent = make_agent()
    llm.script(
        code("with open('to_do.txt', 'a') as f:\n    f.write('Butter\\n')\nprint('Butter added to the To-Do list.')"),
        "never requested: the block wrote, it is not run again",
    )
    reply = await agent.ask("schreib Butter auf meine To-do-Liste", "c-de-write", profile="default", language="de")
    folder = conversation_files(tmp_path, "c-de-write")
    assert (folder / "to_do.txt").read_text() == "Butter\n"  # written once
    assert reply.answer == "Ich habe to_do.txt erstellt.", reply.answer
    assert reply.retries == 0 and len(llm.requests) == 1


async def test_a_read_only_answer_in_english_is_asked_for_in_the_language(make_agent, llm: ScriptedLLM, tmp_path) -> None:
    agent = make_agent()
    conversation_files(tmp_path, "c-es-read", dict.fromkeys(("a.txt", "b.txt", "c.txt"), "x"))
    llm.script(
        code("import os\nprint('There are', len(os.listdir('.')), 'files in the folder.')"),
        code("import os\nprint('Hay', len(os.listdir('.')), 'archivos en la carpeta.')"),
    )
    reply = await agent.ask("cuántos archivos tengo", "c-es-read", profile="default", language="es")
    assert reply.answer == "Hay 3 archivos en la carpeta.", reply.answer
    assert reply.retries == 1
    told = llm.requests[1]["messages"][-1]["content"]
    assert "printed its sentence in English, and the user speaks Spanish" in told, told


async def test_a_confirmed_deletion_is_said_in_the_language(make_agent, llm: ScriptedLLM, tmp_path) -> None:
    agent = make_agent()
    folder = conversation_files(tmp_path, "c-de-rm", {"reminders.txt": "x"})
    llm.script(code("import os\nos.remove('reminders.txt')\nprint('reminders.txt has been deleted.')"))
    reply = await agent.ask("lösche reminders.txt", "c-de-rm", profile="default", language="de")
    assert reply.answer.endswith("Soll ich das tun?") and (folder / "reminders.txt").exists(), reply.answer
    reply = await agent.ask("ja, bitte", "c-de-rm", profile="default", language="de")
    assert not (folder / "reminders.txt").exists()
    assert reply.answer == "Erledigt. Ich habe reminders.txt gelöscht.", reply.answer


# ------------------------------------------------------------------ a yes that says what it agrees to
@pytest.mark.parametrize(
    ("language", "yes"),
    [("en", "Yes, delete it."), ("de", "Ja, lösch sie."), ("fr", "Oui, supprime-le"), ("es", "Sí, bórralo ya")],
)
async def test_a_yes_that_restates_the_deletion_runs_it(make_agent, llm: ScriptedLLM, tmp_path, language, yes) -> None:
    agent = make_agent()
    conversation = f"c-restate-{language}"
    folder = conversation_files(tmp_path, conversation, {"entwurf.txt": "x"})
    llm.script(code("import os\nos.remove('entwurf.txt')"))
    asked = await agent.ask("delete entwurf.txt", conversation, profile="default", language=language)
    assert (folder / "entwurf.txt").exists() and asked.continue_conversation, asked.answer
    reply = await agent.ask(yes, conversation, profile="default", language=language)
    assert not (folder / "entwurf.txt").exists(), reply.answer
    assert reply.code_blocks[-1].reason == "confirmed by the user" and len(llm.requests) == 1
    assert reply.answer.startswith(i18n.t(language, "confirm.done").rstrip(".")), reply.answer


@pytest.mark.parametrize(
    ("language", "answer"),
    [("en", "Yes, delete notes.txt"), ("en", "Yes, but keep a copy"), ("de", "Ja, aber erst morgen"),
     ("fr", "Oui, et aussi notes.txt"),
     # more than the held block would do: it was run as held (one file gone, the user told "all")
     ("en", "yes delete all the files"), ("es", "sí, borra todos los archivos")],
)
async def test_a_yes_that_asks_for_something_else_keeps_the_file(make_agent, llm: ScriptedLLM, tmp_path, language,
                                                                 answer) -> None:
    agent = make_agent()
    folder = conversation_files(tmp_path, "c-restate-other", {"entwurf.txt": "x", "notes.txt": "y"})
    llm.script(code("import os\nos.remove('entwurf.txt')"), "Okay.")
    await agent.ask("delete entwurf.txt", "c-restate-other", profile="default", language=language)
    reply = await agent.ask(answer, "c-restate-other", profile="default", language=language)
    assert (folder / "entwurf.txt").exists() and (folder / "notes.txt").exists(), reply.answer
    assert reply.code_blocks[0].decision == "cancelled"


# ------------------------------------------------------------------ a no with a reason is not asked again
@pytest.mark.parametrize(
    ("language", "answer"),
    [("es", "no, espera, que todavía lo necesito"), ("en", "no wait, I still need that file for tomorrow"),
     ("de", "nein, lass die Datei bitte noch da, ich brauche sie")],
)
async def test_a_no_with_a_reason_is_not_asked_again(make_agent, llm: ScriptedLLM, tmp_path, language,
                                                    answer) -> None:
    """The reply is too long for a plain no, so it is a new request; the model proposes the same deletion again
    (as the embedded one did): it is cancelled too, and nobody is asked about it a second time."""
    agent = make_agent()
    conversation = f"c-no-reason-{language}"
    folder = conversation_files(tmp_path, conversation, {"entwurf.txt": "x"})
    deletion = code("import os\nos.remove('entwurf.txt')")
    llm.script(deletion, deletion)
    asked = await agent.ask("delete entwurf.txt", conversation, profile="default", language=language)
    assert asked.continue_conversation, asked.answer
    reply = await agent.ask(answer, conversation, profile="default", language=language)
    assert (folder / "entwurf.txt").exists() and len(llm.requests) == 2, reply.answer
    assert not reply.continue_conversation, reply.answer
    assert [b.decision for b in reply.code_blocks][:1] == ["cancelled"], reply.code_blocks
    assert reply.answer == f"{i18n.t(language, 'confirm.cancelled')} {i18n.t(language, 'confirm.left_alone')}"
    reply = await agent.ask(i18n.words(language, "words.yes")[0], conversation, profile="default", language=language)
    assert (folder / "entwurf.txt").exists(), reply.answer  # nothing is held: a yes now runs nothing


async def test_a_no_then_another_deletion_is_asked_about(make_agent, llm: ScriptedLLM, tmp_path) -> None:
    """Only the declined block is left alone: a reply asking for another deletion is asked about as usual."""
    agent = make_agent()
    folder = conversation_files(tmp_path, "c-no-other", {"entwurf.txt": "x", "notes.txt": "y"})
    llm.script(code("import os\nos.remove('entwurf.txt')"), code("import os\nos.remove('notes.txt')"))
    await agent.ask("delete entwurf.txt", "c-no-other", profile="default")
    reply = await agent.ask("no, keep that one and delete notes.txt instead", "c-no-other", profile="default")
    assert reply.continue_conversation and reply.answer.endswith("Shall I?"), reply.answer
    reply = await agent.ask("yes", "c-no-other", profile="default")
    assert (folder / "entwurf.txt").exists() and not (folder / "notes.txt").exists(), reply.answer
