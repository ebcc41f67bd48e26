"""The ``tts`` program's events on one connection: ``synthesize`` and the streamed ``synthesize-start``...

A mixin of :class:`.O1EventHandler` (which provides ``write_event``, ``_send_error``, ``tts``, ``_peer`` and
the connection's state); the synthesis itself is :mod:`o1_server.tts`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import re
import time
from dataclasses import dataclass
from typing import Any

from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.event import Event
from wyoming.tts import (
    Synthesize,
    SynthesizeChunk,
    SynthesizeStart,
    SynthesizeStopped,
    SynthesizeTextFormat,
    SynthesizeVoice,
)

from ..stt import BusyError
from ..tts import SpeechStream, TextToSpeech, parse_options
from ..voice_config import NoVoiceForLanguageError
from .base import _HandlerBase
from .errors import _Rejected

_LOGGER = logging.getLogger(__package__)  # "o1_server.wyoming_server", its name before the package split

SAMPLES_PER_CHUNK = 1024
"""Samples per ``audio-chunk`` event sent by text-to-speech (about 46 ms at 22,050 Hz)."""


@dataclass
class _TextStream:
    """A streamed synthesis request (synthesize-start ... synthesize-stop)."""

    speech: SpeechStream | None
    task: asyncio.Task[None] | None = None
    audio_started: bool = False
    failed: bool = False


class TtsEvents(_HandlerBase):
    """Text-to-speech requests: a whole text, or a text stream spoken sentence by sentence as it comes."""

    tts: TextToSpeech
    _text: _TextStream | None

    def _open_speech(self, voice: SynthesizeVoice | None, event: Event) -> SpeechStream:
        name = voice.name if voice is not None and isinstance(voice.name, str) else None
        speaker = voice.speaker if voice is not None and isinstance(voice.speaker, (str, int)) else None
        language = voice.language if voice is not None and isinstance(voice.language, str) else None
        try:
            options = parse_options(event.data)
            return self.tts.open(voice=name, speaker=speaker, language=language, **options)
        except NoVoiceForLanguageError as err:
            raise _Rejected("unsupported_language", str(err)) from err
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
                AudioChunk(rate=rate, width=width, channels=channels, audio=audio[offset : offset + step]).event()
            )

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
        _LOGGER.info(
            "Synthesized %d characters: first audio after %.2f s, all after %.2f s",
            len(request.text),
            first_audio - started,
            time.monotonic() - started,
        )

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
        except Exception as err:  # reported to the client; the connection stays usable
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


_TAG = re.compile(r"<[^>]{0,200}>")


def _plain_text(text: str, text_format: Any) -> str:
    """The text to speak: SSML tags are dropped (piper reads plain text)."""
    if text_format == SynthesizeTextFormat.SSML or text_format == "ssml":
        return html.unescape(_TAG.sub(" ", text))
    return text
