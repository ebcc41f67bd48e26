"""Answers for the ear through the real agent (Open Interpreter, sandbox, scripted LLM): what a turn says.

The rules themselves are property-tested in test_speech_cleaning.py; these check that every way a turn can end
goes through them: no code, code that printed a value, a sentence, JSON or nothing, and confirmations.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from o1_server.agent.sandbox import conversation_dir
from o1_server.agent.types import AgentError
from tests.support.scripted_llm import ScriptedLLM

OUTPUT_PROFILE = """
name: spoken
languages: [python]
llm: {model: inherit}
message_template: "{text}\\nWrite one python code block that prints the answer."
answer_from: output
"""


def code(src: str) -> str:
    return f"```python\n{src}\n```"


def output_agent(make_agent, tmp_path: Path, **options):
    """An agent whose profile answers from the code's output (the default profile's way); ``options`` go to
    ``make_agent``."""
    agent = make_agent(**options)
    (tmp_path / "profiles" / "spoken.yaml").write_text(OUTPUT_PROFILE)
    from o1_server.agent.profiles import load_profiles
    from tests.server.conftest import REPO

    agent.profiles = load_profiles([REPO / "profiles", tmp_path / "profiles"])
    return agent


async def test_a_reply_without_code_is_spoken_when_answering_from_output(make_agent, llm: ScriptedLLM,
                                                                          tmp_path: Path) -> None:
    agent = output_agent(make_agent, tmp_path)
    llm.script("**Hello!** I am *o1*, your assistant.")
    reply = await agent.ask("who are you", "c-hello", profile="spoken")
    assert reply.answer == "Hello! I am o1, your assistant."


async def test_answering_from_output_asks_the_llm_once(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    agent = output_agent(make_agent, tmp_path)
    llm.script(code("print(200 / 9)"), "This reply must never be requested.")
    reply = await agent.ask("what is 200 divided by 9", "c-once", profile="spoken")
    assert reply.answer == "The result is 22.22"  # 200 / 9 = 22.22222222222222: 2 decimals, never 22.2
    assert len(llm.requests) == 1, "the LLM was asked again after the code ran"
    assert llm.replies, "the second scripted reply was consumed"


async def test_a_model_server_that_continues_replies_is_given_the_fence(make_agent, llm: ScriptedLLM,
                                                                         tmp_path: Path) -> None:
    """With o1's embedded model server (it continues a prefilled reply), a profile that answers from the output
    gets the opening fence as a prefill and the reply ends at the closing fence: the model writes only code.
    The code that runs is exactly the model's; text after the block is never generated."""
    agent = output_agent(make_agent, tmp_path, prefill=True)
    llm.script(code("print(200 / 9)") + "\nThis explains the code and is never sent.")
    reply = await agent.ask("what is 200 divided by 9", "c-prefill", profile="spoken")
    assert reply.answer == "The result is 22.22"
    (request,) = llm.requests
    assert request["messages"][-1] == {"role": "assistant", "content": "```python\n"}
    assert "```" in request["stop"]
    (block,) = reply.code_blocks
    assert (block.language, block.code.strip(), block.output.strip()) == ("python", "print(200 / 9)", "22.22222222222222")
    # A repair request is a new reply: it is given the fence too.
    llm.script(code("print(1 / 0)"), code("print(round(7 / 3, 2))"))
    reply = await agent.ask("what is 7 divided by 3", "c-prefill", profile="spoken")
    assert reply.answer == "The result is 2.33" and reply.retries == 1
    assert [r["messages"][-1]["content"] for r in llm.requests] == ["```python\n"] * 2


