"""The ``asr`` program's events on one connection: ``transcribe``, ``audio-start``/``-chunk``/``-stop``.

A mixin of :class:`.O1EventHandler` (which provides ``write_event``, ``stt``, ``_peer`` and the connection's
state); the speech-to-text itself is :mod:`o1_server.stt`'s.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from wyoming.asr import Transcript, TranscriptChunk, TranscriptStart, TranscriptStop
from wyoming.audio import AudioChunk, AudioStart

from ..stt import BusyError, PcmNormalizer, SpeechToText, Utterance, check_format
from .base import _HandlerBase
from .errors import _Rejected

_LOGGER = logging.getLogger(__package__)  # "o1_server.wyoming_server", its name before the package split


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


class AsrEvents(_HandlerBase):
    """Speech-to-text requests: an utterance is received, converted and transcribed."""

    stt: SpeechToText
    _language: str | None
    _audio: _AudioStream | None
    _orphan_audio_reported: bool

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
            _LOGGER.warning(
                "Utterance from %s passed the %g s limit: transcribing what came before it",
                self._peer,
                self.stt.max_seconds,
            )
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
        _LOGGER.info(
            "Transcribed %.1f s of audio %.2f s after audio-stop (%d passes, %d fallbacks): %r",
            result.seconds,
            time.monotonic() - started,
            result.passes,
            result.fallbacks,
            result.text,
        )
        language = stream.language or result.language or self.stt.language
        if self.stt.streaming:
            await self._send_transcript_chunks(stream, result.chunks[stream.chunks_sent :])
            await self.write_event(TranscriptStop().event())
        await self.write_event(Transcript(text=result.text, language=language).event())
