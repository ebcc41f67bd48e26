"""Hostile bytes on every way in: JSON nested past Python's recursion limit, tokens that are not UTF-8.

Each test talks to a real ``o1-server`` process (scripted LLM) over raw sockets, HTTP, the 01 WebSocket and
Wyoming, or to the real Home Assistant broker socket, and checks what comes back: the status code and JSON error
body, the error event or frame, that the same connection still answers afterwards, and that the server logged no
traceback (an unhandled exception used to end the connection without a word, or answer HTTP 500).
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from o1_server.agent.home import Capability, HomeBroker, HomeContext, unix_address
from tests.server.test_robust import server_args, still_answers
from tests.support.o1_process import O1Process, start_o1
from tests.support.scripted_llm import ScriptedLLM

BOUND = 30  # seconds: only against hangs
DEEP = b"[" * 50_000 + b"]" * 50_000  # past json's recursion limit (about 1,000 levels)
DEEP_SMALL = b"[" * 30_000 + b"]" * 30_000  # under the 64 KiB frame cap of a socket without a token


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, scripted_llm: ScriptedLLM) -> Iterator[O1Process]:
    tmp = tmp_path_factory.mktemp("input")
    args = server_args(tmp, scripted_llm)
    # Broken profiles beside the good one: the server must start and say what is wrong with them.
    (tmp / "profiles" / "deep.yaml").write_text("name: deep\ndescription: " + "[" * 5000 + "]" * 5000 + "\n")
    (tmp / "profiles" / "bools.yaml").write_text("name: bools\nlimits: {seconds_per_turn: yes}\n")
    (tmp / "profiles" / "u-copy.yaml").write_text("name: t\ndescription: a copy\n")
    proc = start_o1(tmp / "data", *args)
    yield proc
    assert proc.stop() == 0, "\n".join(proc.log[-30:])


_seen: dict[int, int] = {}


@pytest.fixture(autouse=True)
def _log_mark(request: pytest.FixtureRequest) -> None:
    """Remember how far the server's log went before the test (``tracebacks`` reads only what came after)."""
    if "server" in request.fixturenames:
        server = request.getfixturevalue("server")
        _seen[id(server)] = len(server.log)


def tracebacks(server: O1Process) -> list[str]:
    """Tracebacks and unhandled-exception lines the server logged during this test."""
    return [line for line in server.log[_seen.get(id(server), 0):]
            if "Traceback" in line or "Unhandled exception" in line]


