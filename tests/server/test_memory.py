"""Conversation memory that never breaks: trimming by the model's tokenizer, failed turns leave no trace.

Real Open Interpreter and sandbox, scripted LLM (its requests are what the model would have been sent).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from o1_server.agent.backend import TokenCounter, fit_history, message_text, turn_starts
from o1_server.agent.types import AgentError
from tests.support.scripted_llm import ScriptedLLM


def code(src: str) -> str:
    return f"```python\n{src}\n```"


def request_tokens(request: dict, counter: TokenCounter) -> int:
    """Tokens of everything a chat request sends (with the per-message overhead the trimming assumes)."""
    return sum(counter.count(m["content"] if isinstance(m["content"], str) else json.dumps(m["content"])) + 8
               for m in request["messages"])


async def test_long_turns_are_trimmed_and_the_conversation_keeps_working(make_agent, llm: ScriptedLLM) -> None:
    context, max_tokens = 1024, 64
    agent = make_agent(context=context, max_tokens=max_tokens)
    counter = TokenCounter("openai/scripted")
    for turn in range(8):
        # Each turn prints 450 characters of varied words (~100+ tokens) and answers in a long sentence.
        llm.script(code(f"print(' '.join('word{turn}x' + str(i) for i in range(50)))"),
                   f"Turn {turn} is done and here is a fairly long sentence to take up room in the history.")
        reply = await agent.ask(f"Question number {turn}: please print a lot of words.", "conv-long")
        assert reply.answer.startswith(f"Turn {turn} is done"), reply
        for request in llm.requests:
            # Everything sent fits the window with room for the reply.
            assert request_tokens(request, counter) <= context - max_tokens, request_tokens(request, counter)
        sent = " ".join(str(m["content"]) for m in llm.requests[0]["messages"])
        assert f"Question number {turn}" in sent  # the new question is always there
    # The oldest turns were dropped, whole: no answer without its question.
    first = " ".join(str(m["content"]) for m in llm.requests[0]["messages"])
    assert "Question number 0" not in first and "Turn 0 is done" not in first
    saved = agent.conversation("conv-long")
    assert len(saved["turns"]) == 8


async def test_an_empty_reply_is_an_error_and_is_not_saved(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    agent = make_agent()
    llm.script("The code word is pelican.")
    await agent.ask("Remember the code word pelican", "conv-empty")
    [session_file] = (tmp_path / "data" / "sessions").glob("conv-empty*.json")
    before = session_file.read_text()
    llm.script("")  # HTTP 200, a stream with no content at all
    with pytest.raises(AgentError) as err:
        await agent.ask("What was the code word?", "conv-empty")
    assert err.value.code == "llm_unavailable"
    assert session_file.read_text() == before
    llm.script("It was pelican.")
    reply = await agent.ask("And now?", "conv-empty")
    assert reply.answer == "It was pelican."
    sent = [m["content"] for m in llm.requests[-1]["messages"] if m["role"] == "user"]
    assert "What was the code word?" not in " ".join(map(str, sent)), "the failed turn left a question behind"


async def test_a_failed_turn_leaves_no_broken_history(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    agent = make_agent()
    llm.script("Noted.")
    await agent.ask("My name is Ada", "conv-fail")
    [session_file] = (tmp_path / "data" / "sessions").glob("conv-fail*.json")
    good = json.loads(session_file.read_text())["messages"]
    llm.script(500)
    with pytest.raises(AgentError):
        await agent.ask("What is my name?", "conv-fail")
    # In memory too: the next turn's request is the good history plus the new question only.
    llm.script("Your name is Ada.")
    reply = await agent.ask("Tell me my name", "conv-fail")
    assert reply.answer == "Your name is Ada."
    users = [str(m["content"]) for m in llm.requests[-1]["messages"] if m["role"] == "user"]
    assert users == ["My name is Ada", "Tell me my name"]
    saved = json.loads(session_file.read_text())["messages"]
    assert saved[:len(good)] == good


# ------------------------------------------------------------------ fit_history as a property
ROLE_SEQ = st.lists(st.sampled_from(["answer", "code"]), max_size=3)


@st.composite
def conversation(draw):
    """LMC messages: pinned examples, then turns (user, then code/output pairs and answers)."""
    words = st.text(alphabet="abcdefgh ", min_size=1, max_size=80)
    messages, pinned = [], draw(st.integers(0, 1)) * 4
    if pinned:
        messages += [{"role": "user", "type": "message", "content": "example question"},
                     {"role": "assistant", "type": "code", "format": "python", "content": "print(1)"},
                     {"role": "computer", "type": "console", "format": "output", "content": "1"},
                     {"role": "assistant", "type": "message", "content": "It is 1."}]
    for _ in range(draw(st.integers(0, 8))):
        messages.append({"role": "user", "type": "message", "content": draw(words)})
        for part in draw(ROLE_SEQ):
            if part == "code":
                messages.append({"role": "assistant", "type": "code", "format": "python", "content": draw(words)})
                messages.append({"role": "computer", "type": "console", "format": "output", "content": draw(words)})
            else:
                messages.append({"role": "assistant", "type": "message", "content": draw(words)})
    return messages, pinned


def cost(messages: list[dict]) -> int:
    return sum(len(message_text(m)) + 8 for m in messages)


@settings(max_examples=300, deadline=None)
@given(conversation(), st.integers(40, 1500))
def test_trimming_keeps_examples_and_the_newest_whole_turns(conv, budget: int) -> None:
    messages, pinned = conv
    kept = fit_history(messages, budget, len, pinned)
    assert kept[:pinned] == messages[:pinned]
    rest = kept[pinned:]
    if rest:
        assert rest[0]["role"] == "user"  # whole turns only: never an answer without its question
    starts = turn_starts(messages, pinned)
    untouched = [m for m in rest if m in messages]
    if untouched == rest and rest:
        # A suffix of whole turns, the newest ones.
        assert messages[-len(rest):] == rest
        if cost(messages[:pinned]) <= budget:
            assert cost(kept) <= budget or len(turn_starts(rest)) == 1
    if cost(messages) <= budget:
        assert kept == messages[:pinned] + messages[starts[0]:] if starts else kept == messages[:pinned]


def test_tokens_are_counted_by_the_model_server_with_a_safe_fallback() -> None:
    """The embedded server's own tokenizer is asked (llama_cpp.server's /extras/tokenize/count shape); when it
    cannot answer, counting still works (LiteLLM's tokenizer, else a generous estimate)."""
    import http.server
    import threading

    asked: list[str] = []

    class Counter(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            asked.append(body["input"])
            reply = json.dumps({"count": 1000 + len(body["input"])}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Counter)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        counter = TokenCounter("openai/qwen", f"http://127.0.0.1:{server.server_port}/extras/tokenize/count")
        assert counter.count("hello there") == 1011 and counter.count("hello there") == 1011
        assert asked == ["hello there"]  # remembered, not asked twice
    finally:
        server.shutdown()
        server.server_close()
    down = TokenCounter("openai/qwen", f"http://127.0.0.1:{server.server_port}/extras/tokenize/count", timeout=2)
    assert 1 <= down.count("hello there, how are you") <= 24
    assert down.count("") == 0