async def test_a_prefilled_reply_that_is_a_sentence_or_nothing_is_not_run(make_agent, llm: ScriptedLLM,
                                                                            tmp_path: Path) -> None:
    """Given the fence, the model may still refuse or ask in words, or stop at once: a sentence is said as the
    model's words (not run as code and called an error), and an empty reply is the LLM's failure, as without
    the prefill (nothing of it is saved)."""
    agent = output_agent(make_agent, tmp_path, prefill=True)
    llm.script("Sorry, I can't help with that.")
    reply = await agent.ask("hack my neighbour's wifi", "c-prose", profile="spoken")
    assert reply.answer == "Sorry, I can't help with that." and reply.retries == 0 and not reply.code_blocks
    llm.script("```python\n```")  # the model stops at once: the continuation is empty
    with pytest.raises(AgentError) as err:
        await agent.ask("what is 6 times 7", "c-empty", profile="spoken")
    assert err.value.code == "llm_unavailable"
    llm.script(code("print(6 * 7)"))
    reply = await agent.ask("and now?", "c-empty", profile="spoken")
    assert reply.answer == "The result is 42"
    asked = [str(m["content"]) for m in llm.requests[-1]["messages"] if m["role"] == "user"]
    assert "what is 6 times 7" not in " ".join(asked), "the failed turn was saved"
    # Code is code, a sentence it prints included.
    llm.script(code("print('That is done.')"))
    reply = await agent.ask("say done", "c-code", profile="spoken")
    assert reply.answer == "That is done." and len(reply.code_blocks) == 1


@pytest.mark.parametrize(
    ("reply", "prose"),
    [
        ("Sorry, I can't help with that.", True),
        ("I can't look that up: I have no internet connection.\nAnything else?", True),
        ("Lo siento, no puedo hacer eso.", True),
        ("print('Sorry, I cannot.')", False),
        ("import os\nprint(len(os.listdir('.')))", False),
        ("Done.", False),  # too short to tell
        ("total = 3 + 4.", False),
        ("# Add them up.\nprint(3 + 4)", False),
    ],
)
def test_a_sentence_in_a_prefilled_reply_is_told_from_code(reply: str, prose: bool) -> None:
    from o1_server.agent.backend import _is_prose

    assert _is_prose(reply) is prose


async def test_no_fence_is_given_where_the_model_phrases_the_answer_or_the_server_does_not_continue(
    make_agent, llm: ScriptedLLM, tmp_path: Path
) -> None:
    """A remote model server (OpenAI, Ollama...) may not continue a prefilled reply, and a profile whose
    model phrases the answer may answer in words: neither gets a prefill or a stop."""
    agent = output_agent(make_agent, tmp_path)
    llm.script(code("print(6 * 7)"))
    reply = await agent.ask("what is 6 times 7", "c-remote", profile="spoken")
    assert reply.answer == "The result is 42"
    assert llm.requests[0]["messages"][-1]["role"] == "user" and "stop" not in llm.requests[0]
    agent = output_agent(make_agent, tmp_path, prefill=True)
    llm.script("Six times seven is 42.")
    reply = await agent.ask("what is 6 times 7", "c-words", profile="t")
    assert reply.answer == "Six times seven is 42."
    assert llm.requests[0]["messages"][-1]["role"] == "user" and "stop" not in llm.requests[0]


