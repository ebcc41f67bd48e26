"""Carried values: what a conversation's Python blocks leave behind reaches its later blocks as literals.

Through the real sandbox (the box's report at exit) and the real agent (Open Interpreter, gate, classifier,
audit, scripted LLM): what carries, what never does, and that a carried value is judged like any literal.
"""

from __future__ import annotations

import json
from pathlib import Path

from o1_server.agent.carried import MAX_DEPTH, MAX_NAMES, accepted, reported, with_carried
from o1_server.agent.sandbox import Limits, conversation_dir, run_code
from o1_server.agent.sandbox.run import VALUES_MARKER, split_report
from tests.server.conftest import conversation_files
from tests.support.scripted_llm import ScriptedLLM


def code(src: str) -> str:
    return f"```python\n{src}\n```"


def test_the_box_reports_plain_values_at_exit_even_after_an_error(tmp_path: Path) -> None:
    src = (
        "import datetime, csv\ntotal = 116.45\nnames = ['a.txt', 'b.txt']\npair = (1, 2)\nby_id = {1: 'x'}\n"
        "when = datetime.date(2026, 1, 2)\nrows = {'x': [1, 2]}\nflag = None\nprint('before')\n1 / 0"
    )
    result = run_code("python", src, tmp_path, Limits())
    assert result.output.endswith("before") and "ZeroDivisionError" in result.output
    assert VALUES_MARKER not in result.output
    # A tuple, an int-keyed dict, a date, a module do not survive JSON unchanged: never carried.
    assert reported(result.report) == {"total": 116.45, "names": ["a.txt", "b.txt"], "rows": {"x": [1, 2]},
                                       "flag": None}


def test_a_killed_block_reports_nothing(tmp_path: Path) -> None:
    result = run_code("python", "x = 1\nimport os\nos._exit(0)", tmp_path, Limits())
    assert result.report is None and result.output == ""
    result = run_code("python", "x = 1\nwhile True: pass", tmp_path, Limits(seconds=1))
    assert result.report is None and result.timed_out


def test_a_report_counts_only_on_the_last_line() -> None:
    assert split_report("hi\n" + VALUES_MARKER + '{"a": 1}\n') == ("hi", '{"a": 1}')
    assert split_report(VALUES_MARKER + "{}") == ("", "{}")
    forged = VALUES_MARKER + '{"a": 1}\nmore output'
    assert split_report(forged) == (forged, None)
    assert split_report("plain") == ("plain", None)


def test_only_valid_names_and_small_plain_values_are_accepted() -> None:
    deep: list = []
    for _ in range(MAX_DEPTH + 1):
        deep = [deep]
    values = {"ok": 1, "print": 2, "__import__": 3, "_private": 4, "class": 5, "o1_ha": 6, "sys": 7,
              "naïve": 8, "os": "x", "datetime": 9, "big": "x" * 5000, "deep": deep, "nested": [[1, 2], {"a": [3]}]}
    assert accepted(values) == {"ok": 1, "nested": [[1, 2], {"a": [3]}]}
    assert len(accepted({f"v{i}": i for i in range(100)})) == MAX_NAMES
    assert accepted(["not", "a", "dict"]) == {}
    assert reported("{not json") is None and reported("[" * 100_000) is None and reported(None) is None
    assert reported(json.dumps({"n": 1})) == {"n": 1}


def test_a_block_gets_only_the_values_it_reads_and_never_defines() -> None:
    values = {"total": 360, "nights": ["fri"], "rate": 0.92}
    assert with_carried("print(total * rate)", values) == "rate = 0.92; total = 360\nprint(total * rate)"
    assert with_carried("total = 5\nprint(total)", values) is None  # it defines its own
    assert with_carried("print(unknown)", values) is None
    assert with_carried("print(total", values) is None  # does not parse: told as written
    assert with_carried("print(total)", {}) is None


async def test_a_carried_path_is_judged_as_the_literal_it_is(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    """A value carried from an earlier block is no way around the classifier: a path read from a file of the
    folder at run time (unknown to the classifier then, and never opened) is a literal in the next block, which
    is refused for reading outside the folder; nothing of the file reaches the answer, and the audit log holds
    the literal."""
    agent = make_agent()
    conversation_files(tmp_path, "c-path", {"where.txt": "/etc/passwd\n"})
    llm.script(code("target = open('where.txt').read().strip()\nprint('Noted')"))
    await agent.ask("Note the path in where.txt", "c-path", profile="default")
    llm.script(code("print(open(target).read())"), "I can't read that.")
    reply = await agent.ask("Read it", "c-path", profile="default")
    assert "root:" not in reply.answer
    decided = [(r["decision"], r["code"]) for r in agent.audit.read("c-path")]
    assert decided[0][0] == "allow"
    assert decided[1] == ("deny", "target = '/etc/passwd'\nprint(open(target).read())")


async def test_carried_values_survive_a_restart(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    data = tmp_path / "persist"
    llm.script(code("prices = [4.5, 6.25]\nprint('Noted', len(prices), 'prices')"))
    await make_agent(data_dir=data).ask("Note two prices", "c-keep", profile="default")
    restarted = make_agent(data_dir=data)
    llm.script(code("print('They add up to', sum(prices))"))
    reply = await restarted.ask("What do they add up to?", "c-keep", profile="default")
    assert reply.retries == 0 and reply.answer == "They add up to 10.75"
    folder = conversation_dir(data / "sandbox", "c-keep")
    assert sorted(p.name for p in folder.iterdir()) == []  # the report is never a file in the folder
