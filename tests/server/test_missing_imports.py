"""A block's forgotten standard-library imports are added before the gate decides (agent/missing_imports.py).

Through the real agent (Open Interpreter, gate, classifier, sandbox, audit; scripted LLM): the completed block
runs at once (no repair request), the audit log and the history hold the block as it ran, a completed block
that deletes is still asked about and still deletes only after the yes, and a name that is not unambiguously
a standard-library import still goes back to the model.
"""

from __future__ import annotations

import pytest

from o1_server.agent.gate import INVALID
from o1_server.agent.missing_imports import add_missing_imports
from tests.server.conftest import conversation_files
from tests.server.test_repair import audited
from tests.support.scripted_llm import ScriptedLLM


def code(src: str) -> str:
    """An LLM reply holding one Python code block."""
    return f"```python\n{src}\n```"


@pytest.mark.parametrize(
    ("written", "completed"),
    [
        ("print(len(os.listdir('.')))", "import os\nprint(len(os.listdir('.')))"),
        ("print(datetime.date.today().year)", "import datetime\nprint(datetime.date.today().year)"),
        ("print(datetime.now().strftime('%H:%M'))", "from datetime import datetime\nprint(datetime.now().strftime('%H:%M'))"),
        (
            "import datetime\nprint(datetime.date.today() + timedelta(days=242))",
            "from datetime import timedelta\nimport datetime\nprint(datetime.date.today() + timedelta(days=242))",
        ),
        (
            "rows = list(csv.reader(open('b.csv')))\nprint(mean(float(r[1]) for r in rows[1:]))",
            "import csv\nfrom statistics import mean\nrows = list(csv.reader(open('b.csv')))\n"
            "print(mean(float(r[1]) for r in rows[1:]))",
        ),
        ("print(Path('notes.txt').read_text())", "from pathlib import Path\nprint(Path('notes.txt').read_text())"),
    ],
)
def test_an_unambiguous_use_gets_its_import(written: str, completed: str) -> None:
    assert add_missing_imports(written) == completed


@pytest.mark.parametrize(
    "written",
    [
        "import os\nprint(os.getcwd())",  # nothing missing
        "print(time)",  # used bare: the model's own variable, not the module
        "print(datetime.now(), datetime.timedelta(days=1))",  # the class and the module at once
        "print(days_until(12, 25), os.sep)",  # another undefined name: the repair request names it
        "subprocess.run(['ls'])",  # never added: processes and the network are imported by the model or not at all
        "socket.create_connection(('example.com', 80))",
        "print(date)",  # a bare member: a variable the model forgot
        "print('a'",  # does not parse: the gate says so
        # Found by a breaker: a __future__ import must stay first (and one line may hold more), and a block
        # that does not compile is told with the line numbers the model wrote.
        "from __future__ import annotations; print(os.getcwd())",
        "from __future__ import annotations\nprint(math.pi)",
        "print(os.sep)\nreturn 1",
    ],
)
def test_anything_else_is_left_as_written(written: str) -> None:
    assert add_missing_imports(written) is None


async def test_a_block_without_its_import_runs_at_once(make_agent, llm: ScriptedLLM, tmp_path) -> None:
    agent = make_agent()
    conversation_files(tmp_path, "c-import", dict.fromkeys(("a.txt", "b.txt", "c.txt"), "x"))
    written = "print('You have', len(os.listdir('.')), 'files.')"
    llm.script(code(written), "This reply must never be requested.")
    reply = await agent.ask("how many files do I have", "c-import", profile="default")
    assert reply.answer == "You have 3 files."
    assert reply.retries == 0 and len(llm.requests) == 1
    completed = "import os\n" + written
    assert audited(agent, "c-import") == [("allow", completed)]
    assert [b.code for b in reply.code_blocks] == [completed]
    # The history holds the block as it ran: the model's next turn sees code with its import.
    llm.script(code("print('ok')"))
    await agent.ask("thanks", "c-import", profile="default")
    history = " ".join(str(m.get("content")) for m in llm.requests[0]["messages"])
    assert completed in history


async def test_a_completed_block_that_deletes_is_still_asked_about(make_agent, llm: ScriptedLLM, tmp_path) -> None:
    agent = make_agent()
    folder = conversation_files(tmp_path, "c-import-rm", {"old.txt": "keep me until yes"})
    llm.script(code("os.remove('old.txt')\nprint('Deleted old.txt.')"))
    reply = await agent.ask("delete old.txt", "c-import-rm", profile="default")
    assert reply.continue_conversation and reply.answer.endswith("Shall I?"), reply.answer
    assert "old.txt" in reply.answer and (folder / "old.txt").exists()
    [held] = reply.code_blocks
    assert held.decision == "confirm" and held.code.startswith("import os\n")
    reply = await agent.ask("yes", "c-import-rm", profile="default")
    assert not (folder / "old.txt").exists() and "old.txt" in reply.answer
    assert [d for d, _ in audited(agent, "c-import-rm")][-1] == "allow"


async def test_a_process_module_is_not_added(make_agent, llm: ScriptedLLM, tmp_path) -> None:
    agent = make_agent()
    llm.script(code("subprocess.run(['touch', 'made.txt'])"), code("print('no')"))
    reply = await agent.ask("make a file by running touch", "c-import-proc", profile="default")
    first = reply.code_blocks[0]
    assert first.decision == INVALID and "'subprocess' is not defined" in first.reason
    assert not (conversation_files(tmp_path, "c-import-proc") / "made.txt").exists()
