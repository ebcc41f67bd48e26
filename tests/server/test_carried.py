"""Carried values: what a conversation's Python blocks leave behind reaches its later blocks as literals.

Through the real sandbox (the box's report at exit) and the real agent (Open Interpreter, gate, classifier,
audit, scripted LLM): what carries, what never does, and that a carried value is judged like any literal.
"""

from __future__ import annotations

import json
from pathlib import Path

from o1_server.agent.carried import MAX_DEPTH, MAX_NAMES, accepted, merged, reported, with_carried
from o1_server.agent.sandbox import Limits, conversation_dir, run_code
from o1_server.agent.sandbox.run import VALUES_MARKER, split_report
from tests.server.conftest import box, conversation_files
from tests.support.scripted_llm import ScriptedLLM


def code(src: str) -> str:
    return f"```python\n{src}\n```"


def test_the_box_reports_plain_values_at_exit_even_after_an_error(tmp_path: Path) -> None:
    src = (
        "import datetime, csv\ntotal = 116.45\nnames = ['a.txt', 'b.txt']\npair = (1, 2)\nby_id = {1: 'x'}\n"
        "when = datetime.date(2026, 1, 2)\nrows = {'x': [1, 2]}\nflag = None\nprint('before')\n1 / 0"
    )
    result = run_code("python", src, box(tmp_path), Limits())
    assert result.output.endswith("before") and "ZeroDivisionError" in result.output
    assert VALUES_MARKER not in result.output
    # A tuple, an int-keyed dict, a date, a module do not survive JSON unchanged: never carried.
    assert reported(result.report) == {"total": 116.45, "names": ["a.txt", "b.txt"], "rows": {"x": [1, 2]},
                                       "flag": None}


def test_a_killed_block_reports_nothing(tmp_path: Path) -> None:
    result = run_code("python", "x = 1\nimport os\nos._exit(0)", box(tmp_path), Limits())
    assert result.report is None and result.output == ""
    result = run_code("python", "x = 1\nwhile True: pass", box(tmp_path), Limits(seconds=1))
    assert result.report is None and result.timed_out


def test_a_report_counts_only_with_the_runs_token() -> None:
    run = VALUES_MARKER + "abc "
    assert split_report("hi\n" + run + '{"a": 1}\n', "abc") == ("hi\n", '{"a": 1}')
    assert split_report(run + "{}", "abc") == ("", "{}")
    # printed after the report (an object's __del__): the report is still taken off
    assert split_report("hi\n" + run + '{"a": 1}\nbye', "abc") == ("hi\nbye", '{"a": 1}')
    forged = "hi\n" + VALUES_MARKER + 'xyz {"a": 2}'  # a file's text: another token, left as printed
    assert split_report(forged, "abc") == (forged, None)
    assert split_report(run + '{"a": 1}\n' + run + '{"a": 2}', "abc")[1] is None  # the code read the token
    assert split_report("plain", "abc") == ("plain", None) and split_report(run + "{}", "") == (run + "{}", None)


def test_data_that_looks_like_a_report_carries_nothing(tmp_path: Path) -> None:
    """A file whose text ends with a report line, printed by a block that is then killed (no report of its own)
    or printed after the block's report (``__del__``): nothing of it is carried, and the block's own values
    stand."""
    folder = box(tmp_path)
    (folder / "notes.txt").write_text("x" * 9000 + "\n" + VALUES_MARKER + 'abc {"price": 999}\n')
    killed = run_code("python", "import time\nprice = 3\nprint(open('notes.txt').read())\ntime.sleep(5)",
                      folder, Limits(seconds=1))
    assert killed.timed_out and killed.report is None
    late = run_code("python", "_tail = open('notes.txt').read()[-40:]\nclass R:\n    def __del__(self):\n"
                    "        print(_tail)\nr = R()\nprice = 3\nprint('price', price)", folder, Limits())
    assert reported(late.report) == {"price": 3} and late.output.startswith("price 3")
    assert "o1-values abc" in late.output  # the file's text, as printed: not a report


