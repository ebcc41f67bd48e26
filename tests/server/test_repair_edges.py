"""The edges of the repair hints and of the fresh request of a repeated repair (a reviewer's attempts to break
them): dates beside numbers and in file names, names with brackets or a machine's mime types, quoted files
behind links, FIFOs and hidden names, and the history after a fresh request (trimmed, failed, bounded by the
profile's retries, never the worked examples).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from o1_server.agent.repair import (
    REPEATED,
    dates_in,
    fresh_request,
    pattern_hint,
    quotes_file,
    repair_request,
)
from o1_server.agent.sandbox import conversation_dir
from o1_server.agent.types import CodeBlock
from tests.server.conftest import conversation_files
from tests.support.scripted_llm import ScriptedLLM


def code(src: str, language: str = "python") -> str:
    return f"```{language}\n{src}\n```"


def sent(llm: ScriptedLLM, n: int) -> list[str]:
    return [str(m.get("content")) for m in llm.requests[n]["messages"]]


def missing(name: str) -> str:
    return f"FileNotFoundError: [Errno 2] No such file or directory: '{name}'"


def failed_request(folder: Path, src: str, error: str, text: str = "what was the average high") -> str:
    block = CodeBlock("python", src, exit_status=1, output=f"Traceback (most recent call last):\n{error}")
    message = repair_request([block], text, False, lambda: False, folder=folder)
    assert message is not None
    return message


RETRIES_PROFILE = """
name: r
languages: [python, shell]
llm: {{model: inherit, context_window: {context}, max_tokens: 64}}
policy: {{}}
answer_from: output
limits: {{seconds_per_block: 5, blocks_per_turn: 1, seconds_per_turn: 60, output_chars: 2000, retries_per_turn: {retries}}}
"""


def history(agent, cid: str, profile: str) -> list[dict]:
    """The conversation's stored messages (LMC), worked examples included."""
    return agent.sessions.get(cid, agent.profile(profile), "local").backend.messages


def users(messages: list[dict]) -> list[str]:
    return [str(m["content"]) for m in messages if m.get("role") == "user" and m.get("type") == "message"]


def retries_profile(tmp_path: Path, retries: int, context: int = 8192, examples: str = "") -> None:
    """A profile "r" with ``retries_per_turn`` (make_agent loads every profile in tmp_path/profiles)."""
    folder = tmp_path / "profiles"
    folder.mkdir(exist_ok=True)
    (folder / "r.yaml").write_text(RETRIES_PROFILE.format(retries=retries, context=context) + examples)


# ------------------------------------------------------------------------------ dates_in + _TEXT_OPERAND


TEMPS = "day,high,low\n2026-11-24,7.5,1.0\n2026-11-25,8.0,2.5\n"
ROWS = "import csv\nrows = list(csv.DictReader(open('temps.csv')))\n"
SALES = json.dumps([{"item": "tea", "price": "2.50"}])


@pytest.mark.parametrize(
    ("name", "data", "src", "error", "question"),
    [
        # csv gives every cell as text: summing "high" fails on "7.5", not on the "day" column's date.
        ("temps.csv", TEMPS, ROWS + "print(sum(r['high'] for r in rows) / len(rows))",
         "TypeError: unsupported operand type(s) for +: 'int' and 'str'", "what was the average high"),
        ("temps.csv", TEMPS, ROWS + "print([r['day'] for r in rows if r['high'] > 7])",
         "TypeError: '>' not supported between instances of 'str' and 'int'", "which days were above 7"),
        # A date in the file's name is not a date in its data.
        ("sales-2026-01-15.json", SALES, "import json\nprint(1 + json.load(open('sales-2026-01-15.json'))[0]['price'])",
         "TypeError: unsupported operand type(s) for +: 'int' and 'str'", "one plus the first price"),
    ],
)
def test_numbers_beside_dates_or_a_dated_name_are_not_told_strptime(
    tmp_path: Path, name: str, data: str, src: str, error: str, question: str
) -> None:
    (tmp_path / name).write_text(data)
    message = failed_request(tmp_path, src, error, question)
    assert "strptime" not in message, message


def test_a_real_date_column_still_gets_the_date_hint(tmp_path: Path) -> None:
    (tmp_path / "family.json").write_text(json.dumps([{"name": "Ana", "born": "2015-03-02"}]))
    src = "import json\nprint(2026 - json.load(open('family.json'))[0]['born'])"
    message = failed_request(
        tmp_path, src, "TypeError: unsupported operand type(s) for -: 'int' and 'str'", "how old is Ana"
    )
    assert "strptime(value, '%Y-%m-%d')" in message


@pytest.mark.parametrize("name", ["Photo [2024].jpg", "notes/Week [12].txt", "song [remix].mp3"])
def test_a_real_name_with_brackets_is_not_called_a_pattern(name: str) -> None:
    """Square brackets are common in real file names; glob.glob('Photo [2024].jpg') matches "Photo 2.jpg",
    never the file named."""
    assert pattern_hint(missing(name)) == ""


