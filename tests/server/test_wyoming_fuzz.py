"""Fuzzing the o1 Wyoming server over real TCP on 127.0.0.1 (hypothesis, bounded so it runs in well under
a minute).

The server runs on its own thread and event loop with the real models (whisper tiny.en, piper
en_US-joe-medium) and a trivial echo agent; the tests talk to it with plain blocking sockets, the way any
client in another process would. What they check for every generated example:

* the server stays up: a fresh connection gets ``pong`` for ``ping`` afterwards;
* everything the server sends is a well-formed Wyoming event, and every ``error`` carries a documented
  ``code``;
* bad frames (invalid JSON, non-object headers, undecodable data blocks...) each get an ``error`` event
  and a log line, and the connection keeps working: every ``ping`` sent before a frame that breaks the
  byte stream is answered;
* clients that send events in any order, with any audio, and vanish at any point leave no work queued
  on the shared decoding and synthesis threads.

Audio in the generated events is raw PCM of random bytes, at most 8,000 bytes per chunk (0.25 s at
16,000 Hz, 16-bit, mono); texts are at most a few dozen characters.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

# Hypothesis keeps a cache (.hypothesis/) in the working directory unless told otherwise: not in the repo.
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", os.path.join(tempfile.gettempdir(), "o1-hypothesis"))

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import event as note_event  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from o1_server.agent.types import AgentReply
from o1_server.stt import SpeechToText
from o1_server.tts import TextToSpeech
from o1_server.wyoming_server import ERROR_CODES, WyomingServer

EXAMPLES = int(os.environ.get("O1_FUZZ_EXAMPLES", "45"))
"""Examples of the byte-stream test (the session test runs about half as many). Set O1_FUZZ_EXAMPLES
higher and O1_FUZZ_RANDOM=1 to explore new inputs; by default the examples are the same on every run."""
RANDOM = os.environ.get("O1_FUZZ_RANDOM") == "1"
READ_TIMEOUT = 60.0
"""Longest wait for the server to finish answering one example, in seconds."""

KNOWN_TYPES = {
    "info", "pong", "error", "transcript", "transcript-start", "transcript-chunk", "transcript-stop",
    "audio-start", "audio-chunk", "audio-stop", "synthesize-stopped", "handled",
}
"""Event types this server may send."""


# --------------------------------------------------------------------------------------------- server


class EchoAgent:
    """Answers every transcript at once with its own text."""

    async def ask(self, text: str, conversation_id: str | None = None, profile: str | None = None,
                  language: str | None = None, channel: str = "local") -> AgentReply:
        return AgentReply(conversation_id=conversation_id or "c", profile="default", answer=f"You said: {text}")


class _Records(logging.Handler):
    """Keeps the server's log records (from any thread)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@dataclass
