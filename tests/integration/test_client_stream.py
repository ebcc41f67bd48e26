"""Tests of the o1 client's streamed turns (POST /api/conversation/stream, NDJSON)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
import time
from typing import Any
from unittest.mock import patch

import aiohttp
import pytest

from custom_components.o1.client import (
    O1AuthError,
    O1Client,
    O1CodeEvent,
    O1ConnectionError,
    O1DeltaEvent,
    O1DoneEvent,
    O1ResponseError,
    O1StreamError,
    O1StreamEvent,
    O1TimeoutError,
)
from homeassistant.core import HomeAssistant

from .stub_server import TOKEN, Failure, StreamAction, StubO1Server, default_reply

DELTA = {"type": "delta", "text": "Half an answer."}


@pytest.fixture
async def session(hass: HomeAssistant) -> AsyncGenerator[aiohttp.ClientSession]:
    """Return a plain aiohttp session, closed after the test."""
    async with aiohttp.ClientSession() as client_session:
        yield client_session


async def _collect(client: O1Client, text: str = "hi", **kwargs: Any) -> list[O1StreamEvent]:
    """Return every event of one streamed turn."""
    return [event async for event in client.async_converse_stream(text, **kwargs)]


def _script(*items: Any) -> Any:
    """Return a stub stream script that sends `items`, whatever the request."""
    return lambda request, reply: list(items)


async def test_stream_yields_code_deltas_then_done(
    session: aiohttp.ClientSession, o1_server: StubO1Server
) -> None:
    """Code blocks and sentences come as events in the server's order, the reply last."""
    o1_server.reply = lambda request: {
        **default_reply(request),
        "answer": "The result is 42. Anything else?",
        "continue_conversation": True,
    }
    client = O1Client(session, o1_server.url, TOKEN)
    events = await _collect(
        client, "run code", conversation_id="c1", profile="coder", language="en"
    )

    request = o1_server.requests_to("POST", "/api/conversation/stream")[0]
    assert request.json == {
        "text": "run code", "conversation_id": "c1", "profile": "coder", "language": "en"
    }
    assert request.headers["Authorization"] == f"Bearer {TOKEN}"
    assert request.headers["Accept"] == "application/x-ndjson"

    assert [type(event) for event in events] == [
        O1CodeEvent, O1DeltaEvent, O1DeltaEvent, O1DoneEvent
    ]
    assert events[0].block.code == "print(6 * 7)"
    assert events[0].block.output == "42\n"
    assert "".join(e.text for e in events if isinstance(e, O1DeltaEvent)) == (
        "The result is 42. Anything else?"
    )
    reply = events[-1].reply
    assert (reply.conversation_id, reply.profile, reply.continue_conversation) == ("c1", "coder", True)
    assert reply.answer == "The result is 42. Anything else?"
    assert len(reply.code_blocks) == 1


async def test_blank_lines_and_unknown_events_are_skipped(
    session: aiohttp.ClientSession, o1_server: StubO1Server
) -> None:
    """Blank lines and event types of a newer server are ignored; lines may be split in chunks."""
    done = {"type": "done", "reply": {"conversation_id": "c", "answer": "ok"}}
    o1_server.stream = _script(
        b"\n", {"type": "thinking", "text": "hmm"}, b'{"type": "del', b'ta", "text": "ok"}\n', done
    )
    events = await _collect(O1Client(session, o1_server.url, TOKEN), profile="p")
    assert events == [O1DeltaEvent("ok"), events[-1]]
    assert events[-1].reply.profile == "p"  # the server did not say: the asked profile


async def test_done_as_last_line_without_newline(
    session: aiohttp.ClientSession, o1_server: StubO1Server
) -> None:
    """A done event on the last line, without its newline, still ends the turn."""
    o1_server.stream = _script(
        b'{"type": "done", "reply": {"conversation_id": "c", "answer": "ok"}}'
    )
    events = await _collect(O1Client(session, o1_server.url, TOKEN))
    assert [type(event) for event in events] == [O1DoneEvent]


async def test_streamed_error_event(
    session: aiohttp.ClientSession, o1_server: StubO1Server
) -> None:
    """An error event after the stream started raises the server's code and sentence."""
    o1_server.stream = _script(
        DELTA, {"type": "error", "error": "timeout", "message": "That took too long."}
    )
    seen: list[O1StreamEvent] = []
    with pytest.raises(O1ResponseError) as err:
        async for event in O1Client(session, o1_server.url, TOKEN).async_converse_stream("hi"):
            seen.append(event)
    assert seen == [O1DeltaEvent("Half an answer.")]
    assert (err.value.code, err.value.message, err.value.status) == (
        "timeout", "That took too long.", None
    )


async def test_error_event_without_message(
    session: aiohttp.ClientSession, o1_server: StubO1Server
) -> None:
    """An error event without code or sentence (last line, no newline) still gives both."""
    o1_server.stream = _script(b'{"type": "error"}')
    with pytest.raises(O1ResponseError) as err:
        await _collect(O1Client(session, o1_server.url, TOKEN))
    assert err.value.code == "error"
    assert err.value.message == "The o1 server could not answer"


@pytest.mark.parametrize(
    ("failure", "error", "match"),
    [
        (Failure(status=401, body={"error": "invalid_auth", "message": "Wrong token."}), O1AuthError, "Wrong token."),
        (Failure(status=404, body={"error": "unknown_profile", "message": "No such profile."}), O1ResponseError, "No such profile."),
        (Failure(status=502, body={"error": "llm_unavailable", "message": "No LLM."}), O1ResponseError, "No LLM."),
        (Failure(status=500, raw=b"Internal Server Error"), O1ResponseError, "answered HTTP 500"),
        (Failure(status=200, body={"answer": "not streamed"}), O1ConnectionError, "did not stream"),
    ],
)
async def test_http_errors_before_the_stream(
    session: aiohttp.ClientSession,
    o1_server: StubO1Server,
    failure: Failure,
    error: type[Exception],
    match: str,
) -> None:
    """Errors refused before streaming are the same errors as the plain endpoint's."""
    o1_server.failures["stream"] = failure
    with pytest.raises(error, match=match) as err:
        await _collect(O1Client(session, o1_server.url, TOKEN))
    assert not isinstance(err.value, O1StreamError)
    if failure.status in (404, 502):
        assert err.value.status == failure.status


