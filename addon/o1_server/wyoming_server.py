"""Wyoming protocol server: speech-to-text, text-to-speech and the o1 agent on one port.

One Info advertises three programs, so Home Assistant's own ``wyoming`` integration creates an stt, a tts
and a conversation entity from a single server (``homeassistant/components/wyoming/data.py`` adds the STT,
TTS and CONVERSATION platforms for installed ``asr``, ``tts`` and ``handle`` programs).

Event flows served (event names and fields from the ``wyoming`` package 1.10; the client side is
``homeassistant/components/wyoming/{stt,tts,conversation}.py``):

* ``describe`` -> ``info``.
* asr: [``transcribe`` (optional ``language``)], ``audio-start``, ``audio-chunk``..., ``audio-stop`` ->
  [``transcript-start``, ``transcript-chunk``..., ``transcript-stop``,] ``transcript`` (``text``,
  ``language``). Any PCM format in 8..48 kHz, 1/2/4-byte samples and 1..64 channels is converted to
  16 kHz mono as it arrives. The streaming events are sent when speech-to-text has ``streaming`` on (it
  is advertised as ``supports_transcript_streaming``); a chunk can come before ``audio-stop`` when a pause
  closed a segment (see :mod:`o1_server.stt`). The chunks concatenated equal the transcript's text, and
  the plain ``transcript`` always comes last, so clients that ignore the streaming events lose nothing.
* tts: ``synthesize`` (``text``, optional ``voice`` with ``name``/``language``/``speaker``) ->
  ``audio-start``, ``audio-chunk``..., ``audio-stop``; streaming text: ``synthesize-start``,
  ``synthesize-chunk``..., [``synthesize``, ignored], ``synthesize-stop`` -> ``audio-start``,
  ``audio-chunk``... (as soon as each sentence, or a long sentence's first clause, is complete),
  ``audio-stop``, ``synthesize-stopped``. Synthesis options ``length_scale``, ``noise_scale`` and
  ``noise_w_scale`` may be given in the ``synthesize``/``synthesize-start`` data or in its ``context``.
* handle: ``transcript`` (``text``, ``language``, ``context.conversation_id`` as sent by HA's
  conversation entity) -> ``handled`` (``text`` = the agent's spoken answer, ``context.conversation_id``).
  An ``AgentError`` becomes ``handled`` with its spoken message, so the user hears why.
* ``ping`` -> ``pong``; ``select-program`` naming one of our programs is accepted silently.

An utterance without any audio gets an empty ``transcript`` (as whisper gives for silence); audio past the
speech-to-text limit ends the utterance there and its transcript is sent at once (the rest of the audio and the
``audio-stop`` are dropped quietly); a ``language`` the model does not know gets ``unsupported_language``.
``transcript`` text for the agent is limited to ``MAX_TURN_CHARS`` characters, as on the HTTP API.

Many connections at once: whisper decoding and piper synthesis each run on one shared background thread,
first come first served, with bounded queues (a full queue gives ``error`` code ``busy``); the number of
open connections is bounded too (:data:`MAX_CONNECTIONS`; the idlest connection makes room for a new one), and
every read has a time limit (:data:`IDLE_SECONDS` between events, :data:`FRAME_SECONDS` within one). Bad input never ends the server: it gets an ``error`` event (``text``,
stable ``code`` from :data:`ERROR_CODES`) and a log line, and the connection stays usable except after a
framing error that makes the byte stream unreadable (then the connection is closed after the error).

Before any event is read, a client whose socket belongs to generated code (a sandbox uid, as the kernel reports
it; see :mod:`o1_server.peer_guard`) gets one ``error`` with code ``sandbox_peer`` and is closed.

Connections take turns on the event loop: each handles one event, then lets the others (and the HTTP API) run
(``await asyncio.sleep(0)``, the "optimized path to allow other tasks to run" of the ``asyncio.sleep``
documentation), so one client's burst of buffered events cannot hold up the rest (issue 13: ``/api/health``
waited up to 0.35 s behind 64 clients each sending a whole utterance at once). The server process runs this
server on an event loop of its own thread, apart from the HTTP API (:mod:`o1_server.loop_thread`); the class
itself works on any one loop, and reaches the agent only through ``agent.ask``.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import re
import select
import time
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from wyoming.asr import Transcribe, Transcript, TranscriptChunk, TranscriptStart, TranscriptStop
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.error import Error
from wyoming.event import Event, Eventable
from wyoming.handle import Handled
from wyoming.info import (
    AsrModel,
    AsrProgram,
    Attribution,
    Describe,
    HandleModel,
    HandleProgram,
    Info,
    SelectProgram,
    TtsProgram,
)
from wyoming.ping import Ping, Pong
from wyoming.server import AsyncEventHandler
from wyoming.tts import (
    Synthesize,
    SynthesizeChunk,
    SynthesizeStart,
    SynthesizeStop,
    SynthesizeStopped,
    SynthesizeTextFormat,
    SynthesizeVoice,
)

from .agent.types import Agent, AgentError
from .agent.wire import loads
from .peer_guard import CODE as SANDBOX_PEER
from .peer_guard import PeerGuard
from .stt import BusyError, PcmNormalizer, SpeechToText, Utterance, check_format
from .tts import SpeechStream, TextToSpeech, parse_options

_LOGGER = logging.getLogger(__name__)

ASR_PROGRAM = "o1 faster-whisper"
TTS_PROGRAM = "o1 piper"
HANDLE_PROGRAM = "o1"

SAMPLES_PER_CHUNK = 1024
"""Samples per ``audio-chunk`` event sent by text-to-speech (about 46 ms at 22,050 Hz)."""
MAX_DATA_BYTES = 1 << 20
"""Largest accepted ``data_length`` of one event, in bytes."""
MAX_PAYLOAD_BYTES = 16 << 20
"""Largest accepted ``payload_length`` of one event, in bytes (about 8 min of 16 kHz 16-bit mono)."""
MAX_CONNECTIONS = 64
"""Connections served at once. When all are taken, the connection idle longest (waiting for its next event with
no utterance or text stream going, or with one that has been silent for :data:`STALE_STREAM_SECONDS`) is closed
with ``error`` code ``idle_timeout`` to make room; when none is idle, the new connection gets ``busy``."""
IDLE_SECONDS = 120.0
"""Seconds a connection may send nothing (between events) before it is closed with ``idle_timeout``. Home
Assistant opens a connection per request (``homeassistant/components/wyoming``: ``AsyncTcpClient`` in ``stt.py``,
``tts.py`` and ``conversation.py``), so a long-idle connection is not one of its requests."""
FRAME_SECONDS = 20.0
"""Seconds one event (header line, data and payload) may take to arrive once its first byte came; slower
events end the connection with ``frame_timeout`` (a slowloris client cannot hold a slot by dribbling bytes)."""
CLIENT_POLL_SECONDS = 0.25
"""How often a connection whose agent turn runs is checked for its client having left (the turn is then
cancelled: its code stops and its slot is freed for the next turn)."""
STALE_STREAM_SECONDS = 5.0
"""An utterance or text stream that got no event for this long no longer protects its connection from being
closed to make room (Home Assistant streams audio in real time, about every 10..100 ms)."""

ERROR_CODES = {
    "invalid_event": "the event could not be read or lacks a required field",
    "unknown_event": "this server does not handle that event type",
    "unknown_program": "select-program named no program of this server",
    "audio_not_started": "audio-chunk or audio-stop without a preceding audio-start",
    "unsupported_audio_format": "rate not in 8000..48000 Hz, width not 1/2/4 bytes, or channels < 1",
    "audio_too_long": "the utterance is longer than the speech-to-text limit",
    "unsupported_language": "the speech-to-text model does not understand the language asked for",
    "transcription_failed": "speech-to-text failed",
    "invalid_text": "empty, too long or non-string text to synthesize",
    "invalid_voice": "unknown speaker, or a synthesis option that is not a number in its range",
    "synthesize_not_started": "synthesize-chunk or synthesize-stop without synthesize-start",
    "synthesis_failed": "text-to-speech failed",
    "no_agent": "no agent is configured for transcript (handle) requests",
    "busy": "too many requests are queued (or connections open); try again later",
    "idle_timeout": "the connection sent nothing for too long (or was the idlest when all were taken); closed",
    "frame_timeout": "an event took too long to arrive once it began; closed",
    "internal_error": "an unexpected server error; see the server log",
    "sandbox_peer": "the connecting socket belongs to generated code (a sandbox uid) or its owner could not be "
                    "found; closed before any event is read",
}
"""Stable ``code`` values of the ``error`` events this server sends, with their meaning."""

AGENT_FAILED_MESSAGE = "Sorry, something went wrong while answering."

# Event types this handler understands, parsed with the wyoming package's own classes.
_EVENT_CLASSES: tuple[type[Eventable], ...] = (
    Describe, Ping, SelectProgram, Transcribe, AudioStart, AudioChunk, AudioStop,
    Synthesize, SynthesizeStart, SynthesizeChunk, SynthesizeStop, Transcript,
)


def _package_version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _language_family(code: str) -> str:
    return code.replace("_", "-").split("-")[0].lower()


def build_info(
    stt: SpeechToText,
    tts: TextToSpeech,
    version: str,
    *,
    handle_languages: list[str] | None = None,
) -> Info:
    """Describe this server: one ``asr``, one ``tts`` and one ``handle`` program, all installed.

    Args:
        stt: speech-to-text; its model name and languages (exact once loaded) are advertised.
        tts: text-to-speech; its voices are advertised.
        version: o1 server version, advertised on the handle program.
        handle_languages: languages of the agent (HA only offers the conversation entity for these);
            defaults to the language family of the TTS voice (``"en"`` for en_US-joe-medium), since the
            answers are spoken with it.
    """
    if handle_languages is None:
        handle_languages = sorted({_language_family(v.languages[0]) for v in tts.voices() if v.languages})
    whisper_attribution = Attribution(name="OpenAI", url="https://github.com/openai/whisper")
    asr = AsrProgram(
        name=ASR_PROGRAM,
        description="o1 speech-to-text (faster-whisper)",
        attribution=Attribution(name="SYSTRAN", url="https://github.com/SYSTRAN/faster-whisper"),
        installed=True,
        version=_package_version("faster-whisper"),
        models=[
            AsrModel(
                name=stt.model_name,
                description=f"Whisper {stt.model_name} (CTranslate2)",
                attribution=whisper_attribution,
                installed=True,
                version=None,
                languages=stt.languages,
            )
        ],
        supports_transcript_streaming=stt.streaming,
        requires_external_vad=True,
    )
    tts_program = TtsProgram(
        name=TTS_PROGRAM,
        description="o1 text-to-speech (piper)",
        attribution=Attribution(name="rhasspy", url="https://github.com/rhasspy/piper"),
        installed=True,
        version=_package_version("piper-tts"),
        voices=tts.voices(),
        supports_synthesize_streaming=True,
    )
    o1_attribution = Attribution(name="Open Interpreter",
                                 url="https://github.com/OpenInterpreter/open-interpreter")
    handle = HandleProgram(
        name=HANDLE_PROGRAM,
        description="o1 agent: answers by writing and running code with Open Interpreter",
        attribution=o1_attribution,
        installed=True,
        version=version,
        models=[
            HandleModel(
                name=HANDLE_PROGRAM,
                description="o1 agent",
                attribution=o1_attribution,
                installed=True,
                version=version,
                languages=list(handle_languages),
            )
        ],
        supports_handled_streaming=False,
        supports_home_control=False,
    )
    return Info(asr=[asr], tts=[tts_program], handle=[handle])


# ---------------------------------------------------------------------------------------------- reading


class _FramingError(Exception):
    """An event line could not be read. ``fatal``: the byte stream can no longer be followed."""

    def __init__(self, message: str, fatal: bool) -> None:
        super().__init__(message)
        self.fatal = fatal


class _ReadTimeout(Exception):
    """No event began within the idle time (``code`` ``idle_timeout``) or one did not end in time
    (``frame_timeout``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


async def _read_event(reader: asyncio.StreamReader, idle_seconds: float | None = None,
                      frame_seconds: float | None = None, on_begin: Any = None) -> Event | None:
    """Read one event (JSON header line, optional data JSON, optional payload); None at end of stream.

    Same framing as ``wyoming.event.async_read_event``, but a bad line is reported instead of being
    taken for the end of the stream. ``idle_seconds`` bounds the wait for the event's first byte and
    ``frame_seconds`` the time from that byte to the event's last one (None: no limit); ``on_begin()`` is
    called when the first byte came. Raises :class:`_ReadTimeout` when a limit passes.
    """
    try:
        async with asyncio.timeout(idle_seconds):
            first = await reader.read(1)
    except TimeoutError:
        raise _ReadTimeout("idle_timeout", f"nothing received for {idle_seconds:g} s; closing") from None
    if not first:
        return None
    if on_begin is not None:
        on_begin()
    try:
        async with asyncio.timeout(frame_seconds):
            return await _read_rest(reader, first)
    except TimeoutError:
        raise _ReadTimeout("frame_timeout",
                           f"an event took longer than {frame_seconds:g} s to arrive; closing") from None


async def _read_rest(reader: asyncio.StreamReader, first: bytes) -> Event | None:
    """The rest of an event whose first byte was ``first`` (see :func:`_read_event`)."""
    if first == b"\n":
        line = first
    else:
        try:
            line = first + await reader.readline()
        except ValueError as err:  # line over the StreamReader limit: cannot resynchronise
            raise _FramingError(f"event header line too long: {err}", fatal=True) from err
    if not line.strip():
        raise _FramingError("empty event line", fatal=False)
    try:
        header = loads(line)
    except ValueError as err:
        raise _FramingError(f"event header is not JSON: {err}", fatal=False) from err
    if not isinstance(header, dict) or not isinstance(header.get("type"), str):
        raise _FramingError("event header must be a JSON object with a string 'type'", fatal=False)
    data = header.get("data")
    data_length = header.get("data_length")
    payload_length = header.get("payload_length")
    for name, value, limit in (("data_length", data_length, MAX_DATA_BYTES),
                               ("payload_length", payload_length, MAX_PAYLOAD_BYTES)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or value < 0 or value > limit):
            raise _FramingError(f"bad {name} {value!r} (0..{limit} bytes)", fatal=True)
    try:  # read the whole event first, so that a bad part leaves the stream in step
        block = await reader.readexactly(data_length) if data_length else b""
        payload = await reader.readexactly(payload_length) if payload_length else None
    except asyncio.IncompleteReadError:
        return None
    if data is None:
        data = {}
    elif not isinstance(data, dict):
        raise _FramingError("event 'data' must be a JSON object", fatal=False)
    if block:
        try:
            extra = loads(block)
        except ValueError as err:
            raise _FramingError(f"event data is not JSON: {err}", fatal=False) from err
        if not isinstance(extra, dict):
            raise _FramingError("event data must be a JSON object", fatal=False)
        data = {**data, **extra}
    return Event(type=header["type"], data=data, payload=payload)


# ---------------------------------------------------------------------------------------------- handler


class _Rejected(Exception):
    """A request is refused with an ``error`` event."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code
        self.text = text


@dataclass
class _AudioStream:
    """An utterance being received (asr)."""

    normalizer: PcmNormalizer
    utterance: Utterance | None
    language: str | None = None  # as the client asked for it (echoed in the transcript)
    rejected: bool = False  # an error was sent: drop the rest of the stream quietly
    answered: bool = False  # the transcript was sent early (audio past the limit): drop the rest quietly
    chunks_sent: int = 0
    transcript_started: bool = False


@dataclass
class _TextStream:
    """A streamed synthesis request (synthesize-start ... synthesize-stop)."""

    speech: SpeechStream | None
    task: asyncio.Task | None = None
    audio_started: bool = False
    failed: bool = False


class O1EventHandler(AsyncEventHandler):
    """Serves one Wyoming connection; several requests may follow one another on it.

    Args:
        reader, writer: the connection's streams.
        stt, tts: shared speech services.
        agent: object following :class:`o1_server.agent.types.Agent`, or None (``transcript`` requests
            then get ``error`` with code ``no_agent``).
        info: a fixed Info to send for ``describe``; when None, :func:`build_info` runs per request.
        version: o1 version (only used to build Info).
        idle_seconds: see :data:`IDLE_SECONDS` (None: no limit).
        frame_seconds: see :data:`FRAME_SECONDS` (None: no limit).
    """

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        stt: SpeechToText,
        tts: TextToSpeech,
        agent: Agent | None,
        info: Info | None = None,
        version: str = "",
        idle_seconds: float | None = IDLE_SECONDS,
        frame_seconds: float | None = FRAME_SECONDS,
    ) -> None:
        super().__init__(reader, writer)
        self.idle_seconds = idle_seconds
        self.frame_seconds = frame_seconds
        self.waiting_since: float | None = None  # monotonic time it began waiting for an event; None: busy
        self.mid_event = False
        self.last_event = time.monotonic()
        self.stt = stt
        self.tts = tts
        self.agent = agent
        self._info = info
        self._version = version
        self._language: str | None = None  # from the last transcribe event
        self._audio: _AudioStream | None = None
        self._orphan_audio_reported = False
        self._text: _TextStream | None = None
        self._peer = _peer_name(writer)
        self._channel = wyoming_channel(writer)

    # ----------------------------------------------------------------- plumbing
    async def run(self) -> None:
        """Read and handle events until the client leaves, :meth:`stop` is called or a fatal read error."""
        self._is_running = True
        try:
            while self._is_running:
                self.waiting_since = time.monotonic()
                self.mid_event = False
                try:
                    event = await _read_event(self.reader, self.idle_seconds, self.frame_seconds,
                                              on_begin=self._event_began)
                except _ReadTimeout as err:
                    _LOGGER.warning("Closing the connection from %s: %s", self._peer, err)
                    await self._send_error(err.code, str(err))
                    break
                except _FramingError as err:
                    _LOGGER.warning("Unreadable event from %s: %s", self._peer, err)
                    await self._send_error("invalid_event", str(err))
                    if err.fatal:
                        break
                    continue
                finally:
                    self.waiting_since = None
                if event is None:
                    break
                self.last_event = time.monotonic()
                if not await self.handle_event(event):
                    break
                # One event per turn of the event loop: reading what is already buffered does not suspend, so
                # a client that sent a whole utterance at once would otherwise have all of it handled in one go.
                await asyncio.sleep(0)
        except (ConnectionError, OSError) as err:
            _LOGGER.info("Connection from %s lost: %s", self._peer, err)
        finally:
            await self.disconnect()
            self.writer.close()

    async def _client_gone(self) -> None:
        """Returns once the client has closed its end (end of stream with nothing left unread) or the connection
        is closing. Watched while a turn runs: nothing reads the connection then, and a turn whose client left
        would keep its slot (and its code running) until the turn's deadline.

        The socket itself is asked (``POLLRDHUP``), not only the stream: ``reader.at_eof()`` stays False while
        unread bytes are buffered, so a client that sent anything after its transcript (a ping, a stray newline)
        and left was never seen leaving, nor one that sent more than the stream buffers (its transport stops
        reading, and never reads the end of stream)."""
        while not (self.reader.at_eof() or self.writer.is_closing() or self._peer_hung_up()):
            await asyncio.sleep(CLIENT_POLL_SECONDS)

    def _peer_hung_up(self) -> bool:
        """True when the client's socket reports the peer's end of stream or a hang-up/error (unread data or
        not)."""
        sock = self.writer.get_extra_info("socket")
        try:
            fd = sock.fileno() if sock is not None else -1
        except (OSError, ValueError):
            return True
        if fd < 0:
            return sock is not None  # a closed socket; no socket at all (a test's transport): not known
        poller = select.poll()
        poller.register(fd, select.POLLRDHUP)  # POLLHUP, POLLERR and POLLNVAL are always reported
        return bool(poller.poll(0))

    def _event_began(self) -> None:
        self.mid_event = True

    def idle_for(self, now: float) -> float | None:
        """Seconds this connection has been idle enough to be closed for a new one, or None when it is busy.

        Idle: waiting for its next event (possibly with a part of it received), with no utterance or text
        stream going, or with one that got no event for :data:`STALE_STREAM_SECONDS`.
        """
        if self.waiting_since is None:
            return None  # an event is being handled (a transcription, a synthesis, an agent turn)
        if (self._audio is not None or self._text is not None) and now - self.last_event < STALE_STREAM_SECONDS:
            return None
        return now - self.last_event

    async def evict(self, code: str, text: str) -> None:
        """Tell the client why with an ``error`` event, then end this connection's reading."""
        await self._send_error(code, text)
        self._is_running = False
        with contextlib.suppress(Exception):
            self.writer.close()

    async def disconnect(self) -> None:
        """Release what the connection still holds (queued decoding or synthesis is cancelled)."""
        if self._audio is not None:
            _LOGGER.info("Client %s left during an utterance; dropping it", self._peer)
            self._drop_audio()
        text, self._text = self._text, None
        if text is not None:
            _LOGGER.info("Client %s left during a text stream; stopping it", self._peer)
            await self._end_text_stream(text, cancel=True)

    async def _send_error(self, code: str, text: str) -> None:
        with contextlib.suppress(ConnectionError, OSError, RuntimeError):
            await self.write_event(Error(text=text, code=code).event())

    async def handle_event(self, event: Event) -> bool:
        """Dispatch one event. Always True (keep the connection) unless the client is gone."""
        parsed: Eventable | None = None
        for cls in _EVENT_CLASSES:
            if cls.is_type(event.type):
                try:
                    parsed = cls.from_event(event)
                except (KeyError, TypeError, ValueError, AttributeError) as err:
                    _LOGGER.warning("Malformed %s event from %s: %r", event.type, self._peer, err)
                    await self._send_error("invalid_event", f"malformed {event.type} event: {err!r}")
                    return True
                break
        if parsed is None:
            _LOGGER.warning("Unsupported event type %r from %s", event.type, self._peer)
            await self._send_error("unknown_event", f"unsupported event type: {event.type}")
            return True
        try:
            await self._dispatch(parsed, event)
        except _Rejected as err:
            _LOGGER.warning("Rejected %s from %s: %s (%s)", event.type, self._peer, err.text, err.code)
            await self._send_error(err.code, err.text)
        except (ConnectionError, OSError):
            return False
        except Exception as err:  # noqa: BLE001 - a bug must not end the server or this connection
            _LOGGER.exception("Error while handling %s from %s", event.type, self._peer)
            await self._send_error("internal_error", f"{type(err).__name__}: {err}")
        return True

    async def _dispatch(self, request: Eventable, event: Event) -> None:
        if isinstance(request, Describe):
            # Built per request (cheap) so it shows the exact model languages once the model is loaded.
            info = self._info or build_info(self.stt, self.tts, self._version)
            await self.write_event(info.event())
        elif isinstance(request, Ping):
            await self.write_event(Pong(text=request.text if isinstance(request.text, str) else None).event())
        elif isinstance(request, SelectProgram):
            if request.name not in (ASR_PROGRAM, TTS_PROGRAM, HANDLE_PROGRAM):
                raise _Rejected("unknown_program", f"no program named {request.name!r}")
        elif isinstance(request, Transcribe):
            if self._audio is not None:
                _LOGGER.warning("transcribe from %s during an utterance: dropping that utterance", self._peer)
                self._drop_audio()
            self._language = request.language if isinstance(request.language, str) else None
        elif isinstance(request, AudioStart):
            self._audio_start(request)
        elif isinstance(request, AudioChunk):
            await self._audio_chunk(request)
        elif isinstance(request, AudioStop):
            await self._audio_stop()
        elif isinstance(request, Synthesize):
            await self._synthesize(request, event)
        elif isinstance(request, SynthesizeStart):
            await self._synthesize_start(request, event)
        elif isinstance(request, SynthesizeChunk):
            await self._synthesize_chunk(request)
        elif isinstance(request, SynthesizeStop):
            await self._synthesize_stop()
        elif isinstance(request, Transcript):
            await self._handle_transcript(request)

    # ----------------------------------------------------------------- asr
    def _drop_audio(self) -> None:
        stream, self._audio = self._audio, None
        if stream is not None and stream.utterance is not None:
            stream.utterance.close()

    def _audio_start(self, start: AudioStart) -> None:
        if self._audio is not None:
            _LOGGER.warning("audio-start from %s during an utterance: starting over", self._peer)
            self._drop_audio()
        self._orphan_audio_reported = False
        language, self._language = self._language, None
        stream = _AudioStream(PcmNormalizer(), None, language=language)
        self._audio = stream
        try:
            check_format(start.rate, start.width, start.channels)
        except ValueError as err:
            stream.rejected = True
            raise _Rejected("unsupported_audio_format", str(err)) from err
        try:
            stream.utterance = self.stt.start(language)
        except ValueError as err:
            stream.rejected = True
            raise _Rejected("unsupported_language", str(err)) from err

    def _reject_audio(self, stream: _AudioStream, code: str, text: str) -> _Rejected:
        stream.rejected = True
        if stream.utterance is not None:
            stream.utterance.close()
            stream.utterance = None
        return _Rejected(code, text)

    async def _audio_chunk(self, chunk: AudioChunk) -> None:
        stream = self._audio
        if stream is None:
            if self._orphan_audio_reported:
                return
            self._orphan_audio_reported = True
            raise _Rejected("audio_not_started", "audio-chunk before audio-start")
        if stream.rejected or stream.answered or stream.utterance is None:
            return
        try:
            pcm = stream.normalizer.convert(chunk.audio, chunk.rate, chunk.width, chunk.channels)
        except ValueError as err:
            raise self._reject_audio(stream, "unsupported_audio_format", str(err)) from err
        room = stream.utterance.bytes_left
        too_long = len(pcm) > room
        try:
            stream.utterance.add(pcm[:room] if too_long else pcm)
        except BusyError as err:
            raise self._reject_audio(stream, "busy", str(err)) from err
        if too_long:
            # Like Home Assistant's VoiceCommandSegmenter at its timeout (assist_pipeline/vad.py: the command
            # ends and what was heard is used), the utterance ends at the limit: its transcript is sent now,
            # the rest of the audio and the audio-stop are dropped quietly.
            _LOGGER.warning("Utterance from %s passed the %g s limit: transcribing what came before it",
                            self._peer, self.stt.max_seconds)
            stream.answered = True
            await self._transcribe(stream)
            return
        if self.stt.streaming:
            chunks = stream.utterance.take_chunks()
            if chunks:
                await self._send_transcript_chunks(stream, chunks)

    async def _send_transcript_chunks(self, stream: _AudioStream, chunks: list[str]) -> None:
        if not stream.transcript_started:
            stream.transcript_started = True
            language = stream.language or (stream.utterance.language if stream.utterance else None)
            await self.write_event(TranscriptStart(language=language).event())
        for text in chunks:
            await self.write_event(TranscriptChunk(text=text).event())
        stream.chunks_sent += len(chunks)

    async def _audio_stop(self) -> None:
        stream, self._audio = self._audio, None
        if stream is None:
            if self._orphan_audio_reported:
                self._orphan_audio_reported = False
                return
            raise _Rejected("audio_not_started", "audio-stop before audio-start")
        if stream.rejected or stream.answered or stream.utterance is None:
            return
        await self._transcribe(stream)

    async def _transcribe(self, stream: _AudioStream) -> None:
        """Finish the utterance and send its transcript (an empty one for an utterance without audio, as
        faster-whisper gives for silence: Home Assistant then reports "no text recognized" itself)."""
        utterance = stream.utterance
        assert utterance is not None
        if utterance.seconds == 0:
            utterance.close()
            language = stream.language or utterance.language or self.stt.language
            if self.stt.streaming:
                await self.write_event(TranscriptStart(language=language).event())
                await self.write_event(TranscriptStop().event())
            await self.write_event(Transcript(text="", language=language).event())
            return
        started = time.monotonic()
        try:
            result = await utterance.finish()
        except BusyError as err:
            raise _Rejected("busy", str(err)) from err
        except ValueError as err:
            raise _Rejected("transcription_failed", str(err)) from err
        except Exception as err:
            _LOGGER.exception("Speech-to-text failed")
            raise _Rejected("transcription_failed", f"speech-to-text failed: {err}") from err
        _LOGGER.info("Transcribed %.1f s of audio %.2f s after audio-stop (%d passes, %d fallbacks): %r",
                     result.seconds, time.monotonic() - started, result.passes, result.fallbacks, result.text)
        language = stream.language or result.language or self.stt.language
        if self.stt.streaming:
            await self._send_transcript_chunks(stream, result.chunks[stream.chunks_sent:])
            await self.write_event(TranscriptStop().event())
        await self.write_event(Transcript(text=result.text, language=language).event())

    # ----------------------------------------------------------------- tts
    def _open_speech(self, voice: SynthesizeVoice | None, event: Event) -> SpeechStream:
        name = voice.name if voice is not None and isinstance(voice.name, str) else None
        speaker = voice.speaker if voice is not None and isinstance(voice.speaker, (str, int)) else None
        language = voice.language if voice is not None and isinstance(voice.language, str) else None
        try:
            options = parse_options(event.data)
            return self.tts.open(voice=name, speaker=speaker, language=language, **options)
        except ValueError as err:
            raise _Rejected("invalid_voice", str(err)) from err

    async def _write_audio(self, speech: SpeechStream, audio: bytes, send_start: bool) -> None:
        """Write one piece of audio as audio-chunk events (audio-start first when ``send_start``)."""
        rate, width, channels = speech.rate, speech.width, speech.channels
        if send_start:
            await self.write_event(AudioStart(rate=rate, width=width, channels=channels).event())
        step = SAMPLES_PER_CHUNK * width * channels
        for offset in range(0, len(audio), step):
            await self.write_event(
                AudioChunk(rate=rate, width=width, channels=channels, audio=audio[offset:offset + step]).event())

    async def _synthesize(self, request: Synthesize, event: Event) -> None:
        if self._text is not None:
            # Inside a text stream HA also sends the whole message for older servers: already spoken.
            return
        if not isinstance(request.text, str):
            raise _Rejected("invalid_text", "synthesize text must be a string")
        speech = self._open_speech(request.voice, event)
        started = time.monotonic()
        first_audio: float | None = None
        try:
            try:
                speech.feed(_plain_text(request.text, request.text_format))
                speech.end()
            except ValueError as err:
                raise _Rejected("invalid_text", str(err)) from err
            except BusyError as err:
                raise _Rejected("busy", str(err)) from err
            if not speech.has_text:
                raise _Rejected("invalid_text", "nothing to say in that text")
            try:
                async for audio in speech.audio():
                    await self._write_audio(speech, audio, send_start=first_audio is None)
                    first_audio = first_audio or time.monotonic()
            except (ConnectionError, OSError):
                raise
            except Exception as err:
                _LOGGER.exception("Text-to-speech failed")
                raise _Rejected("synthesis_failed", f"text-to-speech failed: {err}") from err
        finally:
            speech.close()
        if first_audio is None:
            raise _Rejected("invalid_text", "nothing to say in that text")
        await self.write_event(AudioStop().event())
        _LOGGER.info("Synthesized %d characters: first audio after %.2f s, all after %.2f s", len(request.text),
                     first_audio - started, time.monotonic() - started)

    async def _synthesize_start(self, request: SynthesizeStart, event: Event) -> None:
        if self._text is not None:
            _LOGGER.warning("synthesize-start from %s inside a text stream: starting over", self._peer)
            old, self._text = self._text, None
            await self._end_text_stream(old, cancel=True)
        stream = _TextStream(speech=None)
        self._text = stream
        try:
            stream.speech = self._open_speech(request.voice, event)
        except _Rejected:
            stream.failed = True
            raise
        stream.task = asyncio.create_task(self._speak_stream(stream, stream.speech))

    async def _speak_stream(self, stream: _TextStream, speech: SpeechStream) -> None:
        """Background task of a text stream: writes audio as the pieces come out of synthesis."""
        try:
            async for audio in speech.audio():
                await self._write_audio(speech, audio, send_start=not stream.audio_started)
                stream.audio_started = True
        except (ConnectionError, OSError) as err:
            _LOGGER.info("Client %s left while audio was being sent: %s", self._peer, err)
            stream.failed = True
        except Exception as err:  # noqa: BLE001 - reported to the client; the connection stays usable
            _LOGGER.exception("Text-to-speech failed")
            stream.failed = True
            speech.close()
            await self._send_error("synthesis_failed", f"text-to-speech failed: {err}")

    async def _synthesize_chunk(self, request: SynthesizeChunk) -> None:
        stream = self._text
        if stream is None:
            raise _Rejected("synthesize_not_started", "synthesize-chunk before synthesize-start")
        if stream.failed or stream.speech is None:
            return
        try:
            stream.speech.feed(request.text)
        except (ValueError, BusyError) as err:
            stream.failed = True
            stream.speech.close()
            code = "busy" if isinstance(err, BusyError) else "invalid_text"
            raise _Rejected(code, str(err)) from err

    async def _end_text_stream(self, stream: _TextStream, cancel: bool) -> None:
        speech = stream.speech
        if speech is not None:
            if cancel:
                speech.close()
            else:
                try:
                    speech.end()
                except BusyError as err:
                    stream.failed = True
                    speech.close()
                    await self._send_error("busy", str(err))
        if stream.task is not None:
            if cancel:
                stream.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await stream.task
        if speech is not None:
            speech.close()

    async def _synthesize_stop(self) -> None:
        stream, self._text = self._text, None
        if stream is None:
            raise _Rejected("synthesize_not_started", "synthesize-stop before synthesize-start")
        # The error of a failed stream went first: HA's streaming reader stops reading at synthesize-stopped.
        await self._end_text_stream(stream, cancel=False)
        if stream.audio_started and not stream.failed:
            await self.write_event(AudioStop().event())
        await self.write_event(SynthesizeStopped().event())

    # ----------------------------------------------------------------- handle (agent)
    async def _handle_transcript(self, transcript: Transcript) -> None:
        if self.agent is None:
            raise _Rejected("no_agent", "no agent is configured on this server")
        if not isinstance(transcript.text, str):
            raise _Rejected("invalid_event", "transcript text must be a string")
        context: dict[str, Any] = transcript.context if isinstance(transcript.context, dict) else {}
        conversation_id = context.get("conversation_id")
        if conversation_id is not None:
            conversation_id = str(conversation_id)
        language = transcript.language if isinstance(transcript.language, str) else None
        started = time.monotonic()
        turn = asyncio.ensure_future(self.agent.ask(transcript.text, conversation_id=conversation_id,
                                                    language=language, channel=self._channel))
        # Its outcome is always seen: a turn that failed just as this task was cancelled (server stop) was
        # logged as "Task exception was never retrieved".
        turn.add_done_callback(_seen)
        gone = asyncio.ensure_future(self._client_gone())
        try:
            await asyncio.wait({turn, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
            if not turn.done():  # the client left (or the connection is being stopped): stop the turn
                turn.cancel()
                await asyncio.wait({turn})
        if turn.cancelled():
            _LOGGER.info("Client %s left during a turn; stopped it", self._peer)
            raise ConnectionResetError("the client left during the turn")
        try:
            reply = turn.result()
        except AgentError as err:
            _LOGGER.warning("Agent could not answer (%s): %s", err.code, err.message)
            answer, reply_context = err.message, {"error_code": err.code}
            if conversation_id is not None:
                reply_context["conversation_id"] = conversation_id
        except Exception:
            _LOGGER.exception("Agent failed")
            answer, reply_context = AGENT_FAILED_MESSAGE, {"error_code": "internal_error"}
            if conversation_id is not None:
                reply_context["conversation_id"] = conversation_id
        else:
            answer = reply.answer
            reply_context = {"conversation_id": reply.conversation_id or conversation_id,
                             "continue_conversation": bool(reply.continue_conversation)}
        _LOGGER.info("Answered %r in %.1f s: %r", transcript.text, time.monotonic() - started, answer)
        await self.write_event(Handled(text=answer, context=reply_context).event())


def _seen(future: asyncio.Future) -> None:
    if not future.cancelled():
        future.exception()


def _event_bytes(event: Event) -> bytes:
    """One event as it goes on the wire (header line, no data or payload)."""
    header = {"type": event.type, "data": event.data, "version": "1.10.2"}
    return (json.dumps(header, ensure_ascii=False) + "\n").encode()


def wyoming_channel(writer: asyncio.StreamWriter) -> str:
    """The agent channel of a Wyoming connection: ``wyoming:<peer host>`` (``wyoming:local`` for a unix socket).

    The host, not the connection: Home Assistant's Wyoming conversation entity opens a new TCP connection
    for every turn (``WyomingConversationEntity.async_process`` in HA core's
    ``homeassistant/components/wyoming/conversation.py`` wraps each ``transcript`` with
    ``context.conversation_id`` in its own ``AsyncTcpClient``), so the answer to a confirmation question
    arrives on another connection from the same host. The Wyoming protocol has no authentication; the
    peer address is the only identity it offers.
    """
    peer = writer.get_extra_info("peername")
    if isinstance(peer, tuple) and peer:
        return f"wyoming:{peer[0]}"
    return "wyoming:local"


def _peer_name(writer: asyncio.StreamWriter) -> str:
    peer = writer.get_extra_info("peername")
    if isinstance(peer, tuple) and len(peer) >= 2:
        return f"{peer[0]}:{peer[1]}"
    return str(peer or "client")


_TAG = re.compile(r"<[^>]{0,200}>")


def _plain_text(text: str, text_format: Any) -> str:
    """The text to speak: SSML tags are dropped (piper reads plain text)."""
    if text_format == SynthesizeTextFormat.SSML or text_format == "ssml":
        return html.unescape(_TAG.sub(" ", text))
    return text


# ---------------------------------------------------------------------------------------------- server


class WyomingServer:
    """A Wyoming server on ``tcp://HOST:PORT`` (PORT 0 = any free port) or ``unix://PATH``.

    ``await start()`` returns the bound TCP port (0 for unix sockets); ``await stop()`` closes the listener
    and every open connection. Each connection gets its own :class:`O1EventHandler`; the speech services
    and the agent are shared. ``max_connections``, ``idle_seconds`` and ``frame_seconds``: see
    :data:`MAX_CONNECTIONS`, :data:`IDLE_SECONDS` and :data:`FRAME_SECONDS`.

    Every client is first checked by ``peer_guard`` (default: a :class:`~o1_server.peer_guard.PeerGuard`
    auditing to the agent's audit log): a client whose socket belongs to generated code gets one ``error``
    event with code ``sandbox_peer`` and is closed before any of its events is read.
    """

    def __init__(self, uri: str, stt: SpeechToText, tts: TextToSpeech, agent: Agent | None,
                 version: str, *, max_connections: int = MAX_CONNECTIONS,
                 idle_seconds: float | None = IDLE_SECONDS, frame_seconds: float | None = FRAME_SECONDS,
                 peer_guard: PeerGuard | None = None) -> None:
        parsed = urlparse(uri)
        if parsed.scheme == "tcp":
            if parsed.hostname is None or parsed.port is None:
                raise ValueError(f"a tcp:// URI needs a host and a port: {uri!r}")
        elif parsed.scheme == "unix":
            if not parsed.path:
                raise ValueError(f"a unix:// URI needs a socket path: {uri!r}")
        else:
            raise ValueError(f"only tcp:// and unix:// URIs are supported: {uri!r}")
        self.uri = uri
        self._parsed = parsed
        self.stt, self.tts, self.agent, self.version = stt, tts, agent, version
        self._server: asyncio.AbstractServer | None = None
        self._connections: dict[asyncio.Task[Any], O1EventHandler] = {}
        self.max_connections = max_connections
        self.idle_seconds = idle_seconds
        self.frame_seconds = frame_seconds
        self.port = 0
        """Bound TCP port once started (0 for unix sockets)."""
        self.guard = peer_guard or PeerGuard.for_agent("wyoming", agent)

    async def _make_room(self) -> bool:
        """Close the idlest connection (see :meth:`O1EventHandler.idle_for`); False when none is idle."""
        now = time.monotonic()
        idle = [(seconds, task, handler) for task, handler in self._connections.items()
                if (seconds := handler.idle_for(now)) is not None]
        if not idle:
            return False
        seconds, task, handler = max(idle, key=lambda item: item[0])
        _LOGGER.warning("Closing the connection from %s (idle %.1f s) to make room for a new one",
                        handler._peer, seconds)
        self._connections.pop(task, None)
        # Closing its socket ends its read at once (end of stream); its task then finishes on its own.
        await handler.evict("idle_timeout", f"closed after {seconds:.1f} s idle to make room for another client")
        return True

    async def _on_connect(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        # Before anything else (even making room, which would close another client's connection).
        verdict = await self.guard.check(writer)
        if not verdict.allowed:
            with contextlib.suppress(ConnectionError, OSError, TimeoutError):
                writer.write(_event_bytes(Error(text=f"connection refused: {verdict.reason}",
                                                code=SANDBOX_PEER).event()))
                await asyncio.wait_for(writer.drain(), 2.0)
            writer.close()
            return
        if len(self._connections) >= self.max_connections and not await self._make_room():
            _LOGGER.warning("Refusing a connection from %s: %d connections are open", _peer_name(writer),
                            len(self._connections))
            with contextlib.suppress(ConnectionError, OSError):
                text = f"the server is serving {len(self._connections)} connections; try again later"
                writer.write(_event_bytes(Error(text=text, code="busy").event()))
                await writer.drain()
            writer.close()
            return
        handler = O1EventHandler(reader, writer, stt=self.stt, tts=self.tts, agent=self.agent,
                                 version=self.version, idle_seconds=self.idle_seconds,
                                 frame_seconds=self.frame_seconds)
        task = asyncio.current_task()
        assert task is not None
        self._connections[task] = handler
        try:
            await handler.run()
        except asyncio.CancelledError:
            pass  # stop(): the connection task is the top of its stack (a cancelled one would be logged)
        finally:
            self._connections.pop(task, None)

    async def start(self) -> int:
        """Start listening; returns the bound TCP port (0 for unix sockets)."""
        if self._server is not None:
            return self.port
        if self._parsed.scheme == "tcp":
            self._server = await asyncio.start_server(self._on_connect, host=self._parsed.hostname,
                                                      port=self._parsed.port)
            self.port = self._server.sockets[0].getsockname()[1]
        else:
            Path(self._parsed.path).unlink(missing_ok=True)
            self._server = await asyncio.start_unix_server(self._on_connect, path=self._parsed.path)
        _LOGGER.info("Wyoming server listening on %s (port %d)", self.uri, self.port)
        return self.port

    async def stop(self) -> None:
        """Stop listening and close every open connection."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
        tasks = list(self._connections)
        for handler in list(self._connections.values()):
            with contextlib.suppress(Exception):
                await handler.stop()
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        if server is not None:
            await server.wait_closed()
        if self._parsed.scheme == "unix":
            Path(self._parsed.path).unlink(missing_ok=True)


async def serve_wyoming(uri: str, stt: SpeechToText, tts: TextToSpeech, agent: Agent | None,
                        version: str) -> None:
    """Serve Wyoming on ``uri`` (e.g. ``"tcp://0.0.0.0:10700"``) until cancelled, then close cleanly."""
    server = WyomingServer(uri, stt, tts, agent, version)
    await server.start()
    try:
        await asyncio.Event().wait()
    finally:
        await server.stop()