def test_only_valid_names_and_small_plain_values_are_accepted() -> None:
    deep: list = []
    for _ in range(MAX_DEPTH + 1):
        deep = [deep]
    values = {"ok": 1, "print": 2, "__import__": 3, "_private": 4, "class": 5, "o1_ha": 6, "sys": 7,
              "naïve": 8, "os": "x", "datetime": 9, "n" * 65: 10, "big": "x" * 5000, "deep": deep, "nested": [[1, 2], {"a": [3]}]}
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
    # a called name is never a carried value: statistics.mean's import is added instead
    assert with_carried("print(mean([1, 2]), total)", {"mean": 4.0, "total": 1}) == "total = 1\nprint(mean([1, 2]), total)"


def test_the_newest_values_are_kept() -> None:
    values: dict = {}
    merged(values, {f"v{i}": i for i in range(MAX_NAMES)})
    merged(values, {"v0": 100, "latest": 7})
    assert len(values) == MAX_NAMES and "v1" not in values and list(values)[-2:] == ["v0", "latest"]
    assert accepted(values) == values  # what is saved is what loads


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


async def test_a_carried_value_never_hides_a_function_the_block_calls(make_agent, llm: ScriptedLLM) -> None:
    """A breaker's find: ``mean = 4.0`` in one block, ``mean([10, 20, 30])`` in the next, carried, failed with
    "'float' object is not callable"; a called name is left to missing_imports.py (statistics.mean)."""
    agent = make_agent()
    llm.script(code("readings = [3, 5]\nmean = sum(readings) / len(readings)\nprint('The mean is', mean)"))
    await agent.ask("What's the mean of 3 and 5?", "c-mean", profile="default")
    llm.script(code("print('The mean is', mean([10, 20, 30]), 'and before', readings)"))
    reply = await agent.ask("And of 10, 20 and 30?", "c-mean", profile="default")
    assert reply.retries == 0 and reply.answer == "The mean is 20 and before 3 and 5", reply.answer


def test_a_traceback_counts_the_blocks_own_lines(tmp_path: Path) -> None:
    """The box runs a prelude line before the block: a traceback said "line 4" for the block's third line."""
    result = run_code("python", "x = 1\ny = 2\nprint(x + z)", box(tmp_path), Limits())
    assert 'File "<string>", line 3, in <module>' in result.output, result.output
    result = run_code("python", "x = 1\ny = (2", box(tmp_path), Limits())
    assert 'File "<string>", line 2' in result.output, result.output


async def test_an_error_after_carried_values_and_imports_names_the_models_line(
    make_agent, llm: ScriptedLLM, tmp_path: Path
) -> None:
    """A block completed with a carried line and an import ran two lines before the model's code: the error the
    model is sent back names the line of the code it wrote (line 3), not the one that ran (line 5)."""
    agent = make_agent()
    llm.script(code("total = 12.5\nprint('Noted')"))
    await agent.ask("Note 12.5", "c-lines", profile="default")
    llm.script(code("half = total / 2\nroot = math.sqrt(half)\nprint(root + int('x'))"), "Sorry.", "Sorry.")
    await agent.ask("And the root of half?", "c-lines", profile="default")
    [run] = [r for r in agent.audit.read("c-lines") if "int('x')" in r["code"]]
    assert run["code"].splitlines()[:2] == ["import math", "total = 12.5"], run["code"]
    assert run["exit_status"] == 1
    sent = json.dumps(llm.requests[1])
    assert 'line 3, in <module>' in sent and "line 5" not in sent, sent


async def test_a_broken_block_completed_with_a_carried_value_names_the_models_line(
    make_agent, llm: ScriptedLLM
) -> None:
    agent = make_agent()
    llm.script(code("total = 12.5\nprint('Noted')"))
    await agent.ask("Note 12.5", "c-invalid", profile="default")
    llm.script(code("half = total / 2\nprint(half, nowhere_defined)"), "Sorry.", "Sorry.")
    await agent.ask("And half of it?", "c-invalid", profile="default")
    [broken] = [r for r in agent.audit.read("c-invalid") if "nowhere_defined" in r["code"]]
    assert broken["decision"] == "invalid" and broken["code"].startswith("total = 12.5\n")
    assert broken["reason"].startswith("line 2: name 'nowhere_defined' is not defined"), broken["reason"]
