"""The 01 light server's WebSocket protocol, so the existing 01 clients (the 01 ESP32 firmware and the 01 light
Python client) talk to o1 as they talked to Open Interpreter's 01 light server.

:func:`add_light_routes` adds ``GET /ping`` and the WebSocket at ``GET /`` to the HTTP API's aiohttp app; the
handler checks the API token itself (or lets in the 01 devices named by address, whose firmware sends none).
Turns reach the agent on the channel ``01:<client host>``; the reply is spoken sentence by sentence as the agent
streams it. This is not the HTTP API (:mod:`o1_server.api`) nor Wyoming. The frames of a turn, audio formats,
error codes, authentication and limits: see docs/protocols.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import ipaddress
import json
import logging
import time
import uuid
import wave
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web
from wyoming.audio import AudioChunk, AudioChunkConverter

from .agent.types import MAX_TURN_CHARS, Agent, AgentError, AgentReply
from .agent.wire import loads, token_matches
from .stt import SpeechToText
from .tts import SpeechStream, TextToSpeech

_LOGGER = logging.getLogger(__name__)

INPUT_RATE = 16_000
"""Sample rate of ``bytes.raw`` input audio, in Hz."""
INPUT_WIDTH = 2
"""Sample width of ``bytes.raw`` input audio, in bytes (signed 16-bit little-endian)."""
INPUT_CHANNELS = 1
"""Channel count of ``bytes.raw`` input audio (mono)."""
MAX_AUDIO_SECONDS = 60.0
"""Longest accepted utterance, in seconds (at 16 kHz 16-bit mono: 1,920,000 bytes)."""
DEFAULT_OUTPUT_RATE = 24_000
"""Sample rate of the spoken reply, in Hz: the rate the 01 ESP32 firmware and the 01 Python client play at."""
MIN_OUTPUT_RATE = 8_000
MAX_OUTPUT_RATE = 48_000
MAX_FRAME_BYTES = 1024
"""Largest binary frame sent, in bytes: the 01 ESP32 firmware copies each frame into a 1,024-byte buffer."""
END_GRACE_SECONDS = 1.0
"""Seconds after an end flag during which binary frames still belong to the ending utterance (the ESP32 firmware's
last buffer, up to 9 KiB, can take a few hundred milliseconds over a weak Wi-Fi link)."""
AUTH_SECONDS = 10.0
"""Seconds a client that connected without a token has to send ``{"auth": "<token>"}``."""
IDLE_SECONDS = 600.0
"""Seconds a connection may send nothing while no turn is running before it is closed (``idle_timeout``)."""
MAX_TEXT = MAX_TURN_CHARS
"""Longest typed turn, in characters (the same limit on every transport)."""
MAX_CONNECTIONS = 32
"""Default cap of open 01 sockets."""
MAX_UNAUTHENTICATED = 8
"""Default cap of open 01 sockets that have not presented the token yet."""
MAX_QUEUED_TURNS = 4
"""Turns one connection may have waiting behind the one being answered; more get ``busy`` and are dropped."""
PRE_AUTH_FRAME_BYTES = 65_536
"""Largest frame accepted on a socket that connected without a token, in bytes (the 01 clients stream audio in
frames of 2 KiB (light Python client) to about 10 KiB (ESP32 firmware)). Sockets that gave the token in the
handshake accept frames of a whole utterance (:data:`MAX_AUDIO_SECONDS` of audio plus a WAV header)."""

LIGHT_PATHS = frozenset({"/", "/ping"})
"""Paths :func:`add_light_routes` adds; their handler checks the token itself (an app whose middleware demands a
bearer token must let these through)."""

AUDIO_START = {"role": "assistant", "type": "audio", "format": "bytes.raw", "start": True}
AUDIO_END = {"role": "assistant", "type": "audio", "format": "bytes.raw", "end": True}
COMPLETE = {"role": "server", "type": "status", "content": "complete"}
NO_SPEECH = "Sorry, I did not hear anything."
NOT_ALLOWED = "This device is not allowed to talk to o1. See the 01 section of the o1 add-on's documentation."
"""Spoken to a client that sent audio without a token and is not one of the allowed devices, before closing."""
NOT_ALLOWED_CLOSE = 4003
"""WebSocket close code after :data:`NOT_ALLOWED` (application range 4000-4999; 4001 is "no token in time")."""
REFUSAL_LOG_SECONDS = 60.0
"""A refused device address is logged at most once in this many seconds."""


def parse_devices(devices: Iterable[str]) -> frozenset[str]:
    """The 01 device addresses allowed without a token, normalized (``"192.168.1.50"``, ``"fd00::5"``).

    Args:
        devices: IPv4 or IPv6 addresses, one per item (surrounding spaces ignored, empty items skipped).

    Raises:
        ValueError: an item that is not one IP address (networks are refused: each device is named), or an
            unspecified or multicast address (no device connects from those).
    """
    found: set[str] = set()
    for item in devices:
        text = item.strip()
        if not text:
            continue
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            raise ValueError(f"{text!r} is not an IP address (name each 01 device by its address)") from None
        if address.is_unspecified or address.is_multicast:
            raise ValueError(f"{text!r} cannot be a 01 device: no device connects from it")
        found.add(_peer_address(text) or text)
    return frozenset(found)


def _peer_address(remote: str | None) -> str | None:
    """The peer's normalized IP address (an IPv4-mapped IPv6 address as IPv4), or None."""
    try:
        address = ipaddress.ip_address(remote or "")
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    return str(address)


