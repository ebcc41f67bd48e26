"""The 01 light server's WebSocket protocol, so the existing 01 clients (the 01 ESP32 firmware and the 01 light
Python client) talk to o1 as they talked to Open Interpreter's 01 light server.

Routes (added by :func:`add_light_routes`; the 01 ESP32 firmware uses exactly these two paths):

- ``GET /ping`` -> ``pong`` (text/plain, no auth): the firmware's "is the server there" check.
- ``GET /`` -> WebSocket.

One spoken turn, client -> server::

    text   {"role": "user", "type": "audio", "format": "bytes.raw", "start": true}
    binary raw PCM: signed 16-bit little-endian, mono, 16,000 Hz, in frames of any size
    text   {"role": "user", "type": "audio", "format": "bytes.raw", "end": true}

(``"format": "bytes.wav"`` is accepted too; audio that begins with a RIFF/WAVE header is read with that
header's rate, width and channels, otherwise it is taken as raw 16 kHz 16-bit mono. Binary frames arriving up to
:data:`END_GRACE_SECONDS` after the end flag still belong to the turn: the 01 ESP32 firmware sends its last
microphone buffer just after the end flag.) A typed turn is one text frame
``{"role": "user", "type": "message", "content": "what is two plus two"}``.

Server -> client, for each turn::

    text   {"role": "user", "type": "message", "content": <transcript>}          (spoken turns only)
    text   {"role": "assistant", "type": "message", "content": <answer>}
    text   {"role": "assistant", "type": "audio", "format": "bytes.wav", "start": true}
    binary the spoken answer as one WAV file (RIFF header, then 16-bit mono PCM at the output rate), split into
           frames of at most :data:`MAX_FRAME_BYTES` bytes (the 01 ESP32 firmware's receive buffer)
    text   {"role": "assistant", "type": "audio", "format": "bytes.wav", "end": true}
    text   {"role": "server", "type": "status", "content": "complete"}

The 01 clients play the binary frames as raw PCM at 24,000 Hz, so that is the default output rate (the 44-byte
header is a 1 ms click for them); ``?rate=`` (8000..48000 Hz) changes it and ``?format=raw`` drops the header.

Errors are one text frame ``{"role": "server", "type": "error", "code": <code>, "content": <sentence>}`` and the
connection stays open. Codes: ``invalid_json``, ``invalid_message`` (a text frame that is not a JSON object the
protocol knows), ``audio_before_start``, ``audio_too_long`` (more than :data:`MAX_AUDIO_SECONDS` of audio: the
turn is dropped), ``invalid_audio``, ``no_speech``, ``tts_failed`` and the agent's own codes (``timeout``,
``llm_unavailable``...). When a spoken turn fails (no speech, an agent error) the sentence is also spoken, so a
device without a screen tells its user why.

Auth: 01 clients send no bearer token, so the API token is accepted as the query parameter ``?token=`` (for the
01 ESP32 firmware, set its server path to ``/?token=...``), as ``Authorization: Bearer <token>``, as
``X-API-KEY: <token>`` (Open Interpreter's header) or, after connecting without one, as a first text frame
``{"auth": "<token>"}`` (answered ``{"auth": true}``) within :data:`AUTH_SECONDS` seconds. A wrong token in the
query or a header is refused with HTTP 401 before the upgrade.

Conversations: one per connection, unless ``?conversation_id=`` names one to continue; ``?profile=`` and
``?language=`` pick the agent profile and the spoken language. Turns reach the agent on the channel
``01:<client host>``: a confirmation question asked here is answered here only (a "yes" over the HTTP API or
Wyoming does not run the held block, and vice versa).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import io
import json
import logging
import time
import uuid
import wave
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web
from wyoming.audio import AudioChunk, AudioChunkConverter

from .agent.types import Agent, AgentError
from .stt import SpeechToText
from .tts import TextToSpeech

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
END_GRACE_SECONDS = 0.2
"""Seconds after an end flag during which binary frames still belong to the ending utterance."""
AUTH_SECONDS = 10.0
"""Seconds a client that connected without a token has to send ``{"auth": "<token>"}``."""
MAX_TEXT = 4000
"""Longest typed turn, in characters."""

LIGHT_PATHS = frozenset({"/", "/ping"})
"""Paths :func:`add_light_routes` adds; their handler checks the token itself (an app whose middleware demands a
bearer token must let these through)."""

AUDIO_START = {"role": "assistant", "type": "audio", "format": "bytes.wav", "start": True}
AUDIO_END = {"role": "assistant", "type": "audio", "format": "bytes.wav", "end": True}
COMPLETE = {"role": "server", "type": "status", "content": "complete"}
NO_SPEECH = "Sorry, I did not hear anything."


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
                return (wav.readframes(wav.getnframes()), wav.getframerate(), wav.getsampwidth(),
                        wav.getnchannels())
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
    turns: asyncio.Queue = field(default_factory=asyncio.Queue)
    interrupt: asyncio.Event = field(default_factory=asyncio.Event)
    busy: bool = False
    finisher: asyncio.Task | None = None
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
        agent: the o1 agent (``await agent.ask(text, conversation_id, profile, language)``).
        token: the API token clients must present (see the module docstring).
    """

    def __init__(self, stt: SpeechToText, tts: TextToSpeech, agent: Agent, token: str) -> None:
        if not token:
            raise ValueError("the 01 endpoint needs a token")
        self.stt = stt
        self.tts = tts
        self.agent = agent
        self.token = token
        self.max_audio_bytes = int(MAX_AUDIO_SECONDS * INPUT_RATE) * INPUT_WIDTH * INPUT_CHANNELS

    # ------------------------------------------------------------------ auth
    def _token_ok(self, given: str) -> bool:
        return hmac.compare_digest(given.encode(), self.token.encode())

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
        """``GET /``: the 01 WebSocket (see the module docstring)."""
        given = self._request_token(request)
        if given is not None and not self._token_ok(given):
            return web.json_response({"error": "invalid_auth", "message": "The access token is wrong."},
                                     status=401)
        try:
            rate = int(request.query.get("rate", DEFAULT_OUTPUT_RATE))
        except ValueError:
            rate = -1
        if not MIN_OUTPUT_RATE <= rate <= MAX_OUTPUT_RATE:
            return web.json_response({"error": "invalid_request",
                                      "message": f"'rate' must be {MIN_OUTPUT_RATE}..{MAX_OUTPUT_RATE} Hz."},
                                     status=400)
        for name in ("conversation_id", "profile", "language"):
            if len(request.query.get(name, "")) > 200:
                return web.json_response({"error": "invalid_request",
                                          "message": f"'{name}' is longer than 200 characters."}, status=400)
        ws = web.WebSocketResponse(max_msg_size=4 * 1024 * 1024)
        if not ws.can_prepare(request).ok:
            return web.Response(status=426, text="This is the 01 WebSocket endpoint: connect with a WebSocket.\n")
        await ws.prepare(request)
        conn = _Connection(
            ws=ws,
            conversation_id=request.query.get("conversation_id") or f"01-{uuid.uuid4().hex}",
            channel=f"01:{request.remote or 'local'}",
            profile=request.query.get("profile") or None,
            language=request.query.get("language") or None,
            rate=rate,
            header=request.query.get("format", "wav") != "raw",
            authenticated=given is not None,
        )
        _LOGGER.info("01 client connected from %s (conversation %s)", request.remote, conn.conversation_id)
        worker = asyncio.create_task(self._turn_worker(conn), name="01 turns")
        try:
            await self._receive(conn)
        finally:
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
            timeout = None if conn.authenticated else max(0.0, deadline - time.monotonic())
            try:
                msg = await conn.ws.receive(timeout=timeout)
            except TimeoutError:
                await conn.send_error("invalid_auth", "No access token was sent in time.")
                await conn.ws.close(code=4001, message=b"no token")
                return
            if msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR):
                return
            if msg.type == WSMsgType.TEXT:
                await self._on_text(conn, msg.data)
            elif msg.type == WSMsgType.BINARY:
                await self._on_binary(conn, msg.data)

    async def _on_text(self, conn: _Connection, text: str) -> None:
        try:
            data = json.loads(text)
        except ValueError:
            await conn.send_error("invalid_json", "Text frames must be JSON.")
            return
        if not isinstance(data, dict):
            await conn.send_error("invalid_message", "Text frames must be JSON objects.")
            return
        if not conn.authenticated:
            if isinstance(data.get("auth"), str) and self._token_ok(data["auth"]):
                conn.authenticated = True
                await conn.send_json({"auth": True})
            else:
                await conn.send_json({"auth": False})
                await conn.send_error("invalid_auth", "Send {\"auth\": \"<token>\"} first.")
            return
        if "auth" in data:  # already authenticated (query or header): acknowledge like Open Interpreter does
            await conn.send_json({"auth": True})
            return
        kind = data.get("type", "audio")
        if kind == "audio" and data.get("start"):
            await self._start_utterance(conn)
        elif kind == "audio" and data.get("end"):
            await self._end_utterance(conn)
        elif kind == "message" and data.get("role", "user") == "user" and isinstance(data.get("content"), str):
            content = data["content"].strip()
            if not content or len(content) > MAX_TEXT:
                await conn.send_error("invalid_message",
                                      f"A message needs 1..{MAX_TEXT} characters of 'content'.")
                return
            await self._queue_turn(conn, {"text": content})
        elif kind == "message" and (data.get("start") or data.get("end")):
            return  # Open Interpreter's message flags around a typed message: nothing to do
        else:
            await conn.send_error("invalid_message",
                                  "Unknown message: send audio start/end flags or a user message.")

    async def _on_binary(self, conn: _Connection, data: bytes) -> None:
        if not conn.authenticated:
            await conn.send_json({"auth": False})
            await conn.send_error("invalid_auth", "Send {\"auth\": \"<token>\"} first.")
            return
        if conn.state == "overflow":
            return  # the rest of a too-long utterance, already reported
        if conn.state not in ("recording", "ending"):
            await conn.send_error("audio_before_start", "Send the audio start flag before audio.")
            return
        if len(conn.audio) + len(data) > self.max_audio_bytes:
            conn.audio = bytearray()
            if conn.state == "ending":
                conn.state = "idle"
            else:
                conn.state = "overflow"
            await conn.send_error("audio_too_long",
                                  f"That was more than {MAX_AUDIO_SECONDS:g} seconds of audio; it was dropped.")
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
                text = "" if not pcm else await self.stt.transcribe(pcm, rate, width, channels,
                                                                      language=conn.language)
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
        try:
            reply = await self.agent.ask(text, conversation_id=conn.conversation_id, profile=conn.profile,
                                         language=conn.language, channel=conn.channel)
            answer = reply.answer
        except AgentError as err:
            await conn.send_error(err.code, err.message)
            answer = err.message
        await conn.send_json({"role": "assistant", "type": "message", "content": answer})
        await self._speak(conn, answer)
        await conn.send_json(COMPLETE)
        _LOGGER.info("01 turn answered in %.1f s", time.monotonic() - started)

    async def _speak(self, conn: _Connection, text: str) -> None:
        """Synthesize ``text`` and send it between the audio flags (nothing when it cannot be spoken)."""
        converter = AudioChunkConverter(rate=conn.rate, width=2, channels=1)
        pcm = bytearray()
        try:
            async for audio in self.tts.synthesize(text):
                chunk = AudioChunk(rate=self.tts.rate, width=self.tts.width, channels=self.tts.channels,
                                   audio=audio)
                pcm += converter.convert(chunk).audio
        except ValueError as err:
            await conn.send_error("tts_failed", str(err))
            return
        data = wav_bytes(bytes(pcm), conn.rate) if conn.header else bytes(pcm)
        await conn.send_json(AUDIO_START)
        for offset in range(0, len(data), MAX_FRAME_BYTES):
            if conn.interrupt.is_set() or conn.ws.closed:
                break
            with contextlib.suppress(ConnectionError, RuntimeError):
                await conn.ws.send_bytes(data[offset:offset + MAX_FRAME_BYTES])
        await conn.send_json(AUDIO_END)


def add_light_routes(app: web.Application, stt: SpeechToText, tts: TextToSpeech, agent: Agent,
                     token: str) -> LightServer:
    """Add the 01 light protocol's routes (``GET /ping`` and the WebSocket at ``GET /``) to ``app``.

    The handler checks the token itself (query ``?token=``, bearer, ``X-API-KEY`` or a first ``{"auth"}`` frame),
    so ``app`` must not put these two paths (:data:`LIGHT_PATHS`) behind a bearer-only middleware.

    Args:
        app: the aiohttp application to extend (before it starts).
        stt: shared speech-to-text (16 kHz mono input is what 01 clients send).
        tts: shared text-to-speech (16-bit mono PCM at ``tts.rate`` Hz).
        agent: the o1 agent.
        token: the API token.

    Returns:
        The :class:`LightServer` serving the routes.

    Raises:
        ValueError: an empty token.
    """
    server = LightServer(stt, tts, agent, token)
    app.router.add_get("/ping", server.ping)
    app.router.add_get("/", server.websocket)
    return server