async def test_wrong_token(session: aiohttp.ClientSession, o1_server: StubO1Server) -> None:
    """The streaming endpoint checks the token too."""
    with pytest.raises(O1AuthError):
        await _collect(O1Client(session, o1_server.url, "wrong"))


@pytest.mark.parametrize("ending", [StreamAction.END, StreamAction.DROP])
async def test_stream_ending_before_done(
    session: aiohttp.ClientSession, o1_server: StubO1Server, ending: StreamAction
) -> None:
    """A stream that ends cleanly or is cut before done is an O1StreamError, at once."""
    o1_server.stream = _script(DELTA, ending)
    seen: list[O1StreamEvent] = []
    started = time.monotonic()
    with pytest.raises(O1StreamError):
        async for event in O1Client(session, o1_server.url, TOKEN).async_converse_stream("hi"):
            seen.append(event)
    assert seen == [O1DeltaEvent("Half an answer.")]
    assert time.monotonic() - started < 5
    assert isinstance(O1StreamError("x"), O1ConnectionError)


async def test_stream_that_stalls_times_out(
    session: aiohttp.ClientSession, o1_server: StubO1Server
) -> None:
    """A stream that stops sending is bounded by the conversation timeout."""
    o1_server.stream = _script(DELTA, StreamAction.HANG)
    client = O1Client(session, o1_server.url, TOKEN, conversation_timeout=0.3)
    started = time.monotonic()
    with pytest.raises(O1TimeoutError, match="did not finish answering"):
        await _collect(client)
    assert time.monotonic() - started < 5


async def test_slow_start_times_out(
    session: aiohttp.ClientSession, o1_server: StubO1Server
) -> None:
    """A server that does not even start answering is bounded by the same timeout."""
    o1_server.failures["stream"] = Failure(status=200, body={}, delay=10)
    client = O1Client(session, o1_server.url, TOKEN, conversation_timeout=0.3)
    with pytest.raises(O1TimeoutError, match="did not answer within"):
        await _collect(client)


async def test_slow_error_body_times_out(
    session: aiohttp.ClientSession, o1_server: StubO1Server
) -> None:
    """An error whose body never comes is bounded too."""
    async def slow_read(self: aiohttp.ClientResponse) -> bytes:
        """Read a body that never comes (in time)."""
        await asyncio.sleep(10)
        return b""

    o1_server.failures["stream"] = Failure(status=500, body={"error": "x", "message": "x"})
    client = O1Client(session, o1_server.url, TOKEN, conversation_timeout=0.3)
    with patch.object(aiohttp.ClientResponse, "read", slow_read), pytest.raises(O1TimeoutError):
        await _collect(client)


async def test_nobody_listening(session: aiohttp.ClientSession, closed_port_url: str) -> None:
    """A server that is not there is a connection error (not a dropped stream)."""
    with pytest.raises(O1ConnectionError, match="Cannot reach") as err:
        await _collect(O1Client(session, closed_port_url, TOKEN))
    assert not isinstance(err.value, O1StreamError)


@pytest.mark.parametrize(
    ("line", "match"),
    [
        (b"not json\n", "not an event"),
        (b'["a list"]\n', "not an event"),
        (b'{"text": "no type"}\n', "not an event"),
        (b'{"type": "code", "block": "not an object"}\n', "malformed code event"),
        (b'{"type": "code"}\n', "malformed code event"),
        (b'{"type": "done", "reply": {"answer": "no id"}}\n', "Unexpected conversation reply"),
        (b'{"type": "done"}\n', "Unexpected conversation reply"),
        (b'{"type": "tool_call", "turn_id": "t", "id": "c", "name": "x", "args": []}\n', "malformed tool_call"),
        (b'{"type": "tool_call", "turn_id": "t", "args": {}}\n', "malformed tool_call"),
        (b'{"type": "home", "call": "not an object"}\n', "malformed home event"),
    ],
)
async def test_malformed_lines(
    session: aiohttp.ClientSession, o1_server: StubO1Server, line: bytes, match: str
) -> None:
    """Lines that are not the API's events are connection errors, never crashes."""
    o1_server.stream = _script(line)
    with pytest.raises(O1ConnectionError, match=match):
        await _collect(O1Client(session, o1_server.url, TOKEN))


async def test_overlong_line(session: aiohttp.ClientSession, o1_server: StubO1Server) -> None:
    """A line longer than the cap is refused instead of filling memory."""
    o1_server.stream = _script(b"x" * 5000, StreamAction.HANG)
    with (
        patch("custom_components.o1.client.MAX_STREAM_LINE", 1000),
        pytest.raises(O1ConnectionError, match="too long"),
    ):
        await _collect(O1Client(session, o1_server.url, TOKEN))


async def test_consumer_may_stop_early(
    session: aiohttp.ClientSession, o1_server: StubO1Server
) -> None:
    """Closing the stream early releases the connection (no leak, no hang)."""
    o1_server.stream = _script(DELTA, StreamAction.HANG)
    stream = O1Client(session, o1_server.url, TOKEN).async_converse_stream("hi")
    assert await anext(stream) == O1DeltaEvent("Half an answer.")
    await stream.aclose()
