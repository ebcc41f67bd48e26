"""The ``o1-qwen-tools`` chat handler: Qwen's ``<tool_call>`` replies as OpenAI ``tool_calls``, null contents
accepted; and the real embedded model through the real llama_cpp.server the o1 server starts."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import pytest

from o1_server.chat_handler import drop_null_contents, normalize_messages, parse_tool_calls, prefill_of
from o1_server.llm import EmbeddedLLM, embedded_model_path

NAMES = {"o1_run"}
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "o1_run",
            "description": "Ask o1 to do or answer something by running code in its sandbox.",
            "parameters": {
                "type": "object",
                "properties": {"request": {"type": "string", "description": "What o1 should do"}},
                "required": ["request"],
            },
        },
    }
]


def test_tool_call_blocks_become_tool_calls() -> None:
    text = 'Let me check.\n<tool_call>\n{"name": "o1_run", "arguments": {"request": "count files"}}\n</tool_call>'
    content, calls = parse_tool_calls(text, NAMES)
    assert content == "Let me check."
    assert [(c["type"], c["function"]["name"], json.loads(c["function"]["arguments"])) for c in calls] == [
        ("function", "o1_run", {"request": "count files"})
    ]
    # Left open by the stop token, or the whole reply a bare (fenced) JSON call: still a call.
    assert parse_tool_calls('<tool_call>\n{"name": "o1_run", "arguments": {}}', NAMES)[0] is None
    _, fenced = parse_tool_calls('```json\n{"name": "o1_run", "arguments": {"request": "x"}}\n```', NAMES)
    assert json.loads(fenced[0]["function"]["arguments"]) == {"request": "x"}


def test_what_is_not_a_call_of_an_offered_tool_stays_text() -> None:
    for text in (
        '<tool_call>{"name": "rm_rf", "arguments": {}}</tool_call>',
        "<tool_call>not json</tool_call>",
        '{"name": "o1_run", "arguments": "not json"}',
        "The answer is 42.",
    ):
        assert parse_tool_calls(text, NAMES) == (text, [])


def test_messages_are_made_fit_for_the_template() -> None:
    call = {"id": "c1", "type": "function", "function": {"name": "o1_run", "arguments": '{"request": "x"}'}}
    messages = [{"role": "assistant", "content": None, "tool_calls": [call]}, {"role": "tool", "content": "{}"}]
    assert normalize_messages(messages) == [
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [{**call, "function": {"name": "o1_run", "arguments": {"request": "x"}}}],
        },
        {"role": "tool", "content": "{}"},
    ]
    assert messages[0]["content"] is None  # the caller's messages are left alone


def test_null_assistant_contents_are_dropped_before_the_schema() -> None:
    body = {"messages": [{"role": "assistant", "content": None, "tool_calls": []}, {"role": "tool", "content": None}]}
    assert json.loads(drop_null_contents(json.dumps(body).encode()))["messages"] == [
        {"role": "assistant", "tool_calls": []},
        {"role": "tool", "content": None},  # the tool message's schema takes null
    ]
    for raw in (b"not json", b"[1]", b'{"prompt": "x"}'):
        assert drop_null_contents(raw) == raw


def test_only_the_assistants_own_last_text_is_a_prefill() -> None:
    user = {"role": "user", "content": "What is 6 times 7?"}
    assert prefill_of([user, {"role": "assistant", "content": "```python\n"}]) == "```python\n"
    assert prefill_of([user]) is None
    assert prefill_of([]) is None
    assert prefill_of([{"role": "assistant", "content": "```python\n"}]) is None  # nothing before it to render
    assert prefill_of([user, {"role": "assistant", "content": ""}]) is None
    assert prefill_of([user, {"role": "assistant", "content": None, "tool_calls": [{"id": "c"}]}]) is None
    assert prefill_of([user, {"role": "assistant", "content": "I'll check.", "tool_calls": [{"id": "c"}]}]) is None
    assert prefill_of([user, {"role": "tool", "tool_call_id": "c", "content": "42"}]) is None


def _have_model() -> bool:
    try:
        embedded_model_path()
    except FileNotFoundError:
        return False
    return True


async def _chat(llm: EmbeddedLLM, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    async with (
        aiohttp.ClientSession(headers=llm.headers) as http,
        http.post(f"{llm.api_base}/chat/completions", json=body, timeout=aiohttp.ClientTimeout(total=240)) as r,
    ):
        return r.status, await r.json()


@pytest.mark.skipif(not _have_model(), reason="the embedded model is not assembled (script/bootstrap models)")
def test_the_embedded_model_calls_tools_through_its_endpoint() -> None:
    """What HA's LiteLLM agent sends: tools, then the call's result with ``content: null`` beside the call."""

    async def run() -> None:
        llm = EmbeddedLLM(threads=2, context=4096)
        await llm.start()
        try:
            messages: list[dict[str, Any]] = [
                {"role": "system", "content": "You are a voice assistant for Home Assistant. Use the tools."},
                {"role": "user", "content": "How many files are in my drafts folder?"},
            ]
            body = {
                "model": llm.spec.alias,
                "messages": messages,
                "tools": TOOLS,
                "temperature": 0.01,
                "max_tokens": 96,
            }
            status, reply = await _chat(llm, body)
            assert status == 200, reply
            choice = reply["choices"][0]
            assert choice["finish_reason"] == "tool_calls", choice
            (call,) = choice["message"]["tool_calls"]
            assert call["function"]["name"] == "o1_run"
            assert isinstance(json.loads(call["function"]["arguments"])["request"], str)

            messages += [
                {"role": "assistant", "content": None, "tool_calls": [call]},
                {
                    "role": "tool",
                    "tool_call_id": call["id"],
                    "content": json.dumps({"data": {"status": "done", "answer": "There are 3 files."}, "error": False}),
                },
            ]
            status, follow = await _chat(llm, {**body, "messages": messages, "max_tokens": 48})
            assert status == 200, follow
            assert follow["choices"][0]["message"]["role"] == "assistant"

            # Without tools the GGUF's own template answers as before (what o1's own agent sends).
            status, plain = await _chat(
                llm,
                {
                    "model": llm.spec.alias,
                    "max_tokens": 16,
                    "temperature": 0.01,
                    "messages": [{"role": "user", "content": "Say hello."}],
                },
            )
            assert status == 200, plain
            assert plain["choices"][0]["message"]["content"]
            assert (
                "tool_calls" not in plain["choices"][0]["message"] or not plain["choices"][0]["message"]["tool_calls"]
            )

            # A prefilled reply (what o1's own agent sends for a profile that answers from the output): the model
            # goes on inside the given fence, and the reply is only the continuation, up to the stop.
            ask = [
                {"role": "system", "content": "Answer with one Python code block that prints the answer."},
                {"role": "user", "content": "What is 6 times 7?"},
            ]
            status, given = await _chat(
                llm,
                {
                    "model": llm.spec.alias,
                    "max_tokens": 48,
                    "temperature": 0.01,
                    "stop": ["```"],
                    "messages": [*ask, {"role": "assistant", "content": "```python\n"}],
                },
            )
            assert status == 200, given
            code = given["choices"][0]["message"]["content"]
            assert "```" not in code and "print(" in code, code
            compile(code, "<reply>", "exec")  # the continuation alone is the block: no fence, no words
        finally:
            await llm.stop()

    asyncio.run(run())
