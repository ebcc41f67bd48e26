"""One Wyoming connection (:class:`O1EventHandler`): reading events in turn with the others, dispatching them.

The events of each program are handled by a mixin: :mod:`.asr_events`, :mod:`.tts_events` and
:mod:`.handle_events`; reading is :mod:`.reading`'s. Accepting connections is :mod:`.server`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from wyoming.asr import Transcribe, Transcript
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.error import Error
from wyoming.event import Event, Eventable
from wyoming.info import Describe, Info, SelectProgram
from wyoming.ping import Ping, Pong
from wyoming.server import AsyncEventHandler
from wyoming.tts import Synthesize, SynthesizeChunk, SynthesizeStart, SynthesizeStop

from ..agent.types import Agent
from ..stt import SpeechToText
from ..tts import TextToSpeech
from .asr_events import AsrEvents, _AudioStream
from .errors import _Rejected
from .handle_events import HandleEvents
from .info import ASR_PROGRAM, HANDLE_PROGRAM, TTS_PROGRAM, build_info
from .peers import _peer_name, wyoming_channel
from .reading import FRAME_SECONDS, IDLE_SECONDS, _FramingError, _read_event, _ReadTimeout
from .tts_events import TtsEvents, _TextStream

_LOGGER = logging.getLogger(__package__)  # "o1_server.wyoming_server", its name before the package split

STALE_STREAM_SECONDS = 5.0
"""An utterance or text stream that got no event for this long no longer protects its connection from being
closed to make room (Home Assistant streams audio in real time, about every 10..100 ms)."""

# Event types this handler understands, parsed with the wyoming package's own classes.
_EVENT_CLASSES: tuple[type[Eventable], ...] = (
    Describe,
    Ping,
    SelectProgram,
    Transcribe,
    AudioStart,
    AudioChunk,
    AudioStop,
    Synthesize,
    SynthesizeStart,
    SynthesizeChunk,
    SynthesizeStop,
    Transcript,
)


class O1EventHandler(AsrEvents, TtsEvents, HandleEvents, AsyncEventHandler):
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
                    event = await _read_event(
                        self.reader, self.idle_seconds, self.frame_seconds, on_begin=self._event_began
                    )
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
        except Exception as err:  # a bug must not end the server or this connection
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
