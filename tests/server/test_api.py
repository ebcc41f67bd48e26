"""The HTTP API over real TCP on 127.0.0.1: auth, validation, errors and a real agent turn."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable

import aiohttp
import pytest
from aiohttp import web

from o1_server.api import build_app
from tests.support.scripted_llm import ScriptedLLM

TOKEN = "test-token"
SERVER_ID = "5e7f0c1d2b3a49f8a6e5d4c3b2a19080"


@pytest.fixture
async def api(make_agent) -> AsyncIterator[str]:
    """Serve the API of a real agent on a free port; yield its base URL."""
    runner = web.AppRunner(build_app(make_agent(), TOKEN, "9.9.9", SERVER_ID))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    yield f"http://127.0.0.1:{runner.addresses[0][1]}"
    await runner.cleanup()


async def call(method: str, url: str, token: str | None = TOKEN, **kwargs) -> tuple[int, object]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with aiohttp.ClientSession() as http, http.request(method, url, headers=headers, **kwargs) as r:
        body = await r.json() if r.content_type == "application/json" else await r.text()
        return r.status, body


async def test_health_needs_no_token(api: str) -> None:
    from o1_server.agent.sandbox import describe_isolation

    assert await call("GET", f"{api}/api/health", token=None) == (
        200, {"status": "ok", "version": "9.9.9", "server_id": SERVER_ID,
              "sandbox": describe_isolation()["mode"]})


@pytest.mark.parametrize("token", [None, "wrong", ""])
async def test_everything_else_needs_the_token(api: str, token: str | None) -> None:
    status, body = await call("GET", f"{api}/api/info", token=token)
    assert status == 401 and body["error"] == "invalid_auth"


async def test_info_lists_the_shipped_profiles(api: str) -> None:
    status, body = await call("GET", f"{api}/api/info")
    assert status == 200
    names = {p["name"] for p in body["profiles"]}
    assert {"default", "safe", "home", "power", "t"} <= names
    assert body["default_profile"] == "t" and body["api_version"] == 1
    assert body["sandbox"]["mode"] in ("bubblewrap", "rlimits") and isinstance(body["sandbox"]["missing"], list)
    assert body["server_id"] == SERVER_ID


@pytest.mark.parametrize(
    "payload",
    [b"not json", b"[1,2]", b'{"text": ""}', b'{"text": 5}', b'{"text": "hi", "profile": 3}',
     b'{"text": "\\ud800 lone surrogate"}', b'{"text": "hi", "conversation_id": "\\udfff"}'],
)
async def test_bad_requests_get_400(api: str, payload: bytes) -> None:
    status, body = await call("POST", f"{api}/api/conversation", data=payload)
    assert status == 400 and body["error"] == "invalid_request" and body["message"]


async def test_unknown_profile_gets_404(api: str) -> None:
    status, body = await call("POST", f"{api}/api/conversation", json={"text": "hi", "profile": "ghost"})
    assert status == 404 and body["error"] == "unknown_profile" and "ghost" in body["message"]


async def test_a_turn_and_its_record(api: str, llm: ScriptedLLM) -> None:
    llm.script("```python\nprint(6 * 7)\n```", "Six times seven is 42.")
    status, body = await call("POST", f"{api}/api/conversation", json={"text": "6 times 7?", "conversation_id": "c1"})
    assert status == 200, body
    assert body["answer"] == "Six times seven is 42."
    assert body["code_blocks"][0]["output"] == "42" and body["code_blocks"][0]["exit_status"] == 0
    status, record = await call("GET", f"{api}/api/conversation/c1")
    assert status == 200 and record["turns"][0]["code_blocks"][0]["code"] == "print(6 * 7)"
    status, audit = await call("GET", f"{api}/api/audit?conversation_id=c1")
    assert status == 200 and audit["records"][0]["decision"] == "allow"
    assert (await call("DELETE", f"{api}/api/conversation/c1"))[0] == 204
    assert (await call("GET", f"{api}/api/conversation/c1"))[0] == 404


async def test_health_answers_while_disk_work_is_under_way(make_agent, llm: ScriptedLLM) -> None:
    """The disk work of a request (starting a conversation: its folder and uid, which scans every
    other conversation's folder; reading or deleting a conversation; reading the audit log) runs off the event
    loop, so ``/api/health`` answers while it is under way. Each is held mid-way below until the health answer
    has come: held on the event loop, it would never see that answer and the request would fail."""
    agent = make_agent()
    runner = web.AppRunner(build_app(agent, TOKEN, "9.9.9", SERVER_ID))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    api = f"http://127.0.0.1:{runner.addresses[0][1]}"

    def held(fn: Callable, entered: threading.Event, release: threading.Event) -> Callable:
        def wrapper(*args, **kwargs):
            entered.set()
            if not release.wait(30):
                raise AssertionError(f"{fn.__name__} ran on the event loop: /api/health could not answer")
            return fn(*args, **kwargs)
        return wrapper

    async def while_held(owner: object, name: str, method: str, path: str, **kwargs) -> tuple[int, object]:
        entered, release = threading.Event(), threading.Event()
        original = getattr(owner, name)
        setattr(owner, name, held(original, entered, release))
        try:
            request = asyncio.create_task(call(method, f"{api}{path}", **kwargs))
            assert await asyncio.to_thread(entered.wait, 30), f"{name} was not called"
            assert (await call("GET", f"{api}/api/health", token=None))[0] == 200
            release.set()
            return await request
        finally:
            release.set()
            setattr(owner, name, original)

    try:
        llm.script("Hello.")
        status, body = await while_held(agent.sessions, "get", "POST", "/api/conversation",
                                        json={"text": "hi", "conversation_id": "c1"})
        assert status == 200 and body["answer"] == "Hello.", body
        status, body = await while_held(agent.sessions, "find", "GET", "/api/conversation/c1")
        assert status == 200 and body["turns"], body
        status, body = await while_held(agent.audit, "read", "GET", "/api/audit?conversation_id=c1")
        assert status == 200 and body == {"records": []}
        assert (await while_held(agent.sessions, "reset", "DELETE", "/api/conversation/c1"))[0] == 204
        assert (await call("GET", f"{api}/api/conversation/c1"))[0] == 404
    finally:
        await runner.cleanup()


async def test_llm_failure_is_502_with_a_sentence(api: str, llm: ScriptedLLM) -> None:
    llm.script(500, 500, 500, 500)
    status, body = await call("POST", f"{api}/api/conversation", json={"text": "hi"})
    assert status == 502 and body["error"] == "llm_unavailable" and body["message"].endswith(".")


async def stream_events(url: str, payload: dict) -> tuple[int, list[dict]]:
    """POST to the streaming endpoint; return the status and the NDJSON events."""
    import json

    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with aiohttp.ClientSession() as http, http.post(url, json=payload, headers=headers) as r:
        if r.content_type == "application/json":
            return r.status, [await r.json()]
        assert r.content_type == "application/x-ndjson"
        return r.status, [json.loads(line) async for line in r.content if line.strip()]


async def test_streamed_turn_sends_sentences_code_and_done(api: str, llm: ScriptedLLM) -> None:
    llm.script("Let me work that out. ```python\nprint(6 * 7)\n```", "It is 42. Anything else?")
    status, events = await stream_events(f"{api}/api/conversation/stream", {"text": "6 times 7?"})
    assert status == 200
    kinds = [e["type"] for e in events]
    assert kinds[-1] == "done" and "code" in kinds
    deltas = "".join(e["text"] for e in events if e["type"] == "delta")
    reply = events[-1]["reply"]
    assert deltas == reply["answer"] == "Let me work that out. It is 42. Anything else?"
    # The first sentence was sent before the code ran.
    assert kinds.index("delta") < kinds.index("code")
    assert [e["block"]["output"] for e in events if e["type"] == "code"] == ["42"]


async def test_streamed_turn_errors(api: str, llm: ScriptedLLM) -> None:
    status, [body] = await stream_events(f"{api}/api/conversation/stream", {"text": "hi", "profile": "ghost"})
    assert status == 404 and body["error"] == "unknown_profile"
    # A failure before anything was said is an HTTP error ...
    llm.script(500)
    status, events = await stream_events(f"{api}/api/conversation/stream", {"text": "hi"})
    [body] = events
    assert status == 502 and body["error"] == "llm_unavailable"
    # ... but once code ran, a failing follow-up request loses nothing: the answer is the code's output.
    llm.script("Let me check. ```python\nprint(6 * 7)\n```", 500)
    status, events = await stream_events(f"{api}/api/conversation/stream", {"text": "hi"})
    assert status == 200
    assert events[0] == {"type": "delta", "text": "Let me check."}
    assert events[-1]["type"] == "done" and "42" in events[-1]["reply"]["answer"], events


async def test_cancel_stops_a_running_turn(api: str, llm: ScriptedLLM) -> None:
    import asyncio

    llm.script("Thinking about it. ```python\nimport time\ntime.sleep(3)\nprint('slow')\n```",
               "Still thinking, and thinking more. " * 20)
    turn = asyncio.ensure_future(call("POST", f"{api}/api/conversation", json={"text": "slow", "conversation_id": "cx"}))
    for _ in range(100):  # wait until the LLM was asked, then a moment for the code block to start
        await asyncio.sleep(0.1)
        if llm.requests:
            await asyncio.sleep(1.0)
            break
    assert (await call("POST", f"{api}/api/conversation/cx/cancel"))[0] == 204
    status, body = await asyncio.wait_for(turn, 120)
    assert status == 200
    # The running code block was killed, and the model was not asked for more.
    assert body["code_blocks"][0]["exit_status"] == -9
    assert "cancelled" in body["code_blocks"][0]["output"] and "slow" not in body["code_blocks"][0]["output"]
    assert "Still thinking" not in body["answer"]
    assert (await call("POST", f"{api}/api/conversation/nope/cancel"))[0] == 404
