"""The HTTP API's read deadlines over real TCP: unfinished headers and trickling bodies are cut, answers are not."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiohttp import web

from o1_server.api import DEADLINES_KEY, build_app
from o1_server.http_deadlines import Deadlines
from o1_server.protocol_01 import add_light_routes

TOKEN = "test-token"
HEADER_SECONDS = 1.0
BODY_SECONDS = 1.0


@pytest.fixture
async def api(make_agent, stt, tts) -> AsyncIterator[tuple[str, int]]:
    """The API (with the 01 routes) of a real agent behind 1 s deadlines, as the server serves it."""
    agent = make_agent(seconds=10)
    app = build_app(agent, TOKEN, "9.9.9", deadlines=Deadlines(HEADER_SECONDS, BODY_SECONDS))
    add_light_routes(app, stt, tts, agent, TOKEN)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await app[DEADLINES_KEY].site(runner, "127.0.0.1", 0).start()
    port = runner.addresses[0][1]
    yield f"http://127.0.0.1:{port}", port
    await runner.cleanup()


async def _until_closed(reader: asyncio.StreamReader, limit: float) -> tuple[bytes, float]:
    """What the server sent until it closed the connection, and after how many seconds."""
    start = time.monotonic()
    data = b""
    async with asyncio.timeout(limit):
        while chunk := await reader.read(65536):
            data += chunk
    return data, time.monotonic() - start


@pytest.mark.parametrize("sent", [b"", b"GET /api/hea", b"GET /api/health HTTP/1.1\r\nHost: x\r\n"])
async def test_unfinished_headers_are_cut_at_the_deadline(api: tuple[str, int], sent: bytes) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", api[1])
    try:
        writer.write(sent)
        await writer.drain()
        data, seconds = await _until_closed(reader, HEADER_SECONDS + 4)
    finally:
        writer.close()
    assert data == b"" and seconds < HEADER_SECONDS + 2


async def test_a_pipelined_unfinished_request_is_cut_after_the_answer(api: tuple[str, int]) -> None:
    """A whole request and the start of another in one write: the first is answered, the second's headers are
    on the clock from then on."""
    reader, writer = await asyncio.open_connection("127.0.0.1", api[1])
    try:
        writer.write(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\nGET /api/hea")
        await writer.drain()
        data, seconds = await _until_closed(reader, HEADER_SECONDS + 6)
    finally:
        writer.close()
    assert data.startswith(b"HTTP/1.1 200") and data.count(b"HTTP/1.1") == 1, data[:200]
    assert seconds < HEADER_SECONDS + 3


async def test_headers_trickled_byte_by_byte_do_not_extend_the_deadline(api: tuple[str, int]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", api[1])
    start = time.monotonic()
    closed = False
    try:
        for byte in b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 100:
            writer.write(bytes([byte]))
            await writer.drain()
            await asyncio.sleep(0.1)
            if reader.at_eof() or writer.is_closing():
                break
        data, _ = await _until_closed(reader, 5)
        closed = data == b""
    except (ConnectionError, OSError):
        closed = True
    finally:
        writer.close()
    assert closed and time.monotonic() - start < HEADER_SECONDS + 2.5


async def test_a_trickling_body_gets_408_and_is_closed(api: tuple[str, int]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", api[1])
    body = json.dumps({"text": "hello there"}).encode()
    writer.write(
        b"POST /api/conversation HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + f"Authorization: Bearer {TOKEN}\r\nContent-Length: {len(body)}\r\n\r\n".encode()
    )
    start = time.monotonic()
    try:
        for byte in body[:3]:  # then nothing more, within the deadline: a write after the server's answer
            writer.write(bytes([byte]))  # and close makes the kernel reset the connection, losing the answer
            await writer.drain()
            await asyncio.sleep(0.2)
        async with asyncio.timeout(5):
            data = await reader.readuntil(b"request_timeout")
        answered = time.monotonic() - start
        await _until_closed(reader, 15)  # closed after aiohttp's lingering read of the rest (10 s at most)
    finally:
        writer.close()
    assert data.startswith(b"HTTP/1.1 408"), data[:200]
    assert answered < BODY_SECONDS + 3


async def test_a_trickling_multipart_upload_gets_408_and_a_whole_one_is_stored(api: tuple[str, int]) -> None:
    """Files are multipart: their handler streams the parts, within the same body deadline."""
    boundary = "o1boundary"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"f\"; filename=\"notes.txt\"\r\n"
            f"Content-Type: text/plain\r\n\r\nmilk\r\n--{boundary}--\r\n").encode()
    head = (f"POST /api/conversation/up1/files HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {TOKEN}\r\n"
            f"Content-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: {len(body)}\r\n\r\n")
    reader, writer = await asyncio.open_connection("127.0.0.1", api[1])
    try:
        writer.write(head.encode())
        for byte in body[:3]:  # then nothing more: the body never completes (no write after the answer,
            writer.write(bytes([byte]))  # which would make the kernel reset the connection)
            await writer.drain()
            await asyncio.sleep(0.2)
        async with asyncio.timeout(5):
            data = await reader.readuntil(b"request_timeout")
        await _until_closed(reader, 15)  # closed after aiohttp's lingering read of the rest (10 s at most)
    finally:
        writer.close()
    assert data.startswith(b"HTTP/1.1 408"), data[:200]
    reader, writer = await asyncio.open_connection("127.0.0.1", api[1])
    try:
        writer.write(head.encode() + body)
        await writer.drain()
        data = await reader.readuntil(b"\r\n\r\n")
        assert data.startswith(b"HTTP/1.1 200"), data[:200]
        assert b"notes.txt" in await reader.read(200)
    finally:
        writer.close()


async def test_normal_requests_keep_alive_and_a_long_streamed_turn_is_not_cut(
    api: tuple[str, int], llm
) -> None:
    base, _ = api
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        async with http.get(f"{base}/api/health") as r:
            assert r.status == 200
        await asyncio.sleep(HEADER_SECONDS + 0.5)  # an idle keep-alive connection is not a late header
        async with http.get(f"{base}/api/info") as r:
            assert r.status == 200
        # A turn whose block runs 3 s: longer than both deadlines, streamed all along.
        llm.script("```python\nimport time\ntime.sleep(3)\nprint('slept')\n```", "Done sleeping.")
        events = []
        async with http.post(f"{base}/api/conversation/stream", json={"text": "sleep a while"}) as r:
            assert r.status == 200
            async for line in r.content:
                events.append(json.loads(line))
    assert events[-1]["type"] == "done", events
    codes = [e["block"] for e in events if e["type"] == "code"]
    assert codes and "slept" in codes[0]["output"], codes


async def test_the_01_websocket_stays_open_past_the_deadlines(api: tuple[str, int]) -> None:
    base, _ = api
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{base}/?token={TOKEN}&conversation_id=w") as ws:
        await asyncio.sleep(HEADER_SECONDS + BODY_SECONDS + 1)
        assert not ws.closed
        await ws.ping()
        await asyncio.sleep(0.2)
        assert not ws.closed and ws.close_code is None