async def test_a_printed_sentence_is_said_as_it_is(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    agent = output_agent(make_agent, tmp_path)
    llm.script(code("print('There are 24 days until Christmas.')"))
    reply = await agent.ask("how many days until christmas", "c-sentence", profile="spoken")
    assert reply.answer == "There are 24 days until Christmas."


async def test_json_output_is_not_read_aloud(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    agent = output_agent(make_agent, tmp_path)
    llm.script(code("import json\nprint(json.dumps({'entity_id': 'light.kitchen', 'attributes': {'a': [1, 2]}}))"))
    reply = await agent.ask("show the kitchen light", "c-json", profile="spoken")
    assert reply.answer and not any(c in reply.answer for c in '{}[]"'), reply.answer


async def test_code_that_printed_nothing_says_what_it_did(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    agent = output_agent(make_agent, tmp_path)
    llm.script(code("open('shopping_list.txt', 'w').write('milk\\neggs\\n')"))
    reply = await agent.ask("make a shopping list with milk and eggs", "c-made", profile="spoken")
    assert reply.answer == "I created shopping_list.txt."
    folder = conversation_dir(tmp_path / "data" / "sandbox", "c-made")
    assert (folder / "shopping_list.txt").read_text() == "milk\neggs\n"
    llm.script(code("x = 1"))
    reply = await agent.ask("do nothing", "c-made", profile="spoken")
    assert reply.answer == "I ran the code. It printed nothing and changed no files."
    # The model is told what its silent code did, not just "(no output)" (which it took for a failure).
    outputs = [m["content"] for m in llm.requests[0]["messages"] if "(no output)" in str(m["content"])]
    assert outputs and "I created shopping_list.txt." in outputs[0], llm.requests[0]["messages"]


async def test_model_words_with_markdown_and_tool_call_text_are_cleaned(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent()
    llm.script('<tool_call>\n{"name": "python", "arguments": {"code": "1"}}\n</tool_call>\n'
               "## Result\n- **2 * 3 = 6**\n- see [the docs](http://x)")
    reply = await agent.ask("what is two times three", "c-md")
    assert reply.answer == "Result. 2 * 3 = 6. see the docs."


async def test_a_confirmed_block_that_printed_nothing_says_what_it_did(make_agent, llm: ScriptedLLM,
                                                                        tmp_path: Path) -> None:
    agent = make_agent(policy={"deletes_files": "confirm"})
    folder = conversation_dir(tmp_path / "data" / "sandbox", "c-del")
    (folder / "old.txt").write_text("x")
    llm.script(code("import os\nos.remove('old.txt')"))
    first = await agent.ask("delete old.txt", "c-del")
    assert first.continue_conversation and first.answer.endswith("Shall I?")
    reply = await agent.ask("yes", "c-del")
    assert reply.answer == "Done. I deleted old.txt." and not (folder / "old.txt").exists()


async def test_words_around_inline_code_are_not_glued(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    # Qwen's tokenizer makes " `" one token; Open Interpreter drops a streamed piece ending in "`".
    pieces = ["Use", " the", " `", "o1", "_ha", "`", " helper", " or", " `", "shutil", "`", "."]
    llm.script(pieces)
    reply = await make_agent().ask("how do I reach home assistant", "c-glue")
    assert reply.answer == "Use the o1_ha helper or shutil."
    agent = output_agent(make_agent, tmp_path)
    llm.script(pieces)
    reply = await agent.ask("how do I reach home assistant", "c-glue2", profile="spoken")
    assert reply.answer == "Use the o1_ha helper or shutil."


async def test_a_printed_boolean_is_said_as_yes_or_no(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    agent = output_agent(make_agent, tmp_path)
    llm.script(code("print(97 % 2 == 1)"))
    assert (await agent.ask("is 97 odd", "c-bool", profile="spoken")).answer == "Yes."


async def test_a_labelled_value_is_said_as_printed(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    agent = output_agent(make_agent, tmp_path)
    llm.script(code("print('Change:', 50 - 28)"))
    assert (await agent.ask("what is my change from 50 for 28", "c-label", profile="spoken")).answer == "Change: 22"
    llm.script(code("print(50 - 28)"))
    assert (await agent.ask("and 50 minus 28", "c-bare", profile="spoken")).answer == "The result is 22"


async def test_a_failed_block_says_why(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    agent = output_agent(make_agent, tmp_path)
    llm.script(code("print(1 / 0)"))
    reply = await agent.ask("use a missing module", "c-fail", profile="spoken")
    assert reply.answer == "The code I ran failed: division by zero."


@pytest.mark.parametrize("language", ["en", "de", "fr"])
async def test_a_profile_without_network_says_it_cannot_look_things_up(make_agent, llm: ScriptedLLM,
                                                                      language: str) -> None:
    """Weather and news need the internet: in a profile that denies it, the request is answered without asking
    the model (agent/online.py), and a lookup the model writes for any other request never runs; either way the
    user hears, in their language, that o1 has no internet here (not a date, not a guess)."""
    agent = make_agent()
    fetch = code("import urllib.request\nprint(urllib.request.urlopen('https://wttr.in/Paris').read()[:80])")
    llm.script(fetch)
    asked = {"en": "what's the weather in Paris", "de": "Wie ist das Wetter in Paris?", "fr": "Quel temps fait-il à Paris ?"}
    reply = await agent.ask(asked[language], f"c-offline-{language}", profile="safe", language=language)
    assert reply.code_blocks == [] and llm.requests == []
    assert "internet" in reply.answer.lower() and not any(ch.isdigit() for ch in reply.answer), reply.answer
    llm.script(fetch)
    reply = await agent.ask("print what wttr.in says for Paris", f"c-fetch-{language}", profile="safe", language=language)
    [block] = reply.code_blocks
    assert block.decision == "deny" and "network" in block.category and block.exit_status is None
    assert "internet" in reply.answer.lower() and not any(ch.isdigit() for ch in reply.answer), reply.answer