def raw_http(port: int, request: bytes) -> tuple[int, dict]:
    """Send raw request bytes; return (status, JSON body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=BOUND) as sock:
        sock.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            assert chunk, data
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length:")))
        while len(body) < length:
            chunk = sock.recv(65536)
            assert chunk, data
            body += chunk
    return int(head.split()[1]), json.loads(body)


# ------------------------------------------------------------------------------------------ profiles
async def test_broken_profiles_are_named_and_the_others_served(server: O1Process) -> None:
    async with aiohttp.ClientSession(headers={"Authorization": f"Bearer {server.token}"}) as http, \
            http.get(f"{server.api_url}/api/info") as r:
        info = await r.json()
    assert "t" in [p["name"] for p in info["profiles"]] and {"deep", "bools"}.isdisjoint(
        p["name"] for p in info["profiles"])
    errors = "\n".join(info["profile_errors"])
    assert "deep.yaml: (yaml): nested too deeply" in errors, errors
    assert "bools.yaml:2: limits.seconds_per_turn: expected a number" in errors, errors
    assert "u-copy.yaml: name: 't' is already defined by t.yaml" in errors, errors


# ------------------------------------------------------------------------------------------ HTTP API
@pytest.mark.parametrize("path", ["/api/conversation", "/api/conversation/stream",
                                  "/api/turns/0123/tool_results/4567"])
@pytest.mark.parametrize("body", [DEEP, b'{"text": "hi", "home": {"entities": ' + DEEP + b"}}",
                                  b'{"result": ' + b"[" * 100 + b"]" * 100 + b"}", b'{"text": "\xff\xfe"}'],
                         ids=["deep", "deep-home", "past-64-levels", "not-utf8"])
async def test_unreadable_json_is_a_400_on_every_route(server: O1Process, llm: ScriptedLLM, path: str,
                                                       body: bytes) -> None:
    headers = {"Authorization": f"Bearer {server.token}", "Content-Type": "application/json"}
    async with aiohttp.ClientSession() as http, http.post(f"{server.api_url}{path}", data=body,
                                                          headers=headers) as r:
        assert r.status == 400 and r.content_type == "application/json"
        answer = await r.json()
    assert answer["error"] == "invalid_request" and "JSON" in answer["message"], answer
    assert llm.requests == []
    assert tracebacks(server) == []
    await still_answers(server)


@pytest.mark.parametrize("header", [b"Authorization: Bearer \xff\xfe", b"Authorization: Bearer t\xe9st-token",
                                    b"Authorization: Bearer \xed\xa0\x80"])
def test_a_token_that_is_not_utf8_is_a_401(server: O1Process, header: bytes) -> None:
    request = b"GET /api/info HTTP/1.1\r\nHost: o1\r\n" + header + b"\r\nConnection: close\r\n\r\n"
    status, body = raw_http(server.api_port, request)
    assert (status, body["error"]) == (401, "invalid_auth"), body
    assert tracebacks(server) == []


# ------------------------------------------------------------------------------------------ 01 WebSocket
@pytest.mark.parametrize("how", ["X-API-KEY: \xff\xfe", "query"])
def test_01_handshake_with_a_token_that_is_not_utf8_is_a_401(server: O1Process, how: str) -> None:
    target, header = (b"/?token=%ff%ed%a0%80", b"") if how == "query" else (b"/", how.encode("latin-1") + b"\r\n")
    request = (b"GET " + target + b" HTTP/1.1\r\nHost: o1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               b"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" + header + b"\r\n")
    status, body = raw_http(server.api_port, request)
    assert (status, body["error"]) == (401, "invalid_auth"), body
    assert tracebacks(server) == []


async def next_json(ws: aiohttp.ClientWebSocketResponse) -> dict:
    msg = await ws.receive(timeout=BOUND)
    assert msg.type == aiohttp.WSMsgType.TEXT, (msg.type, msg.data)
    return json.loads(msg.data)


async def test_01_odd_frames_get_errors_and_the_socket_survives(server: O1Process) -> None:
    """Without a token: a deep frame and a surrogate token are refused in words, then the real token works;
    with it: a deep frame gets ``invalid_json`` and a typed turn is still answered (the same for a socket that
    gave its token in the handshake, whose frames may be a whole utterance long)."""
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(f"{server.api_url}/") as ws:
            await ws.send_str(DEEP_SMALL.decode())
            assert (await next_json(ws))["code"] == "invalid_json"
            await ws.send_str('{"auth": "\\ud800"}')
            assert await next_json(ws) == {"auth": False}
            assert (await next_json(ws))["code"] == "invalid_auth"
            await ws.send_str(json.dumps({"auth": server.token}))
            assert await next_json(ws) == {"auth": True}
            await ws.send_str(DEEP_SMALL.decode())
            assert (await next_json(ws))["code"] == "invalid_json"
            await ws.send_str(json.dumps({"role": "user", "type": "message", "content": "hello"}))
            frames = [await next_json(ws)]
            while frames[-1] != {"role": "server", "type": "status", "content": "complete"}:
                msg = await ws.receive(timeout=BOUND)  # text frames, and the spoken answer's binary frames
                assert msg.type in (aiohttp.WSMsgType.TEXT, aiohttp.WSMsgType.BINARY), msg
                if msg.type == aiohttp.WSMsgType.TEXT:
                    frames.append(json.loads(msg.data))
            answer = next(f for f in frames if f.get("type") == "message")
            assert answer["role"] == "assistant" and answer["content"], frames
        async with http.ws_connect(f"{server.api_url}/?token={server.token}") as ws:
            await ws.send_str(DEEP.decode())
            assert (await next_json(ws))["code"] == "invalid_json"
            await ws.send_str('{"auth": "\\udfff"}')
            assert await next_json(ws) == {"auth": True}  # already in: acknowledged, as Open Interpreter does
    assert tracebacks(server) == []


# ------------------------------------------------------------------------------------------ Wyoming
async def wyoming_exchange(server: O1Process, data: bytes) -> list[dict]:
    """Send ``data`` then a ping on one connection; return the event headers up to the pong."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.wyoming_port)
    writer.write(data + b'{"type": "ping", "data": {"text": "still here"}}\n')
    await writer.drain()
    events = []
    async with asyncio.timeout(BOUND):
        while True:
            line = await reader.readline()
            assert line, f"connection closed after {events}"
            event = json.loads(line)
            if event.get("data_length"):
                event.setdefault("data", {}).update(json.loads(await reader.readexactly(event["data_length"])))
            if event.get("payload_length"):
                await reader.readexactly(event["payload_length"])
            events.append(event)
            if events[-1]["type"] == "pong":
                break
    writer.close()
    return events


@pytest.mark.parametrize("data", [
    DEEP_SMALL + b"\n",
    b'{"type": "ping", "data": {"x": ' + DEEP_SMALL + b"}}\n",
    b'{"type": "ping", "data_length": %d}\n' % len(DEEP) + DEEP,
    b'{"type": "transcribe", "data_length": 214}\n{"language": ' + b"[" * 100 + b"]" * 100 + b"}",
], ids=["header", "header-data", "data", "data-past-64-levels"])
async def test_wyoming_deep_json_is_an_invalid_event_and_the_connection_survives(server: O1Process,
                                                                                 data: bytes) -> None:
    events = await wyoming_exchange(server, data)
    assert [e["type"] for e in events] == ["error", "pong"], events
    error = events[0].get("data") or {}
    assert error.get("code") == "invalid_event", events
    assert tracebacks(server) == []


# ------------------------------------------------------------------------------------------ broker socket
def test_broker_socket_answers_deep_json_and_keeps_answering(tmp_path: Path) -> None:
    cap = Capability(tmp_path / "run", HomeBroker("read", HomeContext(), None))
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(BOUND)
            with unix_address(cap.path) as address:
                sock.connect(address)
            reader = sock.makefile("rb")
            sock.sendall(b"[" * 30_000 + b"]" * 30_000 + b"\n")
            first = json.loads(reader.readline())
            sock.sendall(b'{"op": "entities", "args": {"x": ' + b"[" * 100 + b"]" * 100 + b"}}\n")
            second = json.loads(reader.readline())
            sock.sendall(b'{"op": "entities", "args": {}}\n')
            third = json.loads(reader.readline())
    finally:
        cap.close()
    assert first["error"] == "invalid" and second["error"] == "invalid", (first, second)
    assert third == {"ok": True, "result": []}