def error_message(code: str, content: str) -> dict[str, Any]:
    """The JSON error frame: ``{"role": "server", "type": "error", "code", "content"}``."""
    return {"role": "server", "type": "error", "code": code, "content": content}


def wav_bytes(pcm: bytes, rate: int, width: int = 2, channels: int = 1) -> bytes:
    """Wrap PCM in a WAV file.

    Args:
        pcm: interleaved little-endian PCM.
        rate: sample rate in Hz.
        width: sample width in bytes.
        channels: channel count.
    """
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as wav:
        wav.setnchannels(channels)
        wav.setsampwidth(width)
        wav.setframerate(rate)
        wav.writeframes(pcm)
    return buffer.getvalue()


def split_input_audio(audio: bytes) -> tuple[bytes, int, int, int]:
    """Return ``(pcm, rate Hz, width bytes, channels)`` of an utterance.

    Audio that starts with a RIFF/WAVE header is read with its header's format; anything else is raw
    16,000 Hz 16-bit mono PCM (what the 01 clients send, whatever their ``format`` flag says).

    Raises:
        ValueError: a RIFF header that is not a readable PCM WAV.
    """
    if audio[:4] == b"RIFF" and audio[8:12] == b"WAVE":
        try:
            with wave.open(io.BytesIO(audio), "rb") as wav:
                return (wav.readframes(wav.getnframes()), wav.getframerate(), wav.getsampwidth(), wav.getnchannels())
        except Exception as err:  # wave raises wave.Error, EOFError, RuntimeError... on broken headers
            raise ValueError(f"unreadable WAV audio ({err.__class__.__name__})") from err
    return audio, INPUT_RATE, INPUT_WIDTH, INPUT_CHANNELS


@dataclass
class _Connection:
    """State of one WebSocket connection."""

    ws: web.WebSocketResponse
    conversation_id: str
    channel: str
    """The agent channel: ``01:<peer host>`` (the 01 firmware reconnects with the same conversation id)."""
    profile: str | None
    language: str | None
    rate: int
    header: bool
    authenticated: bool
    state: str = "idle"
    """``idle``, ``recording``, ``ending`` (grace period after an end flag) or ``overflow`` (too long)."""
    audio: bytearray = field(default_factory=bytearray)
    turns: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    interrupt: asyncio.Event = field(default_factory=asyncio.Event)
    busy: bool = False
    finisher: asyncio.Task[None] | None = None
    """Hands the utterance over once the grace period after its end flag is over."""

    async def send_json(self, data: dict[str, Any]) -> None:
        """Send one JSON text frame; a closed socket is ignored."""
        if not self.ws.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self.ws.send_str(json.dumps(data))

    async def send_error(self, code: str, content: str) -> None:
        """Send an error frame."""
        _LOGGER.debug("01 client error %s: %s", code, content)
        await self.send_json(error_message(code, content))