class LiveServer:
    """The real server on a background thread: its port, its services and its log records."""

    port: int
    stt: SpeechToText
    tts: TextToSpeech
    log: _Records
    loop: asyncio.AbstractEventLoop
    server: WyomingServer
    thread: threading.Thread

    def wait_idle(self, timeout: float = 30.0) -> None:
        """Wait until no decoding or synthesis job is running or queued (fails after ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        while not (self.stt._decode_worker.idle and self.stt._vad_worker.idle and self.tts._worker.idle):
            assert time.monotonic() < deadline, "jobs are still queued long after their clients left"
            time.sleep(0.02)


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    stt = SpeechToText("tiny.en", language="en")
    tts = TextToSpeech("en_US-joe-medium")
    stt.load()
    tts.load()
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="fuzz-server", daemon=True)
    thread.start()
    server = WyomingServer("tcp://127.0.0.1:0", stt, tts, EchoAgent(), "fuzz")
    port = asyncio.run_coroutine_threadsafe(server.start(), loop).result(30)
    log = _Records()
    logging.getLogger("o1_server").addHandler(log)
    try:
        yield LiveServer(port, stt, tts, log, loop, server, thread)
    finally:
        logging.getLogger("o1_server").removeHandler(log)
        asyncio.run_coroutine_threadsafe(server.stop(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(30)
        loop.close()


# --------------------------------------------------------------------------------------------- wire


def frame(event_type: Any, data: Any = None, payload: bytes | None = None, split_data: bool = False) -> bytes:
    """One event as bytes: a JSON header line, an optional data block and an optional payload."""
    header: dict[str, Any] = {"type": event_type}
    body = b""
    if data is not None:
        if split_data:
            body = json.dumps(data).encode()
            header["data_length"] = len(body)
        else:
            header["data"] = data
    if payload:
        header["payload_length"] = len(payload)
    return json.dumps(header).encode() + b"\n" + body + (payload or b"")


def parse_events(buffer: bytes) -> list[dict[str, Any]]:
    """Everything the server sent, as ``{"type", "data", "payload"}`` dicts; fails on a malformed event."""
    events = []
    offset = 0
    while offset < len(buffer):
        end = buffer.index(b"\n", offset)
        header = json.loads(buffer[offset:end])
        assert isinstance(header, dict) and isinstance(header.get("type"), str), header
        offset = end + 1
        data = header.get("data") or {}
        if header.get("data_length"):
            data = {**data, **json.loads(buffer[offset:offset + header["data_length"]])}
            offset += header["data_length"]
        payload = buffer[offset:offset + (header.get("payload_length") or 0)]
        assert len(payload) == (header.get("payload_length") or 0), "truncated payload"
        offset += len(payload)
        events.append({"type": header["type"], "data": data, "payload": payload})
    return events


def exchange(port: int, data: bytes, close_early: bool = False) -> list[dict[str, Any]]:
    """Send ``data`` and half-close; read everything until the server closes. With ``close_early``, drop
    the connection right after sending (a client that vanishes) and return nothing."""
    with socket.create_connection(("127.0.0.1", port), timeout=READ_TIMEOUT) as sock:
        try:
            sock.sendall(data)
        except OSError:
            pass  # the server may close first after a framing error; reading tells what it said
        if close_early:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            return []
        try:
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        received = bytearray()
        deadline = time.monotonic() + READ_TIMEOUT
        while True:
            assert time.monotonic() < deadline, "the server did not finish answering"
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            received += chunk
    return parse_events(bytes(received))


def assert_alive(port: int) -> None:
    """A new connection gets its pong within 10 s."""
    events = exchange(port, frame("ping", {"text": "alive?"}))
    assert [e["type"] for e in events] == ["pong"] and events[0]["data"].get("text") == "alive?"


def check_events(events: list[dict[str, Any]]) -> None:
    """Every event has a type this server sends; every error a documented code and a text."""
    for sent in events:
        assert sent["type"] in KNOWN_TYPES, sent
        if sent["type"] == "error":
            assert sent["data"].get("code") in ERROR_CODES and sent["data"].get("text"), sent


# --------------------------------------------------------------------------------------------- strategies

json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**40), 2**40), st.floats(allow_nan=False),
                         st.text(max_size=12))
json_values = st.recursive(json_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)), max_leaves=6)
words = st.text(alphabet=st.sampled_from("abcdefghij klmnop.,!?'-"), min_size=0, max_size=40)
texts = st.one_of(words, st.text(max_size=20), json_values)
rates = st.one_of(st.sampled_from([8000, 16000, 22050, 44100, 48000]), st.integers(-5, 200000), json_scalars)
widths = st.one_of(st.sampled_from([1, 2, 4]), st.integers(-2, 8), json_scalars)
channels = st.one_of(st.sampled_from([1, 2]), st.integers(-2, 100), json_scalars)
payloads = st.binary(max_size=8000)


@st.composite
def good_frames(draw: st.DrawFn) -> tuple[bytes, str]:
    """A complete, readable event (valid or not for its type). Returns (bytes, its type)."""
    kind = draw(st.sampled_from(["ping", "describe", "transcribe", "audio-start", "audio-chunk", "audio-stop",
                                 "synthesize", "synthesize-start", "synthesize-chunk", "synthesize-stop",
                                 "transcript", "select-program", "detect", "run-satellite"]))
    split = draw(st.booleans())
    if kind == "ping":
        return frame("ping", {"text": "p"}, split_data=split), kind
    if kind in ("describe", "audio-stop", "synthesize-stop", "detect", "run-satellite"):
        return frame(kind, draw(st.one_of(st.none(), st.dictionaries(st.text(max_size=5), json_scalars,
                                                                     max_size=2)))), kind
    if kind == "transcribe":
        return frame(kind, {"language": draw(st.one_of(st.sampled_from(["en", "en-US", "auto"]), json_scalars))},
                     split_data=split), kind
    if kind in ("audio-start", "audio-chunk"):
        data = {"rate": draw(rates), "width": draw(widths), "channels": draw(channels)}
        if draw(st.integers(0, 9)) == 0:
            data.pop(draw(st.sampled_from(sorted(data))))
        return frame(kind, data, draw(payloads) if kind == "audio-chunk" else None, split_data=split), kind
    if kind in ("synthesize", "synthesize-chunk"):
        data = {"text": draw(texts)}
        if kind == "synthesize" and draw(st.booleans()):
            data["voice"] = draw(st.one_of(json_values, st.fixed_dictionaries(
                {"name": st.sampled_from(["en_US-joe-medium", "nobody"]), "speaker": json_scalars})))
            data[draw(st.sampled_from(["length_scale", "noise_scale", "noise_w_scale"]))] = draw(
                st.one_of(st.floats(0.5, 1.5), json_scalars))
        return frame(kind, data, split_data=split), kind
    if kind == "synthesize-start":
        return frame(kind, draw(st.one_of(st.none(), st.fixed_dictionaries({"voice": json_values}))),
                     split_data=split), kind
    if kind == "transcript":
        return frame(kind, {"text": draw(texts), "context": draw(json_values)}, split_data=split), kind
    return frame(kind, {"name": draw(st.sampled_from(["o1", "o1 piper", "nobody"]))}, split_data=split), kind


@st.composite
def bad_frames(draw: st.DrawFn) -> bytes:
    """A frame the server cannot use but can skip without losing its place in the byte stream."""
    kind = draw(st.sampled_from(["garbage", "not-object", "no-type", "data-not-object", "data-block"]))
    if kind == "garbage":
        line = draw(st.binary(min_size=1, max_size=200).filter(lambda b: b"\n" not in b and b.strip()))
        return line + b"\n"
    if kind == "not-object":
        value = draw(json_values.filter(lambda v: not isinstance(v, dict)))
        return json.dumps(value).encode() + b"\n"
    if kind == "no-type":
        return json.dumps({"type": draw(st.one_of(st.none(), st.integers(), st.lists(st.integers(), max_size=2))),
                           "data": {}}).encode() + b"\n"
    if kind == "data-not-object":
        return json.dumps({"type": "ping", "data": draw(st.one_of(st.integers(), st.text(max_size=5),
                                                                  st.lists(st.integers(), max_size=2)))
                           }).encode() + b"\n"
    block = draw(st.binary(min_size=1, max_size=50).filter(lambda b: not _is_json_object(b)))
    return json.dumps({"type": "ping", "data_length": len(block)}).encode() + b"\n" + block


def _is_json_object(block: bytes) -> bool:
    try:
        return isinstance(json.loads(block), dict)
    except ValueError:
        return False


@st.composite
def breaking_frames(draw: st.DrawFn) -> tuple[bytes, bool]:
    """A last frame that leaves the byte stream unreadable. Returns (bytes, server answers with an error)."""
    kind = draw(st.sampled_from(["negative", "huge", "not-int", "long-line", "truncated", "short-payload"]))
    if kind in ("negative", "huge", "not-int"):
        value = {"negative": -draw(st.integers(1, 10)), "huge": draw(st.integers(1 << 25, 1 << 62)),
                 "not-int": draw(st.sampled_from(["12", 1.5, [3]]))}[kind]
        return json.dumps({"type": "audio-chunk", "payload_length": value}).encode() + b"\n", True
    if kind == "long-line":
        return b'{"type": "ping", "data": {"text": "' + b"x" * (70 * 1024) + b'"}}\n', True
    whole = frame("audio-chunk", {"rate": 16000, "width": 2, "channels": 1}, b"\x01\x02" * 100)
    if kind == "truncated":
        return whole[:draw(st.integers(1, len(whole) - 1))], False
    return whole[:-draw(st.integers(1, 150))], False  # payload shorter than payload_length


@dataclass
class Script:
    """A generated connection: frames to send and what is known about them."""

    data: bytes = b""
    pings: int = 0
    bad: int = 0
    breaking_error: bool = False
    kinds: list[str] = field(default_factory=list)


@st.composite
def scripts(draw: st.DrawFn) -> Script:
    script = Script()
    for _ in range(draw(st.integers(1, 8))):
        if draw(st.integers(0, 3)) == 0:
            script.data += draw(bad_frames())
            script.bad += 1
            script.kinds.append("bad")
        else:
            data, kind = draw(good_frames())
            script.data += data
            script.kinds.append(kind)
        if draw(st.booleans()):
            script.data += frame("ping", {"text": "p"})
            script.pings += 1
    if draw(st.integers(0, 3)) == 0:
        data, answered = draw(breaking_frames())
        script.data += data
        script.breaking_error = answered
        script.kinds.append("breaking")
    return script


# --------------------------------------------------------------------------------------------- tests


@settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=not RANDOM,
          suppress_health_check=[HealthCheck.too_slow])
@given(script=scripts())
def test_any_byte_stream_gets_answers_and_never_kills_the_server(live: LiveServer, script: Script) -> None:
    """Random mixes of valid, malformed and unreadable events on one connection."""
    live.log.records.clear()
    events = exchange(live.port, script.data)
    check_events(events)
    types = [e["type"] for e in events]
    note_event(f"{len(types)} events, errors: {sorted({e['data']['code'] for e in events if e['type'] == 'error'})}")
    pongs = [e for e in events if e["type"] == "pong"]
    assert len(pongs) >= script.pings + script.kinds.count("ping"), (script.kinds, types)
    invalid = [e for e in events if e["type"] == "error" and e["data"]["code"] == "invalid_event"]
    assert len(invalid) >= script.bad + int(script.breaking_error), (script.kinds, types)
    warnings = [r for r in live.log.records if r.levelno >= logging.WARNING and r.name.startswith("o1_server")]
    assert len(warnings) >= script.bad + int(script.breaking_error)
    assert all(r.levelno < logging.ERROR or r.exc_info is None or "Text-to-speech" in r.getMessage()
               for r in warnings), [r.getMessage() for r in warnings]
    assert_alive(live.port)


SPEECH = (Path(__file__).resolve().parent.parent / "fixtures" / "what_is_two_plus_two.wav").read_bytes()[44:]
"""A spoken question: 16,000 Hz, 16-bit, mono PCM (the fixture WAV without its 44-byte header)."""
audio_payloads = st.one_of(payloads, st.integers(1, 7999).map(lambda n: bytes(n)),
                           st.integers(0, len(SPEECH) // 4000 - 1).map(lambda i: SPEECH[i * 4000:(i + 1) * 4000]))


@st.composite
def requests(draw: st.DrawFn) -> list[bytes]:
    """One speech request, sometimes damaged (a step dropped, repeated or swapped)."""
    kind = draw(st.sampled_from(["utterance", "synthesize", "text-stream", "single"]))
    if kind == "utterance":
        rate = draw(st.sampled_from([16000, 22050, 48000]))
        fmt = {"rate": rate, "width": 2, "channels": draw(st.sampled_from([1, 2]))}
        steps = [frame("transcribe", {"language": draw(st.sampled_from(["en", "en-US", "auto"]))}),
                 frame("audio-start", fmt)]
        steps += [frame("audio-chunk", draw(st.sampled_from([fmt, {"rate": 16000, "width": 2, "channels": 1}])),
                        draw(audio_payloads)) for _ in range(draw(st.integers(0, 4)))]
        steps.append(frame("audio-stop", {}))
    elif kind == "synthesize":
        steps = [frame("synthesize", {"text": draw(words)})]
    elif kind == "text-stream":
        steps = [frame("synthesize-start", {})]
        steps += [frame("synthesize-chunk", {"text": draw(words)}) for _ in range(draw(st.integers(0, 3)))]
        if draw(st.booleans()):
            steps.append(frame("synthesize", {"text": draw(words)}))
        steps.append(frame("synthesize-stop", {}))
    else:
        return [draw(good_frames())[0]]
    mutation = draw(st.sampled_from(["none", "none", "drop", "repeat", "swap"]))
    if mutation != "none" and len(steps) > 1:
        i = draw(st.integers(0, len(steps) - 2))
        if mutation == "drop":
            del steps[i]
        elif mutation == "repeat":
            steps.insert(i, steps[i])
        else:
            steps[i], steps[i + 1] = steps[i + 1], steps[i]
    return steps


@st.composite
def sessions(draw: st.DrawFn) -> tuple[bytes, bool]:
    """Speech requests one after another on one connection, possibly cut anywhere by a client that
    vanishes without reading. Returns (bytes, vanishes)."""
    data = b"".join(step for _ in range(draw(st.integers(1, 3))) for step in draw(requests()))
    vanish = draw(st.integers(0, 3)) == 0
    if vanish:
        data = data[:draw(st.integers(0, len(data)))]
    return data, vanish


@settings(max_examples=max(1, EXAMPLES // 2), deadline=None, database=None, derandomize=not RANDOM,
          suppress_health_check=[HealthCheck.too_slow])
@given(session=sessions())
def test_speech_requests_in_any_order_leave_nothing_behind(live: LiveServer,
                                                           session: tuple[bytes, bool]) -> None:
    """Audio and text requests in random order, some cut off by a client that vanishes: answers are
    well formed, the shared threads drain, and the server keeps serving."""
    data, vanish = session
    answers = exchange(live.port, data, close_early=vanish)
    check_events(answers)
    note_event(f"answered with {', '.join(sorted({a['type'] for a in answers})) or 'nothing'}")
    live.wait_idle()
    assert_alive(live.port)
