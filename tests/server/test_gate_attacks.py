"""Attacks on the gate (agent/gate.py), judged by effects: a marker file in the conversation folder, the audit
log's lines (every start has its end), no exception out of ``ask``. Written by a breaker who tried to make code
run that no decision allowed; each test states the secure behaviour, and the legitimate blocks that must
still run (whitespace, aliases, confirmations)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from o1_server.agent.gate import NO_DECISION, Gate, Turn
from o1_server.agent.sandbox import ExecResult
from tests.support.scripted_llm import ScriptedLLM

MARK = "open('ran.txt', 'w').write('x')\nprint('made it')"
MARK2 = "open('ran2.txt', 'w').write('x')\nprint('made it 2')"


def fence(src: str, language: str = "python") -> str:
    return f"```{language}\n{src}\n```"


def sess(agent, cid, profile="t", channel="local"):
    return agent.sessions.get(cid, agent.profile(profile), channel)


def decisions(agent, cid):
    return [(r["completed"], r.get("decision"), r.get("code")) for r in agent.audit.read(cid)]


# 1. two blocks in one LLM reply: only the first may run
async def test_two_blocks_one_reply(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent()
    llm.script(fence(MARK) + "\nand\n" + fence(MARK2), "Done.")
    reply = await agent.ask("go", "two", profile="t")
    s = sess(agent, "two")
    print([b.as_dict() for b in reply.code_blocks], decisions(agent, "two"))
    assert (s.workdir / "ran.txt").exists()
    assert not (s.workdir / "ran2.txt").exists()


# 2. NUL byte in a profile that runs unparseable code
async def test_nul_byte_power(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent(policy={"unparseable": "allow", "writes_files": "allow"})
    llm.script(fence(MARK + "\n#\x00"), "Done.")
    reply = await agent.ask("go", "nul", profile="t")
    s = sess(agent, "nul")
    recs = agent.audit.read("nul")
    print([b.as_dict() for b in reply.code_blocks], recs, reply.answer)
    print(s.backend.messages[-3:])
    assert not (s.workdir / "ran.txt").exists()
    assert all(r["completed"] for r in recs), "audit start without end"


# 3. lone surrogate in code, power-like profile
@pytest.mark.parametrize("ch", ["\ud800", "\udcff"])
async def test_lone_surrogate(make_agent, llm: ScriptedLLM, ch: str) -> None:
    agent = make_agent(policy={"unparseable": "allow", "writes_files": "allow"})
    llm.script(fence(MARK + f"\nprint('{ch}')"), "Done.")
    reply = await agent.ask("go", "sur", profile="t")
    s = sess(agent, "sur")
    recs = agent.audit.read("sur")
    print([b.as_dict() for b in reply.code_blocks], recs, reply.answer)
    assert all(r["completed"] for r in recs), "audit start without end"


# 4. bare fence (no language)
async def test_bare_fence(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent()
    llm.script(fence(MARK, ""), "Done.")
    reply = await agent.ask("go", "bare", profile="t")
    s = sess(agent, "bare")
    print([b.as_dict() for b in reply.code_blocks], decisions(agent, "bare"))
    assert not (s.workdir / "ran.txt").exists()
    assert any(d == "deny" for _, d, _ in decisions(agent, "bare"))


# 5. JSON-form language switch with trailing space: gate says shell, OI routes to the refused language
async def test_json_language_switch_space(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent()
    body = json.dumps({"language": "Shell ", "code": "echo hi > ran.txt"})
    llm.script(fence(body), "Done.")
    reply = await agent.ask("go", "jsw", profile="t")
    s = sess(agent, "jsw")
    blocks = [b.as_dict() for b in reply.code_blocks]
    print(blocks, decisions(agent, "jsw"), s.backend.messages[-3:])
    assert not (s.workdir / "ran.txt").exists()
    allowed = [b for b in blocks if b["decision"] == "allow"]
    recs = agent.audit.read("jsw")
    assert len(recs) >= len(blocks), "a block the gate allowed left no audit line"
    assert not allowed or any(r["decision"] == "allow" for r in recs)


# 5b. JSON-form language switch to shell: runs as shell, decided as shell
async def test_json_language_switch(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent()
    body = json.dumps({"language": "shell", "code": "echo hi > ran.txt"})
    llm.script(fence(body), "Done.")
    reply = await agent.ask("go", "js2", profile="t")
    s = sess(agent, "js2")
    print([b.as_dict() for b in reply.code_blocks], decisions(agent, "js2"))
    recs = agent.audit.read("js2")
    if (s.workdir / "ran.txt").exists():
        assert any(r.get("language") == "shell" and r.get("decision") == "allow" for r in recs)


# 6. blocks_per_turn exhaustion
async def test_cap(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent(blocks=1)
    llm.script(fence("print(1)"), fence(MARK), fence(MARK2), "Done.")
    reply = await agent.ask("go", "cap", profile="t")
    s = sess(agent, "cap")
    print([b.as_dict() for b in reply.code_blocks], decisions(agent, "cap"))
    assert not (s.workdir / "ran.txt").exists() and not (s.workdir / "ran2.txt").exists()
    assert (True, "skipped", MARK) in decisions(agent, "cap")


# 7. legit blocks with whitespace/CRLF: must run (no false refusal)
@pytest.mark.parametrize("src", [
    MARK.replace("\n", "\r\n"),
    "   \n" + MARK + "\n   ",
    "\n\n" + MARK + "\n\n\n",
    MARK + "\t",
    "if True:\n\t" + MARK.replace("\n", "\n\t"),
])
async def test_legit_whitespace(make_agent, llm: ScriptedLLM, src: str) -> None:
    agent = make_agent()
    llm.script(fence(src), "Done.")
    reply = await agent.ask("go", "ws", profile="t")
    s = sess(agent, "ws")
    d = decisions(agent, "ws")
    print([b.as_dict() for b in reply.code_blocks], d)
    assert not any(r.get("reason") == NO_DECISION for r in agent.audit.read("ws")), "false refusal"
    assert (s.workdir / "ran.txt").exists()


# 7b. language aliases must run
@pytest.mark.parametrize("lang,src", [
    ("py", MARK), ("python3", MARK), ("Python", MARK), ("bash", "echo x > ran.txt"), ("sh", "echo x > ran.txt"),
    ("zsh", "echo x > ran.txt"), ("shell", "echo x > ran.txt"), ("python ", MARK),
])
async def test_aliases(make_agent, llm: ScriptedLLM, lang: str, src: str) -> None:
    agent = make_agent()
    llm.script(fence(src, lang), "Done.")
    reply = await agent.ask("go", "al", profile="t")
    s = sess(agent, "al")
    print(lang, [b.as_dict() for b in reply.code_blocks], decisions(agent, "al"))
    assert not any(r.get("reason") == NO_DECISION for r in agent.audit.read("al")), "false refusal"
    assert (s.workdir / "ran.txt").exists()


# 8. confirmation from another channel, after a reset
async def test_confirm_other_channel(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent(policy={"writes_files": "confirm"})
    llm.script(fence(MARK), "Done.", "Nothing.", "Nothing.")
    r1 = await agent.ask("go", "ch", profile="t", channel="http")
    s = sess(agent, "ch", channel="http")
    assert s.pending is not None, r1
    # Another transport's "yes" is another conversation: it neither runs nor cancels the HTTP one's block.
    await agent.ask("yes", "ch", profile="t", channel="wyoming:evil")
    assert not (s.workdir / "ran.txt").exists() and s.pending is not None
    await agent.ask("yes", "ch", profile="t", channel="http")
    assert (s.workdir / "ran.txt").exists()


async def test_confirm_after_reset(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent(policy={"writes_files": "confirm"})
    llm.script(fence(MARK), "Nothing.")
    await agent.ask("go", "rs", profile="t")
    s = sess(agent, "rs")
    assert s.pending is not None
    agent.reset("rs")
    await agent.ask("yes", "rs", profile="t")
    s2 = sess(agent, "rs")
    assert not (s2.workdir / "ran.txt").exists()


# 9. held block whose pending state on disk was edited
async def test_pending_edited_on_disk(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    agent = make_agent(policy={"writes_files": "confirm"})
    llm.script(fence("open('ok.txt', 'w').write('x')"))
    await agent.ask("go", "ed", profile="t")
    s = sess(agent, "ed")
    assert s.pending is not None
    agent.sessions.save(s)
    path = agent.sessions._file(s.storage_id)
    state = json.loads(path.read_text())
    state["pending"]["block"]["code"] = "import os; os.system('touch ran.txt')"
    state["pending"]["block"]["category"] = ["read_only"]
    path.write_text(json.dumps(state))
    agent.sessions._sessions.clear()  # as after a restart
    await agent.ask("yes", "ed", profile="t")
    s = sess(agent, "ed")
    print(decisions(agent, "ed"))
    assert not (s.workdir / "ran.txt").exists(), "edited pending code ran without a decision"


@pytest.mark.parametrize("edit", [
    lambda p: p["block"].pop("category"),
    lambda p: p.__setitem__("block", "x"),
    lambda p: p["block"].__setitem__("code", 5),
    lambda p: p["block"].__setitem__("language", "javascript"),
    lambda p: p.__setitem__("block", None),
    lambda p: p["block"].__setitem__("category", None),
])
async def test_pending_malformed(make_agent, llm: ScriptedLLM, edit) -> None:
    agent = make_agent(policy={"writes_files": "confirm"})
    llm.script(fence("open('ok.txt', 'w').write('x')"), "Fine.", "Fine.")
    await agent.ask("go", "mf", profile="t")
    s = sess(agent, "mf")
    agent.sessions.save(s)
    path = agent.sessions._file(s.storage_id)
    state = json.loads(path.read_text())
    edit(state["pending"])
    path.write_text(json.dumps(state))
    agent.sessions._sessions.clear()
    reply = await agent.ask("yes", "mf", profile="t")  # must not raise
    print(reply.answer, decisions(agent, "mf"))
    recs = agent.audit.read("mf")
    assert all(r["completed"] for r in recs), "audit start without end"


# 10. cancelled between admit and run (Gate level, real sandbox)
def test_cancel_between_admit_and_run(make_agent) -> None:
    agent = make_agent()
    s = sess(agent, "cx")
    gate = s._new_gate("local")
    assert gate.admit("python", MARK)
    s.cancelled.set()
    out = gate.run("python", MARK)
    print(out, decisions(agent, "cx"))
    assert not (s.workdir / "ran.txt").exists(), "cancelled turn's block ran"


# 10b. cancelled turn: the confirmation that was held is not run by a later 'yes'? (by design it is); a cancel
# during the confirmed run
async def test_admit_after_cancel_is_audited(make_agent) -> None:
    agent = make_agent()
    s = sess(agent, "cy")
    gate = s._new_gate("local")
    s.cancelled.set()
    assert not gate.admit("python", MARK)
    print(decisions(agent, "cy"))
    assert decisions(agent, "cy"), "a proposed block refused for cancellation left no audit line"


# 11. huge code in power (multi-byte, < 100k chars but > 128 KiB argv)
async def test_huge_multibyte(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent(policy={"unparseable": "allow", "writes_files": "allow"})
    src = MARK + "\n#" + "\u20ac" * 60_000
    llm.script(fence(src), "Done.")
    reply = await agent.ask("go", "hg", profile="t")
    recs = agent.audit.read("hg")
    print([(b.decision, b.exit_status, b.output[:200]) for b in reply.code_blocks], reply.answer)
    assert all(r["completed"] for r in recs), "audit start without end"
    [block] = reply.code_blocks
    assert block.decision == "deny" and "too long" in block.reason  # counted in bytes, as the kernel counts


# 12. execute called twice for one admission (direct)
def test_double_run(make_agent) -> None:
    agent = make_agent()
    s = sess(agent, "dbl")
    gate = s._new_gate("local")
    assert gate.admit("python", "print(1)")
    assert gate.run("python", "print(1)").strip() == "1"
    assert NO_DECISION in s.execute("python", MARK)
    assert not (s.workdir / "ran.txt").exists()


# 13. admitted as shell, run called with language python and same text
def test_language_mismatch_run(make_agent) -> None:
    agent = make_agent()
    s = sess(agent, "lm")
    gate = s._new_gate("local")
    src = "echo hi"
    assert gate.admit("shell", src)
    out = gate.run("python", src)
    print(out, decisions(agent, "lm"))
    assert out.strip() == "hi"  # the admitted block runs as what it was decided (shell), whatever the caller says


# 14. the profile was tightened (writes_files: deny) while a block was held: "yes" after a restart
async def test_confirm_after_policy_tightened(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    data = tmp_path / "d1"
    agent = make_agent(policy={"writes_files": "confirm"}, data_dir=data)
    llm.script(fence(MARK))
    await agent.ask("go", "pt", profile="t")
    s = sess(agent, "pt")
    assert s.pending is not None
    agent.sessions.save(s)
    agent2 = make_agent(policy={"writes_files": "deny"}, data_dir=data)  # the admin tightened the profile
    await agent2.ask("yes", "pt", profile="t")
    print(decisions(agent2, "pt"))
    assert not (sess(agent2, "pt").workdir / "ran.txt").exists(), "held block ran against the current policy"


# 15. ambiguous answers to a confirmation question
@pytest.mark.parametrize("answer", ["Okay, cancel that.", "ok no", "Sure... no wait, don't.", "do it later"])
async def test_yes_regex(make_agent, llm: ScriptedLLM, answer: str) -> None:
    agent = make_agent(policy={"writes_files": "confirm"})
    llm.script(fence(MARK), "Ok.")
    await agent.ask("go", "yr", profile="t")
    s = sess(agent, "yr")
    assert s.pending is not None
    reply = await agent.ask(answer, "yr", profile="t")
    print(answer, "->", reply.answer)
    assert not (s.workdir / "ran.txt").exists(), f"{answer!r} ran the held block"


@pytest.mark.parametrize("answer", ["yes", "Yes, do it.", "Okay!", "yes please", "Sure.", "go ahead", "Ja."])
async def test_a_plain_yes_runs_the_held_block(make_agent, llm: ScriptedLLM, answer: str) -> None:
    agent = make_agent(policy={"writes_files": "confirm"})
    llm.script(fence(MARK), "Ok.")
    await agent.ask("go", "yy", profile="t")
    reply = await agent.ask(answer, "yy", profile="t")
    assert (sess(agent, "yy").workdir / "ran.txt").exists(), f"{answer!r} did not run the held block"
    assert reply.code_blocks[-1].reason == "confirmed by the user"


# 16. legit confirmation runs (no false refusal), code with odd whitespace
@pytest.mark.parametrize("src", [MARK, MARK.replace("\n", "\r\n") + "\r\n", "\n" + MARK + "  \n\n"])
async def test_confirm_legit(make_agent, llm: ScriptedLLM, src: str) -> None:
    agent = make_agent(policy={"writes_files": "confirm"})
    llm.script(fence(src), "Ok.")
    await agent.ask("go", "cl", profile="t")
    s = sess(agent, "cl")
    assert s.pending is not None
    reply = await agent.ask("yes", "cl", profile="t")
    print(reply.answer, decisions(agent, "cl"))
    assert (s.workdir / "ran.txt").exists()
    assert not any(r.get("reason") == NO_DECISION for r in agent.audit.read("cl"))


# 17. turn deadline: a later block of the same turn must not run
async def test_turn_deadline(make_agent, llm: ScriptedLLM) -> None:
    import asyncio
    agent = make_agent(turn=1, seconds=5)
    llm.script(fence("import time; time.sleep(3)"), fence(MARK), "Done.")
    with pytest.raises(Exception):
        await agent.ask("go", "dl", profile="t")
    s = sess(agent, "dl")
    for _ in range(100):
        if not s.running:
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(1)
    print(decisions(agent, "dl"))
    assert not (s.workdir / "ran.txt").exists()


# 18. a code block opened and never closed (the stream ends inside the fence)
async def test_unclosed_fence(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent()
    llm.script("Here:\n```python\n" + MARK + "\n", "Done.")
    reply = await agent.ask("go", "uc", profile="t")
    s = sess(agent, "uc")
    print([b.as_dict() for b in reply.code_blocks], decisions(agent, "uc"))
    assert (s.workdir / "ran.txt").exists() == any(r["decision"] == "allow" for r in agent.audit.read("uc"))


# 19. functions.execute hallucination switching language
async def test_functions_execute(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent()
    body = "functions.execute(" + json.dumps({"language": "shell", "code": "echo hi > ran.txt"}) + ")"
    llm.script(fence(body), "Done.")
    reply = await agent.ask("go", "fe", profile="t")
    s = sess(agent, "fe")
    print([b.as_dict() for b in reply.code_blocks], decisions(agent, "fe"))
    recs = agent.audit.read("fe")
    if (s.workdir / "ran.txt").exists():
        assert any(r["language"] == "shell" and r["decision"] == "allow" for r in recs)


# 20. NUL byte / lone surrogate: never held (denied at once); one forged into a saved confirmation is denied at "yes"
@pytest.mark.parametrize("bad", ["\x00", "\ud800"])
async def test_confirm_nul(make_agent, llm: ScriptedLLM, bad: str) -> None:
    agent = make_agent(policy={"unparseable": "confirm", "writes_files": "confirm"})
    llm.script(fence(MARK + "\n#" + bad), "Ok.")
    reply = await agent.ask("go", "cn", profile="t")
    [block] = reply.code_blocks
    assert block.decision == "deny" and "character" in block.reason
    assert sess(agent, "cn").pending is None
    llm.script(fence("open('ok.txt', 'w').write('x')"), "Ok.")
    await agent.ask("make ok", "cn", profile="t")
    s = sess(agent, "cn")
    assert s.pending is not None
    agent.sessions.save(s)
    path = agent.sessions._file(s.storage_id)
    state = json.loads(path.read_text())
    state["pending"]["block"]["code"] = MARK + "\n#" + bad
    path.write_text(json.dumps(state))
    agent.sessions._sessions.clear()  # as after a restart
    reply = await agent.ask("yes", "cn", profile="t")
    assert reply.code_blocks[-1].decision == "deny" and "character" in reply.answer
    s = sess(agent, "cn")
    assert not (s.workdir / "ran.txt").exists() and not (s.workdir / "ok.txt").exists()
    assert all(r["completed"] for r in agent.audit.read("cn")), "audit start without end"


# 21. NUL in a shell block
async def test_nul_shell(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent(policy={"unparseable": "allow", "writes_files": "allow"})
    llm.script(fence("echo x > ran.txt\n#\x00", "shell"), "Done.")
    reply = await agent.ask("go", "ns", profile="t")
    recs = agent.audit.read("ns")
    print([(b.decision, b.category, b.exit_status) for b in reply.code_blocks], [(r["decision"], r["completed"]) for r in recs])
    assert all(r["completed"] for r in recs), "audit start without end"


# 21b. NUL in a shell block, default policy of the test profile
async def test_nul_shell_default(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent()
    llm.script(fence("echo x > ran.txt\n#\x00", "shell"), "Done.")
    reply = await agent.ask("go", "nd", profile="t")
    s = sess(agent, "nd")
    recs = agent.audit.read("nd")
    print([(b.decision, b.category, b.exit_status) for b in reply.code_blocks], [(r["decision"], r["completed"]) for r in recs])
    print(s.backend.messages[-2]["content"][-300:])
    assert all(r["completed"] for r in recs), "audit start without end"