class LightServer:
    """Serves the 01 light protocol with o1's speech-to-text, agent and text-to-speech.

    Args:
        stt: the shared speech-to-text service.
        tts: the shared text-to-speech service.
        agent: the o1 agent; its ``ask_stream`` (as :class:`o1_server.agent.service.O1Agent` has) streams the
            answer sentence by sentence, an agent with only ``ask`` is spoken once it has answered.
        token: the API token clients must present (see docs/protocols.md).
        devices: IP addresses of 01 devices let in without a token (the 01 ESP32 firmware sends none); see
            :func:`parse_devices`. Empty (the default): every client needs the token.

    Raises:
        ValueError: an empty token or a bad device address.
    """

    def __init__(
        self,
        stt: SpeechToText,
        tts: TextToSpeech,
        agent: Agent,
        token: str,
        *,
        max_connections: int = MAX_CONNECTIONS,
        max_unauthenticated: int = MAX_UNAUTHENTICATED,
        idle_seconds: float = IDLE_SECONDS,
        devices: Iterable[str] = (),
    ) -> None:
        if not token:
            raise ValueError("the 01 endpoint needs a token")
        self.devices = parse_devices(devices)
        self.stt = stt
        self.tts = tts
        self.agent = agent
        self.token = token
        # The same utterance limit as Wyoming: speech-to-text's max_seconds.
        self.max_audio_bytes = int(min(MAX_AUDIO_SECONDS, stt.max_seconds) * INPUT_RATE) * INPUT_WIDTH * INPUT_CHANNELS
        self.max_connections = max_connections
        self.max_unauthenticated = max_unauthenticated
        self.idle_seconds = idle_seconds
        self._open = 0
        self._unauthenticated = 0
        self._refusal_pcm: dict[int, bytes] = {}  # NOT_ALLOWED at each output rate, synthesized once
        self._refusals_logged: dict[str, float] = {}  # device address -> when its refusal was last logged

    # ------------------------------------------------------------------ auth
    def _token_ok(self, given: object) -> bool:
        return token_matches(given, self.token)

    def _request_token(self, request: web.Request) -> str | None:
        """The token the handshake carries (query, bearer or X-API-KEY), or None."""
        if "token" in request.query:
            return request.query["token"]
        auth = request.headers.get("Authorization", "")
        if auth.startswith("Bearer "):
            return auth[7:]
        return request.headers.get("X-API-KEY")

    # ------------------------------------------------------------------ routes
    async def ping(self, request: web.Request) -> web.Response:
        """``GET /ping`` -> ``pong`` (the 01 ESP32 firmware's reachability check; no auth)."""
        return web.Response(text="pong")

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        """``GET /``: the 01 WebSocket (see docs/protocols.md)."""
        given = self._request_token(request)
        if given is not None and not self._token_ok(given):
            return web.json_response({"error": "invalid_auth", "message": "The access token is wrong."}, status=401)
        try:
            rate = int(request.query.get("rate", DEFAULT_OUTPUT_RATE))
        except ValueError:
            rate = -1
        if not MIN_OUTPUT_RATE <= rate <= MAX_OUTPUT_RATE:
            return web.json_response(
                {"error": "invalid_request", "message": f"'rate' must be {MIN_OUTPUT_RATE}..{MAX_OUTPUT_RATE} Hz."},
                status=400,
            )
        for name in ("conversation_id", "profile", "language"):
            if len(request.query.get(name, "")) > 200:
                return web.json_response(
                    {"error": "invalid_request", "message": f"'{name}' is longer than 200 characters."}, status=400
                )
        if request.query.get("language"):
            try:
                self.stt.start(request.query["language"]).close()
            except ValueError as err:
                return web.json_response({"error": "unsupported_language", "message": str(err)}, status=400)
        output = request.query.get("format", "raw")
        if output not in ("raw", "wav"):
            return web.json_response(
                {"error": "invalid_request", "message": "'format' must be raw or wav."}, status=400
            )
        authenticated = given is not None or _peer_address(request.remote) in self.devices
        max_msg = self.max_audio_bytes + 1024 if authenticated else PRE_AUTH_FRAME_BYTES
        ws = web.WebSocketResponse(max_msg_size=max_msg)
        if not ws.can_prepare(request).ok:
            return web.json_response(
                {"error": "invalid_request", "message": "This is the 01 WebSocket endpoint: connect with a WebSocket."},
                status=426,
            )
        await ws.prepare(request)
        if self._open >= self.max_connections or (
            not authenticated and self._unauthenticated >= self.max_unauthenticated
        ):
            _LOGGER.warning(
                "Refusing a 01 client from %s: %d sockets open (%d without a token)",
                request.remote,
                self._open,
                self._unauthenticated,
            )
            with contextlib.suppress(ConnectionError, RuntimeError):
                await ws.send_str(json.dumps(error_message("busy", "Too many 01 connections; try again later.")))
            await ws.close(code=1013, message=b"busy")  # 1013: try again later (RFC 6455 registry)
            return ws
        conn = _Connection(
            ws=ws,
            conversation_id=request.query.get("conversation_id") or f"01-{uuid.uuid4().hex}",
            channel=f"01:{request.remote or 'local'}",
            profile=request.query.get("profile") or None,
            language=request.query.get("language") or None,
            rate=rate,
            header=output == "wav",
            authenticated=authenticated,
        )
        self._open += 1
        self._unauthenticated += not authenticated
        _LOGGER.info("01 client connected from %s (conversation %s)", request.remote, conn.conversation_id)
        worker = asyncio.create_task(self._turn_worker(conn), name="01 turns")
        try:
            await self._receive(conn)
        finally:
            self._open -= 1
            self._unauthenticated -= not conn.authenticated
            for task in (worker, conn.finisher):
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
            await ws.close()
            _LOGGER.info("01 client disconnected (conversation %s)", conn.conversation_id)
        return ws

    # ------------------------------------------------------------------ receiving
    async def _receive(self, conn: _Connection) -> None:
        """Read frames until the client closes (or fails to authenticate in time)."""
        deadline = time.monotonic() + AUTH_SECONDS
        while not conn.ws.closed:
            timeout = self.idle_seconds if conn.authenticated else max(0.0, deadline - time.monotonic())
            try:
                msg = await conn.ws.receive(timeout=timeout)
            except TimeoutError:
                if not conn.authenticated:
                    await conn.send_error("invalid_auth", "No access token was sent in time.")
                    await conn.ws.close(code=4001, message=b"no token")
                    return
                if conn.busy or conn.state != "idle" or not conn.turns.empty():
                    continue  # a turn is running: the client waits for its answer
                await conn.send_error("idle_timeout", f"Nothing was received for {self.idle_seconds:g} seconds.")
                await conn.ws.close(code=1000, message=b"idle")
                return
            if msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR):
                return
            if msg.type == WSMsgType.TEXT:
                await self._on_text(conn, msg.data)
            elif msg.type == WSMsgType.BINARY:
                await self._on_binary(conn, msg.data)

    async def _on_text(self, conn: _Connection, text: str) -> None:
        try:
            data = loads(text)
        except ValueError:
            await conn.send_error("invalid_json", "Text frames must be JSON.")
            return
        if not isinstance(data, dict):
            await conn.send_error("invalid_message", "Text frames must be JSON objects.")
            return
        if not conn.authenticated:
            if self._token_ok(data.get("auth")):
                conn.authenticated = True
                self._unauthenticated -= 1
                await conn.send_json({"auth": True})
            elif "auth" not in data and data.get("type") == "audio" and data.get("end") is True:
                await self._refuse_device(conn)
            else:
                await conn.send_json({"auth": False})
                await conn.send_error("invalid_auth", 'Send {"auth": "<token>"} first.')
            return
        if "auth" in data:  # already authenticated (query or header): acknowledge like Open Interpreter does
            await conn.send_json({"auth": True})
            return
        kind = data.get("type", "audio")
        if kind == "audio" and data.get("start") is True:
            await self._start_utterance(conn)
        elif kind == "audio" and data.get("end") is True:
            await self._end_utterance(conn)
        elif kind == "message" and data.get("role", "user") == "user" and isinstance(data.get("content"), str):
            content = data["content"].strip()
            if len(content) > MAX_TEXT:
                await conn.send_error("text_too_long", f"A message may have at most {MAX_TEXT} characters.")
                return
            if not content:
                await conn.send_error("invalid_message", "A message needs some text in 'content'.")
                return
            await self._queue_turn(conn, {"text": content})
        elif kind == "message" and (data.get("start") is True or data.get("end") is True):
            return  # Open Interpreter's message flags around a typed message: nothing to do
        else:
            await conn.send_error("invalid_message", "Unknown message: send audio start/end flags or a user message.")

    async def _on_binary(self, conn: _Connection, data: bytes) -> None:
        if not conn.authenticated:
            await conn.send_json({"auth": False})
            await conn.send_error("invalid_auth", 'Send {"auth": "<token>"} first.')
            return
        if conn.state == "overflow":
            return  # the rest of a too-long utterance, already reported
        if conn.state not in ("recording", "ending"):
            await conn.send_error("audio_before_start", "Send the audio start flag before audio.")
            return
        room = self.max_audio_bytes - len(conn.audio)
        if len(data) > room:
            # As on Wyoming: the utterance ends at the limit and what was heard is answered.
            conn.audio += data[:room]
            _LOGGER.warning("01 utterance passed %d bytes: answering what came before", self.max_audio_bytes)
            was_ending = conn.state == "ending"
            conn.state = "ending"
            await self._finish_utterance(conn)
            conn.state = "idle" if was_ending else "overflow"
            return
        conn.audio += data

    async def _start_utterance(self, conn: _Connection) -> None:
        if conn.state == "ending":  # a new utterance right after the last one: hand the last one over now
            await self._finish_utterance(conn)
        conn.state = "recording"
        conn.audio = bytearray()
        if conn.busy:
            conn.interrupt.set()  # the user talks again: stop playing the current reply

    async def _end_utterance(self, conn: _Connection) -> None:
        if conn.state == "overflow":
            conn.state = "idle"
            return
        if conn.state != "recording":
            await conn.send_error("invalid_message", "An audio end flag came without a start flag.")
            return
        conn.state = "ending"
        conn.finisher = asyncio.create_task(self._finish_later(conn), name="01 utterance end")

    async def _finish_later(self, conn: _Connection) -> None:
        await asyncio.sleep(END_GRACE_SECONDS)
        conn.finisher = None
        await self._finish_utterance(conn)

    async def _finish_utterance(self, conn: _Connection) -> None:
        if conn.finisher is not None:
            conn.finisher.cancel()
            conn.finisher = None
        if conn.state != "ending":
            return
        audio, conn.audio, conn.state = bytes(conn.audio), bytearray(), "idle"
        await self._queue_turn(conn, {"audio": audio})

    async def _queue_turn(self, conn: _Connection, turn: dict[str, Any]) -> None:
        if conn.turns.qsize() >= MAX_QUEUED_TURNS:
            await conn.send_error("busy", f"{MAX_QUEUED_TURNS} turns are already waiting; this one was dropped.")
            return
        await conn.turns.put(turn)

    # ------------------------------------------------------------------ turns
    async def _turn_worker(self, conn: _Connection) -> None:
        """Answer queued turns one at a time."""
        while True:
            turn = await conn.turns.get()
            conn.busy = True
            conn.interrupt.clear()
            try:
                await self._answer(conn, turn)
            except asyncio.CancelledError:
                raise
            except Exception:  # one broken turn must not end the connection
                _LOGGER.exception("01 turn failed")
                await conn.send_error("internal_error", "Something went wrong on the server.")
                await conn.send_json(COMPLETE)
            finally:
                conn.busy = False

    async def _answer(self, conn: _Connection, turn: dict[str, Any]) -> None:
        """Transcribe (spoken turns), ask the agent, speak the answer."""
        started = time.monotonic()
        text = turn.get("text")
        if text is None:
            try:
                pcm, rate, width, channels = split_input_audio(turn["audio"])
                text = "" if not pcm else await self.stt.transcribe(pcm, rate, width, channels, language=conn.language)
            except ValueError as err:
                await conn.send_error("invalid_audio", str(err))
                await conn.send_json(COMPLETE)
                return
            await conn.send_json({"role": "user", "type": "message", "content": text})
            if not text.strip():
                await conn.send_error("no_speech", NO_SPEECH)
                await self._speak(conn, NO_SPEECH)
                await conn.send_json(COMPLETE)
                return
        await self._reply(conn, text)
        await conn.send_json(COMPLETE)
        _LOGGER.info("01 turn answered in %.1f s", time.monotonic() - started)

    async def _agent_events(self, conn: _Connection, text: str) -> AsyncIterator[dict[str, Any]]:
        """The agent's events for one turn: ``delta`` sentences as they come, then ``done`` (an agent without
        ``ask_stream`` answers in one ``delta``). Raises AgentError."""
        ask_stream = getattr(self.agent, "ask_stream", None)
        args = {"conversation_id": conn.conversation_id, "profile": conn.profile, "language": conn.language}
        if ask_stream is None:
            reply = await self.agent.ask(text, channel=conn.channel, **args)
            yield {"type": "delta", "text": reply.answer}
            yield {"type": "done", "reply": reply}
            return
        stream = ask_stream(text, channel=conn.channel, **args)
        try:
            async for event in stream:
                yield event
        finally:
            await stream.aclose()  # a turn left early (the client went away) stops at once

    async def _reply(self, conn: _Connection, text: str) -> None:
        """Ask the agent and speak the answer while it comes: each sentence is fed to text-to-speech as the
        agent yields it, and its audio is sent as soon as it is synthesized. Then the whole answer (or the
        error's sentence, which is spoken too) follows as the assistant message."""
        speech = self.tts.open()
        sender = asyncio.create_task(self._send_speech(conn, speech), name="01 reply audio")
        said: list[str] = []
        answer: str | None = None

        def say(sentence: str) -> None:
            if conn.interrupt.is_set() or sender.done():
                return
            try:
                speech.feed(sentence)
            except ValueError as err:  # past the voice's max_chars: what was fed is still spoken
                _LOGGER.warning("01 reply not spoken to the end: %s", err)
                speech.end()

        try:
            try:
                async for event in self._agent_events(conn, text):
                    if event["type"] == "delta" and isinstance(event.get("text"), str):
                        said.append(event["text"])
                        say(event["text"])
                    elif event["type"] == "done":
                        reply: AgentReply = event["reply"]
                        answer = reply.answer
            except AgentError as err:
                await conn.send_error(err.code, err.message)
                say((" " if said else "") + err.message)  # the user hears why, after what was said already
                answer = ("".join(said) + " " + err.message).strip()
            speech.end()
            await sender
        finally:
            speech.close()
            if not sender.done():
                sender.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await sender
        await conn.send_json({"role": "assistant", "type": "message", "content": answer or "".join(said)})

    async def _speak(self, conn: _Connection, text: str) -> None:
        """Synthesize ``text`` and send it between the audio flags (nothing when it cannot be spoken)."""
        speech = self.tts.open()
        try:
            try:
                speech.feed(text)
            except ValueError as err:
                await conn.send_error("tts_failed", str(err))
                return
            speech.end()
            await self._send_speech(conn, speech)
        finally:
            speech.close()

    async def _send_speech(self, conn: _Connection, speech: SpeechStream) -> None:
        """Send ``speech``'s audio between the audio flags, converted to the connection's rate: raw PCM piece by
        piece as each is synthesized (the audio start flag comes with the first piece); a WAV file (``?format=wav``)
        once all of it is, since its header holds its length. Stops early when the user talks again
        (``conn.interrupt``); a synthesis failure is a ``tts_failed`` error (the flags still close)."""
        converter = AudioChunkConverter(rate=conn.rate, width=2, channels=1)
        audio_format = "bytes.wav" if conn.header else "bytes.raw"
        started = False
        whole = bytearray()
        try:
            async for audio in speech.audio():
                if conn.interrupt.is_set() or conn.ws.closed:
                    break
                chunk = AudioChunk(rate=speech.rate, width=speech.width, channels=speech.channels, audio=audio)
                pcm = converter.convert(chunk).audio
                if conn.header:
                    whole += pcm
                    continue
                if not started:
                    started = True
                    await conn.send_json({**AUDIO_START, "format": audio_format})
                await self._send_frames(conn, pcm)
        except (ValueError, RuntimeError) as err:
            await conn.send_error("tts_failed", str(err))
        if conn.header and whole:
            started = True
            await conn.send_json({**AUDIO_START, "format": audio_format})
            await self._send_frames(conn, wav_bytes(bytes(whole), conn.rate))
        if started:
            await conn.send_json({**AUDIO_END, "format": audio_format})

    @staticmethod
    async def _send_frames(conn: _Connection, data: bytes) -> None:
        """Send ``data`` in binary frames of at most :data:`MAX_FRAME_BYTES` bytes."""
        for offset in range(0, len(data), MAX_FRAME_BYTES):
            if conn.interrupt.is_set() or conn.ws.closed:
                return
            with contextlib.suppress(ConnectionError, RuntimeError):
                await conn.ws.send_bytes(data[offset : offset + MAX_FRAME_BYTES])

    # ------------------------------------------------------------------ refusal
    async def _refuse_device(self, conn: _Connection) -> None:
        """Tell a client that recorded audio without a token, in words it plays (:data:`NOT_ALLOWED`), then close.

        The 01 ESP32 firmware sends no token and shows nothing: its user hears why nothing is answered. The
        sentence is synthesized once per output rate, so refused clients cost no synthesis after the first.
        """
        peer = conn.channel.removeprefix("01:")
        now = time.monotonic()
        if now - self._refusals_logged.get(peer, -REFUSAL_LOG_SECONDS) >= REFUSAL_LOG_SECONDS:
            self._refusals_logged[peer] = now
            _LOGGER.warning(
                "Refused a 01 client at %s: it sent audio without a token. If it is your 01 device, add %s to the "
                "add-on option devices_01 (DOCS.md, 01 devices).",
                peer,
                peer,
            )
        pcm = self._refusal_pcm.get(conn.rate)
        if pcm is None:
            converter = AudioChunkConverter(rate=conn.rate, width=2, channels=1)
            buffer = bytearray()
            speech = self.tts.open()
            try:
                speech.feed(NOT_ALLOWED)
                speech.end()
                async for audio in speech.audio():
                    chunk = AudioChunk(rate=speech.rate, width=speech.width, channels=speech.channels, audio=audio)
                    buffer += converter.convert(chunk).audio
            except (ValueError, RuntimeError) as err:  # the error frame still says it
                _LOGGER.warning("The 01 refusal cannot be spoken: %s", err)
            finally:
                speech.close()
            pcm = self._refusal_pcm[conn.rate] = bytes(buffer)
        await conn.send_error("not_allowed", NOT_ALLOWED)
        if pcm:
            audio_format = "bytes.wav" if conn.header else "bytes.raw"
            await conn.send_json({**AUDIO_START, "format": audio_format})
            await self._send_frames(conn, wav_bytes(pcm, conn.rate) if conn.header else pcm)
            await conn.send_json({**AUDIO_END, "format": audio_format})
        await conn.send_json(COMPLETE)
        await conn.ws.close(code=NOT_ALLOWED_CLOSE, message=b"not allowed")


def add_light_routes(
    app: web.Application, stt: SpeechToText, tts: TextToSpeech, agent: Agent, token: str, **limits: Any
) -> LightServer:
    """Add the 01 light protocol's routes (``GET /ping`` and the WebSocket at ``GET /``) to ``app``.

    The handler checks the token itself (query ``?token=``, bearer, ``X-API-KEY`` or a first ``{"auth"}`` frame),
    so ``app`` must not put these two paths (:data:`LIGHT_PATHS`) behind a bearer-only middleware.

    Args:
        app: the aiohttp application to extend (before it starts).
        stt: shared speech-to-text (16 kHz mono input is what 01 clients send).
        tts: shared text-to-speech (16-bit mono PCM at ``tts.rate`` Hz).
        agent: the o1 agent.
        token: the API token.
        limits: ``max_connections``, ``max_unauthenticated``, ``idle_seconds``, ``devices`` of
            :class:`LightServer`.

    Returns:
        The :class:`LightServer` serving the routes.

    Raises:
        ValueError: an empty token or a bad device address.
    """
    server = LightServer(stt, tts, agent, token, **limits)
    app.router.add_get("/ping", server.ping)
    app.router.add_get("/", server.websocket)
    return server
