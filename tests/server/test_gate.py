"""The gate is the only way a block runs: effects on disk and audit lines, with a real Open Interpreter, the real
sandbox and a scripted LLM.

A block reaching the sandbox without a decision (outside a turn, or code other than the code that was decided)
creates nothing and leaves a ``deny`` audit line; a block too long to check never runs, even where the profile
runs code it cannot check.
"""

from __future__ import annotations

from pathlib import Path

from o1_server.agent.gate import MAX_BLOCK_BYTES, NO_DECISION, Gate, Turn
from o1_server.agent.sandbox import ExecResult
from o1_server.agent.types import CodeBlock
from tests.support.scripted_llm import ScriptedLLM

MARKER = "open('ran.txt', 'w').write('x')\nprint('made it')"


def code(src: str, language: str = "python") -> str:
    return f"```{language}\n{src}\n```"


async def test_a_block_outside_a_turn_does_not_run(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent()
    llm.script("Nothing to run.")
    await agent.ask("hello", "no-gate", profile="default")
    session = agent.sessions.get("no-gate", agent.profile("default"))
    said = session.execute("python", MARKER)  # what Open Interpreter would call, with no turn running
    assert NO_DECISION in said
    assert not (session.workdir / "ran.txt").exists()
    [record] = agent.audit.read("no-gate")
    assert record["decision"] == "deny" and record["reason"] == NO_DECISION and record["code"] == MARKER


def test_only_the_admitted_code_runs(make_agent, tmp_path: Path) -> None:
    agent = make_agent(blocks=3)
    session = agent.sessions.get("swap", agent.profile("t"))
    ran: list[CodeBlock] = []
    emitted: list[CodeBlock] = []

    def run_block(block: CodeBlock) -> ExecResult:
        ran.append(block)
        return ExecResult(0, "ok", 0.01)

    turn = Turn("swap", agent.profile("t"), session.workdir, agent.audit, session.cancelled, "local")
    gate = Gate(turn, run_block, emitted.append, lambda pending: None)
    assert gate.admit("python", "print(1)")
    assert NO_DECISION in gate.run("python", MARKER)  # other code than the code decided
    assert gate.run("python", "print(1)").startswith("(not run")  # the ticket was spent on the refusal
    assert not ran
    assert gate.admit("python", "print(2)")
    assert gate.run("python", "print(2)\n") == "ok"
    assert [b.code for b in ran] == ["print(2)"]
    decisions = [(r["code"], r["decision"]) for r in agent.audit.read("swap")]
    assert (MARKER, "deny") in decisions and ("print(2)", "allow") in decisions
    assert [b.decision for b in emitted].count("deny") == 2


async def test_a_block_too_long_to_check_never_runs(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent(policy={"unparseable": "allow", "writes_files": "allow"})
    long_code = MARKER + "\n" + "#" * (MAX_BLOCK_BYTES + 1)
    llm.script(code(long_code), "Done.")
    reply = await agent.ask("make a file", "long", profile="t")
    [block] = reply.code_blocks
    assert block.decision == "deny" and "too long" in block.reason
    session = agent.sessions.get("long", agent.profile("t"))
    assert not (session.workdir / "ran.txt").exists()
    [record] = agent.audit.read("long")
    assert record["decision"] == "deny" and record.get("exit_status") is None