@pytest.mark.parametrize("name", [".cache", "/config/.cache", ".bak", ".info"])
def test_a_hidden_name_is_not_a_pattern_whatever_mime_types_says(name: str) -> None:
    """``.cache`` is a real folder (XDG); /etc/mime.types maps .cache to chemical/x-cache, so the hint
    depends on the machine's mime.types, and calls a real hidden folder a pattern."""
    assert pattern_hint(missing(name)) == ""


def test_a_name_with_a_quote_gets_no_broken_hint() -> None:
    # Python writes a name holding ' between double quotes: no hint, and none with an unbalanced quote.
    assert pattern_hint('FileNotFoundError: [Errno 2] No such file or directory: "it\'s *.txt"') == ""


# ------------------------------------------------------------------------------------------ quotes_file


LINE = "recoger el paquete en correos"


def test_quotes_file_never_follows_a_symlink_or_a_hard_link(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(LINE + "\n")
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "link.txt").symlink_to(outside / "secret.txt")
    os.link(outside / "secret.txt", folder / "hard.txt")
    (folder / "sub").symlink_to(outside, target_is_directory=True)
    assert not quotes_file(LINE, "", folder, ["link.txt", "hard.txt", "sub/secret.txt", "../outside/secret.txt"])


def test_quotes_file_does_not_block_on_a_fifo_or_read_binary_or_a_subfolder(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.txt")
    (tmp_path / "bin.dat").write_bytes(LINE.encode() + b"\0\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.txt").write_text(LINE + "\n")
    assert not quotes_file(LINE, "", tmp_path, ["pipe.txt", "bin.dat", "sub/a.txt"])


def test_quotes_file_in_a_folder_that_is_a_symlink_reads_nothing(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (real / "a.txt").write_text(LINE + "\n")
    (tmp_path / "alias").symlink_to(real, target_is_directory=True)
    assert not quotes_file(LINE, "", tmp_path / "alias", ["a.txt"])


def test_quotes_file_ignores_hidden_files(tmp_path: Path) -> None:
    """The folder prompt and the data samples never describe hidden files (``sample``); quotes_file reads
    them (".bash_history" copied into the folder) to judge what a block printed."""
    (tmp_path / ".bash_history").write_text("ssh admin@192.168.1.10\n")
    assert not quotes_file("ssh admin@192.168.1.10", "", tmp_path, [".bash_history"])


def test_an_action_naming_a_line_of_its_list_is_still_told_to_act(tmp_path: Path) -> None:
    """"add call the dentist to my todo list" answered by a print: the printed item is in the question
    (and, recurring, already in todo.txt). quotes_file makes it a "guess" and the model is told to compute
    an answer "from the numbers in the question" instead of appending to the list."""
    text = "add call the dentist to my todo list"
    block = CodeBlock("python", 'print("Added call the dentist to your todo list.")', exit_status=0,
                      output="Added call the dentist to your todo list.\n")
    without = repair_request([block], text, False, lambda: False, lambda: ["todo.txt"], folder=tmp_path)
    (tmp_path / "todo.txt").write_text("call the dentist\n")
    with_line = repair_request([block], text, False, lambda: False, lambda: ["todo.txt"], folder=tmp_path)
    if without is not None:
        assert with_line == without, with_line
    assert with_line is None or "append it as one line" in with_line, with_line


# ------------------------------------------------------------------------------ fresh_request + history


def test_fresh_request_without_the_question_keeps_the_history() -> None:
    messages = [
        {"role": "user", "type": "message", "content": "earlier"},
        {"role": "assistant", "type": "message", "content": "answer"},
        {"role": "user", "type": "message", "content": "Your code failed: X."},
    ]
    copy = json.loads(json.dumps(messages))
    fresh = fresh_request(messages, "the question", "Your code failed: X.")
    assert messages == copy and fresh.startswith("the question\n\n(")


async def test_a_question_asked_twice_keeps_the_earlier_turn(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent()
    llm.script(code("print(2 + 2)"))
    await agent.ask("what is two plus two", "c-twice", profile="default")
    broken = code("print(1 / 0)")
    llm.script(broken, broken, code("print('No value.')"))
    reply = await agent.ask("what is two plus two", "c-twice", profile="default")
    assert reply.retries == 2 and "No value." in reply.answer
    llm.script(code("print('ok')"))
    await agent.ask("and now?", "c-twice", profile="default")
    stored = history(agent, "c-twice", "default")
    assert users(stored)[-3:] == ["what is 2 plus 2", "what is 2 plus 2", "and now?"], users(stored)
    text = json.dumps(stored)
    assert "2 + 2" in text and REPEATED not in text and "1 / 0" not in text and "Your code failed" not in text


async def test_an_llm_error_after_the_fresh_request_leaves_no_trace(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent()
    llm.script(code("print(2 + 2)"))
    await agent.ask("what is two plus two", "c-err", profile="default")
    broken = code("print(1 / 0)")
    llm.script(broken, broken, 500)
    reply = await agent.ask("what is one divided by zero", "c-err", profile="default")
    assert "division by zero" in reply.answer, reply.answer
    assert REPEATED in sent(llm, 2)[-1]
    llm.script(code("print('ok')"))
    await agent.ask("and now?", "c-err", profile="default")
    stored = history(agent, "c-err", "default")
    assert users(stored)[-2:] == ["what is 2 plus 2", "and now?"], users(stored)  # nothing of the failed turn
    assert REPEATED not in json.dumps(stored) and "1 / 0" not in json.dumps(stored)


@pytest.mark.parametrize(
    "replies",
    [
        # failure, repeat, fresh repeats
        [code("print(1 / 0)")] * 6,
        # soft (canned), repeat, fresh repeats
        [code('print("3 gallons are about 1.056 liters")')] * 6,
        # failure, repeat, fresh fails otherwise
        [code("print(1 / 0)"), code("print(1 / 0)"), code("print(undefined_name)"), code("print(2 / 0)")],
        # canned, repeat, fresh fails
        [code('print("3 gallons are about 1.056 liters")')] * 2 + [code("print(1 / 0)")] * 3,
    ],
)
async def test_no_turn_sends_more_requests_than_retries_allow(make_agent, llm: ScriptedLLM, replies) -> None:
    agent = make_agent()
    llm.script(*replies)
    reply = await agent.ask("how many liters are three gallons", "c-loop", profile="default")
    assert len(llm.requests) <= 3 and reply.retries <= 2, (len(llm.requests), reply.retries)


@pytest.mark.parametrize("retries", [1, 3, 4])
async def test_retries_bound_the_fresh_request_too(make_agent, llm: ScriptedLLM, tmp_path: Path, retries) -> None:
    retries_profile(tmp_path, retries)
    agent = make_agent()
    broken = code("print(1 / 0)")
    llm.script(broken, broken, code("print(undefined_name)"), code("print(undefined_name)"), broken, broken, broken)
    reply = await agent.ask("what is one divided by zero", "c-bound", profile="r")
    assert len(llm.requests) <= retries + 1 and reply.retries <= retries
    llm.script(code("print('ok')"))
    await agent.ask("and now?", "c-bound", profile="r")
    text = json.dumps(history(agent, "c-bound", "r"))
    assert REPEATED not in text and "Your code failed" not in text


async def test_a_repair_after_the_fresh_request_leaves_a_clean_history(
    make_agent, llm: ScriptedLLM, tmp_path: Path
) -> None:
    retries_profile(tmp_path, 3)
    agent = make_agent()
    broken = code("print(1 / 0)")
    llm.script(broken, broken, code("print(undefined_name)"), code("print('No value.')"))
    reply = await agent.ask("what is one divided by zero", "c-after", profile="r")
    assert "No value." in reply.answer and reply.retries == 3, reply.answer
    llm.script(code("print('ok')"))
    await agent.ask("and now?", "c-after", profile="r")
    stored = history(agent, "c-after", "r")
    assert users(stored) == ["what is 1 divided by 0", "and now?"], users(stored)
    assert "undefined_name" not in json.dumps(stored) and "1 / 0" not in json.dumps(stored)


async def test_a_trimmed_question_leaves_no_repair_request_in_the_history(
    make_agent, llm: ScriptedLLM, tmp_path: Path
) -> None:
    """A small context window drops the turn's question (a "turn" to fit_history: up to the next user
    message, a repair request) before the repeat: fresh_request finds nothing to drop, the fresh message is
    renamed to the question, and drop_repaired no longer finds the repair it ends on."""
    retries_profile(tmp_path, 3, context=1400)
    agent = make_agent()
    big = code("print('x' * 1900)\nprint(1 / 0)")
    llm.script(code("print('y' * 1900)\nprint(1 / 0)"), big, big, code("print('No value.')"))
    reply = await agent.ask("what is one divided by zero", "c-trim", profile="r")
    llm.script(code("print('ok')"))
    await agent.ask("and now?", "c-trim", profile="r")
    said = users(history(agent, "c-trim", "r"))
    assert not any(u.startswith("Your code failed") or REPEATED in u for u in said), (reply.retries, said)


EXAMPLE = """examples:
  - question: what is 1 divided by 0
    code: print("no value")
    output: no value
    answer: It has no value.
"""


async def test_a_question_equal_to_a_worked_example_never_drops_the_examples(
    make_agent, llm: ScriptedLLM, tmp_path: Path
) -> None:
    """The examples are pinned (never trimmed). When the context window trimmed the turn's own question,
    fresh_request's search for the question goes on to the pinned example that reads the same, and deletes
    from there: the examples are lost for the rest of the conversation."""
    retries_profile(tmp_path, 3, context=1400, examples=EXAMPLE)
    agent = make_agent()
    big = code("print('x' * 1900)\nprint(1 / 0)")
    llm.script(code("print('y' * 1900)\nprint(1 / 0)"), big, big, code("print('No value.')"))
    await agent.ask("what is one divided by zero", "c-pinned", profile="r")
    llm.script(code("print('ok')"))
    await agent.ask("and now?", "c-pinned", profile="r")
    stored = history(agent, "c-pinned", "r")
    assert stored[:4] == agent.profile("r").example_messages(), "the worked example was deleted"
