"""The agent end to end in one process: real Open Interpreter, real sandboxed execution, scripted LLM."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from o1_server.agent.sandbox import conversation_dir
from o1_server.agent.types import AgentError
from tests.server.conftest import tree_digest
from tests.support.scripted_llm import ScriptedLLM


def code(src: str, language: str = "python") -> str:
    """An LLM reply holding one markdown code block."""
    return f"```{language}\n{src}\n```"


async def test_code_runs_in_the_conversation_sandbox(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    agent = make_agent()
    llm.script(code("import os\nprint(os.getcwd())"), "Your folder is ready.")
    reply = await agent.ask("Where am I?", "conv-a")
    assert reply.answer == "Your folder is ready."
    [block] = reply.code_blocks
    assert block.decision == "allow" and block.exit_status == 0
    assert Path(block.output) == conversation_dir(tmp_path / "data" / "sandbox", "conv-a").resolve()
    # The model saw the code's output before answering.
    assert any("sandbox/conv-a" in str(m.get("content")) for m in llm.requests[-1]["messages"])


async def test_time_limit_stops_an_endless_loop(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent(seconds=1)
    llm.script(code("while True:\n    pass"), "It took too long.")
    start = time.monotonic()
    reply = await agent.ask("Loop forever", "conv-loop")
    assert time.monotonic() - start < 20
    [block] = reply.code_blocks
    assert block.exit_status == -9
    assert "longer than 1 seconds" in block.output


async def test_code_blocks_per_turn_are_capped(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent(blocks=1)
    llm.script(code("print('one')"), code("print('two')"), code("print('three')"), "done")
    reply = await agent.ask("Count", "conv-cap")
    assert [b.decision for b in reply.code_blocks] == ["allow", "skipped"]
    assert reply.code_blocks[0].output == "one"
    assert reply.code_blocks[1].exit_status is None
    assert reply.answer  # answered anyway


async def test_conversations_do_not_mix(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent()
    llm.script("Hello Alice.", "Hello Bob.")
    await agent.ask("My name is Alice", "conv-alice")
    await agent.ask("My name is Bob", "conv-bob")
    bob_request = " ".join(str(m["content"]) for m in llm.requests[-1]["messages"])
    assert "Bob" in bob_request and "Alice" not in bob_request


async def test_conversation_survives_a_restart(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    data = tmp_path / "persist"
    llm.script("Noted: the code word is pelican.")
    await make_agent(data_dir=data).ask("The code word is pelican", "conv-keep")
    restarted = make_agent(data_dir=data)
    llm.script("It is pelican.")
    reply = await restarted.ask("What is the code word?", "conv-keep")
    assert reply.answer == "It is pelican."
    sent = " ".join(str(m["content"]) for m in llm.requests[-1]["messages"])
    assert "pelican" in sent
    assert [t["text"] for t in restarted.conversation("conv-keep")["turns"]] == [
        "The code word is pelican", "What is the code word?"]


async def test_unknown_profile_is_a_clear_error(make_agent) -> None:
    with pytest.raises(AgentError) as err:
        await make_agent().ask("hi", "c", profile="nope")
    assert err.value.code == "unknown_profile"
    assert "nope" in err.value.message


async def test_unreachable_llm_is_a_spoken_error(make_agent) -> None:
    agent = make_agent(api_base="http://127.0.0.1:9/v1", llm_timeout=3)
    start = time.monotonic()
    with pytest.raises(AgentError) as err:
        await agent.ask("hi", "c")
    assert err.value.code == "llm_unavailable"
    assert time.monotonic() - start < 30


async def test_failing_llm_is_a_spoken_error(make_agent, llm: ScriptedLLM) -> None:
    llm.script(500, 500, 500, 500)
    with pytest.raises(AgentError) as err:
        await make_agent().ask("hi", "c")
    assert err.value.code == "llm_unavailable"


async def test_hanging_llm_times_out(make_agent, llm: ScriptedLLM) -> None:
    llm.script(ScriptedLLM.HANG)
    agent = make_agent(turn=10, llm_timeout=60)
    start = time.monotonic()
    with pytest.raises(AgentError) as err:
        await agent.ask("hi", "c-hang")
    # The LLM request's timeout is capped at half the turn: the request fails before the turn's deadline.
    assert err.value.code == "llm_unavailable"
    assert time.monotonic() - start < 30  # only against a hang: the request's own timeout is 5 s


async def test_denied_code_never_runs_and_outside_is_unchanged(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("precious")
    agent = make_agent()
    before = tree_digest(tmp_path, tmp_path / "data")
    llm.script(code(f"rm -rf {outside}", "shell"), "Deleted.")
    reply = await agent.ask("Delete that folder", "conv-deny")
    [block] = reply.code_blocks
    assert block.decision == "deny" and block.exit_status is None
    assert (outside / "keep.txt").read_text() == "precious"
    assert tree_digest(tmp_path, tmp_path / "data") == before
    audit = agent.audit.read("conv-deny")
    assert audit[-1]["decision"] == "deny"


async def test_confirmation_round_trip(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    agent = make_agent()
    drafts = conversation_dir(tmp_path / "data" / "sandbox", "conv-yes") / "drafts"
    drafts.mkdir(parents=True)
    for n in range(3):
        (drafts / f"{n}.txt").write_text("x")
    llm.script(code("rm -rf drafts", "shell"), "Deleted.")
    asked = await agent.ask("Delete my drafts", "conv-yes")
    assert asked.continue_conversation is True
    assert asked.answer.endswith("Shall I?")
    assert drafts.exists()
    done = await agent.ask("yes", "conv-yes")
    assert not drafts.exists()
    assert done.code_blocks[0].code == "rm -rf drafts"
    assert done.continue_conversation is False

    # Anything but yes cancels.
    drafts.mkdir()
    llm.script(code("rm -rf drafts", "shell"), "Deleted.")
    await agent.ask("Delete my drafts", "conv-yes")
    cancelled = await agent.ask("no, wait", "conv-yes")
    assert drafts.exists()
    assert cancelled.code_blocks[0].decision == "cancelled"


async def test_many_code_turns_leave_no_half_read_llm_stream(make_agent, llm: ScriptedLLM) -> None:
    """Regression: Open Interpreter leaves a reply's HTTP stream half-read at the end of a code block; the
    garbage collector closing it later deadlocked the connection pool after tens of turns."""
    import gc

    agent = make_agent(blocks=1)
    for n in range(30):
        llm.script(code(f"print({n} + 1)") + "\nand some words after the block", "Words.")
        reply = await agent.ask(f"turn {n}", "conv-many")
        assert reply.code_blocks[0].output == str(n + 1)
        gc.collect()
    session = agent.sessions.get("conv-many", agent.profile("t"))
    assert session.backend._abandoned == []


async def test_a_turn_that_timed_out_runs_no_code_later(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    agent = make_agent(turn=10, llm_timeout=60)
    marker = conversation_dir(tmp_path / "data" / "sandbox", "conv-late") / "ran.txt"
    llm.script(ScriptedLLM.HANG)
    with pytest.raises(AgentError):
        await agent.ask("first", "conv-late")
    # The LLM answers late with code: the stopped turn must not run it.
    llm.script(code(f"open({str(marker)!r}, 'w').write('x')"))
    await asyncio.sleep(3)
    assert not marker.exists()


async def test_similar_conversation_ids_do_not_share(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent()
    llm.script(code("open('diary.txt', 'w').write('secret')"), "Saved.", code("import os; print(os.listdir('.'))"),
               "Listed.")
    await agent.ask("write", "alice home")
    reply = await agent.ask("list", "alice/home")
    assert "diary" not in reply.code_blocks[0].output
    assert agent.conversation("alice/home")["turns"][0]["text"] == "list"


async def test_reset_forgets_the_conversation_and_its_files(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    agent = make_agent()
    llm.script(code("open('notes.txt', 'w').write('x')"), "Saved.")
    await agent.ask("note this", "conv-reset")
    workdir = conversation_dir(tmp_path / "data" / "sandbox", "conv-reset")
    assert (workdir / "notes.txt").exists()
    assert agent.reset("conv-reset") is True
    assert agent.conversation("conv-reset") is None
    assert not (workdir / "notes.txt").exists()


def test_one_conversation_saved_from_two_threads_at_once(make_agent, caplog: pytest.LogCaptureFixture) -> None:
    """The server's stop saves every conversation while a turn that just ended saves its own: both wrote the same
    ``.tmp`` file, so one published the other's half-written file and the other failed ("Could not save ...
    No such file or directory", the conversation then counted as unsaved)."""
    import threading

    agent = make_agent()
    session = agent.sessions.get("conv-twice", agent.profile("t"))
    results: list[bool] = []

    def save_many() -> None:
        for _ in range(200):
            results.append(agent.sessions.save(session))

    threads = [threading.Thread(target=save_many) for _ in range(2)]
    with caplog.at_level("ERROR"):
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert all(results) and len(results) == 400, [r.message for r in caplog.records][:3]
    assert not list(agent.sessions.folder.glob("*.tmp"))
