"""Long answers through the real agent (Open Interpreter, sandbox, scripted LLM): what is not said is kept.

An answer longer than what is spoken ends with "There is more; say 'read on'."; the rest stays on the conversation
and "read on" (or "continue", "weiter": the translations' ``speech.read_on`` words) says the next part without a
request to the LLM and without running code, until nothing is left and nothing more is claimed.
"""

from __future__ import annotations

import json
from pathlib import Path

from o1_server.agent.i18n import t
from tests.server.test_answers import code, output_agent
from tests.support.scripted_llm import ScriptedLLM

MORE = t("en", "speech.more")
STEPS = "for i in range(1, 21):\n    print(f'Step {i} is done.')"


def steps(first: int, last: int) -> str:
    return " ".join(f"Step {i} is done." for i in range(first, last + 1))


def audit_records(tmp_path: Path) -> list[dict]:
    return [json.loads(line) for path in sorted((tmp_path / "data").rglob("audit*.jsonl"))
            for line in path.read_text().splitlines() if line.strip()]


async def test_a_long_output_is_said_part_by_part_without_the_llm(make_agent, llm: ScriptedLLM,
                                                                   tmp_path: Path) -> None:
    agent = output_agent(make_agent, tmp_path)
    llm.script(code(STEPS), "This reply must never be requested.")
    reply = await agent.ask("list the steps", "c-long", profile="spoken")
    assert reply.answer == f"{steps(1, 4)} {MORE}"  # four sentences first (session.FIRST_OUTPUT)
    assert reply.continue_conversation  # the satellite listens again for the "read on"
    assert len(llm.requests) == 1 and [b.exit_status for b in reply.code_blocks] == [0]
    records = len(audit_records(tmp_path))

    heard, words = [], ["read on", "Continue.", "Read on, please!", "go on", "next", "more"]
    for word in words:
        part = await agent.ask(word, "c-long", profile="spoken")
        assert part.code_blocks == [] and len(llm.requests) == 1, "read on asked the LLM"
        heard.append(part.answer)
        if not part.answer.endswith(MORE):
            break
    assert heard == [f"{steps(5, 7)} {MORE}", f"{steps(8, 10)} {MORE}", f"{steps(11, 13)} {MORE}",
                     f"{steps(14, 16)} {MORE}", f"{steps(17, 19)} {MORE}", steps(20, 20)]
    assert not part.continue_conversation  # at the end nothing more is claimed
    assert len(audit_records(tmp_path)) == records, "read on ran code"

    # Nothing is left: "read on" is an ordinary message again, for the model.
    llm.script("There is nothing more to read.")
    again = await agent.ask("read on", "c-long", profile="spoken")
    assert len(llm.requests) == 1 and again.answer == "There is nothing more to read."


async def test_the_models_own_long_answer_is_kept_too(make_agent, llm: ScriptedLLM) -> None:
    """A live answer (the model's words, streamed): sentences past the limit are not said but kept."""
    agent = make_agent()
    sentences = [f"Fact {i} is true." for i in range(1, 8)]
    llm.script(" ".join(sentences))
    deltas, reply = [], None
    async for event in agent.ask_stream("tell me facts", "c-live"):
        if event["type"] == "delta":
            deltas.append(event["text"])
        elif event["type"] == "done":
            reply = event["reply"]
    assert reply.answer == " ".join(sentences[:3]) + f" {MORE}"
    assert "".join(deltas) == reply.answer  # the "more" sentence is streamed like the rest
    part = await agent.ask("continue", "c-live")
    assert part.answer == " ".join(sentences[3:6]) + f" {MORE}" and len(llm.requests) == 1
    part = await agent.ask("continue", "c-live")
    assert part.answer == sentences[6] and len(llm.requests) == 1


async def test_a_new_question_drops_the_rest(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    agent = output_agent(make_agent, tmp_path)
    llm.script(code(STEPS), "Paris is the capital of France.", "Nothing to continue.")
    first = await agent.ask("list the steps", "c-drop", profile="spoken")
    assert first.answer.endswith(MORE)
    other = await agent.ask("what is the capital of france", "c-drop", profile="spoken")
    assert other.answer == "Paris is the capital of France." and len(llm.requests) == 2
    after = await agent.ask("read on", "c-drop", profile="spoken")
    assert len(llm.requests) == 3 and after.answer == "Nothing to continue."


async def test_read_on_in_german_and_after_a_restart(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    """The rest is saved with the conversation: another agent on the same data goes on where it stopped."""
    agent = output_agent(make_agent, tmp_path)
    llm.script(code(STEPS))
    reply = await agent.ask("liste die Schritte", "c-de", profile="spoken", language="de")
    assert reply.answer == f"{steps(1, 4)} {t('de', 'speech.more')}"
    await agent.shutdown()

    again = output_agent(make_agent, tmp_path)
    part = await again.ask("Weiter.", "c-de", profile="spoken", language="de")
    assert part.answer == f"{steps(5, 7)} {t('de', 'speech.more')}"
    assert len(llm.requests) == 1


async def test_a_short_list_and_a_restated_question_are_said_whole(make_agent, llm: ScriptedLLM,
                                                                  tmp_path: Path) -> None:
    """The three longest books, one per line with an author's initial, were cut after the second at "M."
    ("There is more"), and a result printed after the question the code restated was never said (seventh
    held-out set, now a dev set): four sentences are said first, and an initial ends none."""
    agent = output_agent(make_agent, tmp_path)
    books = "print('Northern Lines by K. Adeyemi, 536 pages')\nprint('The Glassmaker by M. Ruiz, 498 pages')\n" \
            "print('Salt Roads by T. Okafor, 455 pages')"
    llm.script(code(books))
    reply = await agent.ask("the three longest books?", "c-books", profile="spoken")
    assert "Salt Roads" in reply.answer and MORE not in reply.answer, reply.answer
    llm.script(code("print('Il mio zaino pesa', 11, 'chili. Quante libbre sono?', round(11 / 0.453592, 2))"))
    reply = await agent.ask("Il mio zaino pesa undici chili. Quante libbre sono?", "c-libbre", profile="spoken")
    assert "24" in reply.answer and MORE not in reply.answer, reply.answer
