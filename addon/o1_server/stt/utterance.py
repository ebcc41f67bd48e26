"""One utterance being received: voice activity as the audio arrives, early and final decoding passes.

:class:`Utterance` plans the passes (at pauses, at the end) and hands them to :class:`.SpeechToText`, which
decodes them and checks each result (with the repeat detection at the end of this module). How the passes
keep the delay after the last audio small: ``docs/speech.md``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import re
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from .audio import WHISPER_RATE, WHISPER_WIDTH
from .tuning import (
    COMMIT_PAUSE_SECONDS,
    EARLY_LOG_PROB_THRESHOLD,
    EARLY_NO_SPEECH_THRESHOLD,
    EARLY_PAUSE_SECONDS,
    EDGE_PAD_SECONDS,
    LIVE_EDGE_SECONDS,
    MAX_WORDS_PER_SECOND,
    MIN_SPEECH_WINDOWS,
    MIN_WORDS_PER_SECOND,
    SILENCE_THRESHOLD,
    SPEECH_THRESHOLD,
    VAD_WINDOW,
)
from .vad import _StreamingVad
from .workers import BusyError

if TYPE_CHECKING:
    from .service import SpeechToText

_LOGGER = logging.getLogger(__package__)


class _Decoded(NamedTuple):
    """One pass's result: text, language (None: unknown), whether its first result was rejected, and the
    fitted window's average log-probability and no-speech probability (0.0 for the standard way)."""

    text: str
    language: str | None
    fell_back: bool
    avg_logprob: float = 0.0
    no_speech_prob: float = 0.0


@dataclass
class _Pass:
    """One decoding pass over ``[start, end)`` samples of an utterance; ``early`` when started at a pause
    before the end of the audio, ``speech`` the VAD windows from its first to its last activity."""

    start: int
    end: int
    future: concurrent.futures.Future[_Decoded]
    committed: bool = False
    early: bool = False
    speech: int = 0
    check: concurrent.futures.Future[_Decoded] | None = None  # accurate mode: the same audio decoded the standard way
    standard: bool = False  # decoded the standard way (the reference server's decode): final as it is

    def cancel(self) -> None:
        self.future.cancel()
        if self.check is not None:
            self.check.cancel()


def doubt(decoded: _Decoded, speech_seconds: float) -> str:
    """Why a fitted-window result (an early pass's above all) is not to be trusted ("" when it is sound):
    its first window was rejected, whisper was unsure of it (low average log-probability, or a fair chance
    of no speech), or it holds too few or too many words for ``speech_seconds`` (seconds from the first to
    the last voice activity it was decoded from; 0 skips that check). Thresholds: :mod:`.tuning`."""
    words = len(decoded.text.split())
    if decoded.fell_back:
        return "its first window was rejected"
    if decoded.avg_logprob < EARLY_LOG_PROB_THRESHOLD:
        return f"average log-probability {decoded.avg_logprob:.2f}"
    if decoded.no_speech_prob > EARLY_NO_SPEECH_THRESHOLD:
        return f"no-speech probability {decoded.no_speech_prob:.2f}"
    if speech_seconds > 0 and not MIN_WORDS_PER_SECOND <= words / speech_seconds <= MAX_WORDS_PER_SECOND:
        return f"{words} words for {speech_seconds:.1f} s of speech"
    return ""


def disagreement(decoded: _Decoded, check: _Decoded) -> str:
    """Why an early fitted-window result is not to be trusted when ``check`` (the same audio decoded the
    standard way, as the reference server decodes) hears other words ("" when the words are the same; case
    and punctuation are ignored)."""
    if _words(decoded.text) == _words(check.text):
        return ""
    return f"the standard decode heard {check.text!r}"


@dataclass
class TranscriptResult:
    """What an utterance was heard as.

    Attributes:
        text: the transcript (segments joined with single spaces).
        language: ISO 639-1 code used or detected, or None when unknown.
        chunks: the transcript in streaming pieces; ``"".join(chunks) == text``.
        seconds: audio duration, in seconds.
        passes: decoding passes run for this utterance (including ones whose result was discarded).
        fallbacks: passes whose first result failed its checks and were decoded again.
    """

    text: str
    language: str | None
    chunks: list[str] = field(default_factory=list)
    seconds: float = 0.0
    passes: int = 0
    fallbacks: int = 0


class Utterance:
    """One utterance being received; created by :meth:`SpeechToText.start`.

    Call :meth:`add` with 16 kHz / 16-bit / mono PCM as it arrives (on the event loop; cheap: the audio is
    appended and analysed on a background thread), then ``await`` :meth:`finish`. Segments that became
    final while audio was still arriving can be taken with :meth:`take_chunks` (for ``transcript-chunk``
    events). :meth:`close` abandons the utterance and cancels its queued work.
    """

    def __init__(self, stt: SpeechToText, language: str | None) -> None:
        self._stt = stt
        self.language = language
        self._accurate = stt.decoding in ("accurate", "reference")
        self._audio = np.zeros(WHISPER_RATE * 4, np.float32)
        self._samples = 0
        self._carry = b""
        self._closed = False
        self._finished = False
        self._vad_queued = False
        # State below is only touched on the VAD thread (and read by finish after the VAD is drained).
        self._vad_state = _StreamingVad.new_state()
        self._windows = 0  # windows analysed
        self._seg_start = 0  # first sample of the open segment
        self._seg_speech = 0  # speech windows in the open segment
        self._seg_first_active = -1  # first window with activity (>= SILENCE_THRESHOLD) in the segment
        self._last_active = -1  # last window with activity (any segment)
        self._pass: _Pass | None = None  # latest decoding pass of the open segment
        self._committed: list[_Pass] = []
        self._passes = 0
        self._chunks_taken = 0
        self._chunk_lock = threading.Lock()

    # ----------------------------------------------------------------- loop side
    @property
    def seconds(self) -> float:
        """Audio received so far, in seconds."""
        return self._samples / WHISPER_RATE

    @property
    def bytes_left(self) -> int:
        """Bytes of 16 kHz 16-bit mono PCM :meth:`add` still accepts before ``max_seconds`` is reached."""
        return max(0, int(self._stt.max_seconds * WHISPER_RATE) - self._samples) * WHISPER_WIDTH

    def add(self, pcm: bytes) -> None:
        """Append 16,000 Hz, 16-bit, mono PCM.

        Raises:
            ValueError: the utterance would pass the configured ``max_seconds``.
            BusyError: the voice activity detector's queue is full.
        """
        if self._closed or self._finished:
            return
        data = self._carry + bytes(pcm)
        whole = len(data) - len(data) % WHISPER_WIDTH
        self._carry = data[whole:]
        if not whole:
            return
        samples = np.frombuffer(data[:whole], dtype="<i2").astype(np.float32) / 32768.0
        if (self._samples + len(samples)) / WHISPER_RATE > self._stt.max_seconds:
            raise ValueError(f"audio is longer than the {self._stt.max_seconds:g} s limit")
        needed = self._samples + len(samples)
        if needed > len(self._audio):
            grown = np.zeros(max(needed, 2 * len(self._audio)), np.float32)
            grown[: self._samples] = self._audio[: self._samples]
            self._audio = grown  # readers holding the old array still see the same prefix
        self._audio[self._samples : needed] = samples
        self._samples = needed
        if not self._vad_queued:
            # At most one analysis job per utterance waits in the queue; it catches up with everything
            # received by the time it starts.
            self._vad_queued = True
            self._stt._vad_worker.submit(self._analyse)

    def take_chunks(self) -> list[str]:
        """Pieces of the transcript that became final since the last call, in order.

        These are the first items of :attr:`TranscriptResult.chunks` (same text, same leading spaces).
        """
        with self._chunk_lock:
            committed = list(self._committed)
        texts: list[str] = []
        for segment in committed:
            future = segment.future
            if not future.done() or future.cancelled() or future.exception() is not None:
                break
            if segment.check is not None and not segment.check.done():
                break  # not checked yet
            if self._doubt(segment, future.result()):
                break  # decoded again at the end of the audio
            texts.append(future.result().text)
        chunks = _chunked([t for t in texts if t])
        ready = chunks[self._chunks_taken :]
        self._chunks_taken = len(chunks)
        return ready

    async def finish(self) -> TranscriptResult:
        """Decode what is left and return the transcript.

        Raises:
            ValueError: no whole sample was received, or the (multilingual) model does not know the
                requested language.
            BusyError: the decoding queue is full.
        """
        if self._finished:
            raise RuntimeError("finish() was already called")
        self._finished = True
        if self._samples == 0:
            raise ValueError("no audio to transcribe")
        try:
            plan = await asyncio.wrap_future(self._stt._vad_worker.submit(self._plan_final, force=True))
            results = [await asyncio.wrap_future(future) for future in plan]
            for segment in self._committed:
                if segment.check is not None:
                    await asyncio.wait([asyncio.wrap_future(segment.check)])  # a failed check: doubtful
            for index, segment in enumerate(self._committed):
                reason = self._doubt(segment, results[index])
                if reason:
                    last = index == len(self._committed) - 1
                    results[index] = await asyncio.wrap_future(self._decode_whole(index, last, reason))
        except BaseException:
            self.close()
            raise
        chunks = _chunked([decoded.text for decoded in results if decoded.text])
        language = next((decoded.language for decoded in results if decoded.language), None) or self.language
        return TranscriptResult(
            text="".join(chunks),
            language=language,
            chunks=chunks,
            seconds=self.seconds,
            passes=self._passes,
            fallbacks=sum(1 for decoded in results if decoded.fell_back),
        )

    def _doubt(self, segment: _Pass, decoded: _Decoded) -> str:
        """Why ``segment``'s result is doubtful, or "". A standard decode is final as it is. Accurate mode: an
        early result is kept only when its check heard the same words (:func:`disagreement`; a check that did not
        run is doubtful). Fast mode: :func:`doubt`; a result that already fell back to the standard way at the
        end of the audio is final as it is."""
        if segment.standard:
            return ""
        if self._accurate and segment.early:
            check = segment.check
            if check is None or check.cancelled() or check.exception() is not None:
                return "its check did not run"
            return disagreement(decoded, check.result())
        if not segment.speech or (decoded.fell_back and not segment.early):
            return ""
        return doubt(decoded, segment.speech * VAD_WINDOW / WHISPER_RATE)

    def _decode_whole(self, index: int, last: bool, reason: str) -> concurrent.futures.Future[_Decoded]:
        """Segment ``index``'s audio (for the ``last`` segment: with everything after it) decoded the
        standard way, as the reference server does, in place of its result, doubtful for ``reason``."""
        segment = self._committed[index]
        _LOGGER.debug("Result %r doubtful (%s): decoding the whole audio", segment.future.result().text, reason)
        end = self._samples if last else segment.end
        samples = self._audio[segment.start : end].copy()
        future = self._stt._decode_worker.submit(self._decode, samples, self._committed[:index], True, force=True)
        segment.future, segment.early, segment.end, segment.standard = future, False, end, True
        segment.check = None
        self._passes += 1
        return future

    def close(self) -> None:
        """Abandon the utterance: its queued decoding is cancelled (a running pass ends on its own)."""
        self._closed = True
        with self._chunk_lock:
            segments = [self._pass, *self._committed]
        for segment in segments:
            if segment is not None:
                segment.cancel()

    # ----------------------------------------------------------------- VAD thread
    def _analyse(self) -> None:
        """Run the detector over the whole windows received so far and plan decoding passes."""
        self._vad_queued = False
        if self._closed:
            return
        available = self._samples  # read before the array: a newer array always holds the older prefix
        audio = self._audio
        total = available // VAD_WINDOW
        if total <= self._windows:
            return
        windows = audio[self._windows * VAD_WINDOW : total * VAD_WINDOW].reshape(-1, VAD_WINDOW)
        probs = self._stt._vad().process(windows, self._vad_state)
        first = self._windows
        self._windows = total
        for offset, prob in enumerate(probs):
            self._on_window(first + offset, float(prob), audio)

    def _on_window(self, index: int, prob: float, audio: np.ndarray) -> None:
        if prob >= SILENCE_THRESHOLD:
            self._last_active = index
            if self._seg_first_active < 0:
                self._seg_first_active = index
            if prob >= SPEECH_THRESHOLD:
                self._seg_speech += 1
            current = self._pass
            if current is not None and current.end <= index * VAD_WINDOW:
                # Speech resumed after the pass's audio: its text is not the whole segment any more.
                current.cancel()
                self._pass = None
            return
        if self._seg_speech < MIN_SPEECH_WINDOWS:
            return
        pause = (index - self._last_active) * VAD_WINDOW / WHISPER_RATE
        end = (index + 1) * VAD_WINDOW
        if self._pass is None and pause >= EARLY_PAUSE_SECONDS and self._stt.early_decoding:
            # Only at the live edge of the stream: when more audio is already buffered (it came faster
            # than real time), the pause is history and the pass would likely be thrown away. When the
            # decoder is busy, the work is left to audio-stop as well.
            live = self._samples - end <= LIVE_EDGE_SECONDS * WHISPER_RATE
            if live and self._stt._decode_worker.pending < 2:
                self._pass = self._submit_pass(self._seg_start, end, audio, force=False)
                if self._pass is not None:
                    self._pass.early = True
                    self._pass.speech = self._last_active - max(self._seg_first_active, 0) + 1
                    if self._accurate:
                        self._pass.check = self._submit_check(self._seg_start, end, audio)
        if self._pass is not None and pause >= COMMIT_PAUSE_SECONDS:
            self._commit(self._pass)

    def _commit(self, segment: _Pass) -> None:
        segment.committed = True
        with self._chunk_lock:
            self._committed.append(segment)
        self._pass = None
        self._seg_start = segment.end
        self._seg_speech = 0
        self._seg_first_active = -1

    def _submit_pass(
        self, start: int, end: int, audio: np.ndarray, force: bool, standard: bool = False
    ) -> _Pass | None:
        """Queue decoding of ``[start, end)``: with a fitted window, the audio trimmed to its activity plus a
        margin, or (``standard``) all of it the standard way, as the reference server decodes."""
        if standard:
            return self._submit_standard(start, end, audio, force)
        first_active = self._seg_first_active if self._seg_first_active >= 0 else start // VAD_WINDOW
        last_active = self._last_active if self._last_active >= first_active else end // VAD_WINDOW
        pad = int(EDGE_PAD_SECONDS * WHISPER_RATE)
        lo = max(start, first_active * VAD_WINDOW - pad)
        hi = min(end, (last_active + 1) * VAD_WINDOW + pad)
        if hi - lo < VAD_WINDOW:
            lo, hi = start, end
        samples = audio[lo:hi].copy()
        previous = list(self._committed)
        try:
            future = self._stt._decode_worker.submit(self._decode, samples, previous, force=force)
        except BusyError:
            if force:
                raise
            return None
        self._passes += 1
        return _Pass(start=start, end=end, future=future)

    def _submit_standard(self, start: int, end: int, audio: np.ndarray, force: bool) -> _Pass | None:
        future = self._submit_check(start, end, audio, force)
        return None if future is None else _Pass(start=start, end=end, future=future, standard=True)

    def _submit_check(
        self, start: int, end: int, audio: np.ndarray, force: bool = False
    ) -> concurrent.futures.Future[_Decoded] | None:
        """Queue ``[start, end)`` (untrimmed: for the first segment the whole audio so far, as the reference
        server gets it) decoded the standard way, after the passes already queued; None when the queue is full
        and not ``force`` (an early result without its check is doubtful)."""
        try:
            future = self._stt._decode_worker.submit(
                self._decode, audio[start:end].copy(), list(self._committed), True, force=force
            )
        except BusyError:
            if force:
                raise
            return None
        self._passes += 1
        return future

    def _decode(self, samples: np.ndarray, previous: list[_Pass], standard: bool = False) -> _Decoded:
        # Earlier segments ran before this job (one FIFO worker): their text is the decoder's context.
        context = []
        language = self.language
        for segment in previous:
            if segment.future.done() and not segment.future.cancelled() and segment.future.exception() is None:
                text, lang, *_ = segment.future.result()
                context.append(text)
                language = language or lang
        return self._stt._decode_blocking(samples, language, " ".join(t for t in context if t), standard=standard)

    def _plan_final(self) -> list[concurrent.futures.Future[_Decoded]]:
        """After the last chunk: decide what remains to decode; returns the futures to await, in order."""
        self._analyse_all()
        end = self._samples
        audio = self._audio
        current = self._pass
        covered = current.end if current is not None else self._seg_start
        tail_active = (self._last_active + 1) * VAD_WINDOW > covered
        if current is not None and not tail_active and not current.future.cancelled():
            self._commit(current)  # nothing but silence after the early pass: its text is final
        else:
            if current is not None:
                current.cancel()
                self._pass = None
            speech = self._seg_speech >= MIN_SPEECH_WINDOWS
            if self._committed:
                needed = speech
            else:  # nothing heard yet: decode anyway unless the filter says there is no speech at all
                needed = speech or self._seg_speech > 0 or not self._stt.vad_filter
            if needed:
                # Accurate mode: no early pass agreed on this audio, so it is decoded the reference's way.
                segment = self._submit_pass(self._seg_start, end, audio, force=True, standard=self._accurate)
                assert segment is not None
                if self._seg_first_active >= 0:
                    segment.speech = self._last_active - self._seg_first_active + 1
                self._commit(segment)
        return [segment.future for segment in self._committed]

    def _analyse_all(self) -> None:
        """Analyse everything, including a last partial window (zero-padded)."""
        self._analyse()
        rest = self._samples - self._windows * VAD_WINDOW
        if rest > 0:
            window = np.zeros((1, VAD_WINDOW), np.float32)
            window[0, :rest] = self._audio[self._windows * VAD_WINDOW : self._samples]
            prob = float(self._stt._vad().process(window, self._vad_state)[0])
            self._windows += 1
            self._on_window(self._windows - 1, prob, self._audio)


def _words(text: str) -> list[str]:
    """The words of ``text``, lower case, without punctuation."""
    return re.sub(r"[^\w' ]+", " ", text.lower()).split()


def _chunked(texts: list[str]) -> list[str]:
    """Segment texts -> streaming pieces whose concatenation is the transcript (single spaces between)."""
    return [text if i == 0 else " " + text for i, text in enumerate(texts)]


def _repeats(tokens: list[int], min_block: int = 4) -> bool:
    """True when ``tokens`` end with the same block of >= ``min_block`` tokens twice in a row (whisper's
    loop failure; real speech rarely repeats four tokens back to back)."""
    n = len(tokens)
    return any(tokens[n - block :] == tokens[n - 2 * block : n - block] for block in range(min_block, n // 2 + 1))


def _repeats_words(text: str, min_block: int = 3) -> bool:
    """True when the words of ``text`` (case and punctuation ignored) hold a block of >= ``min_block``
    words twice in a row, or end with a copy (>= 4 words) of their own beginning: how whisper repeats an
    utterance into the silence after it, the copy sometimes cut short."""
    words = _words(text)
    n = len(words)
    for block in range(min_block, n // 2 + 1):
        for start in range(n - 2 * block + 1):
            if words[start : start + block] == words[start + block : start + 2 * block]:
                return True
    return any(words[start:] == words[: n - start] for start in range(1, n - 3) if n - start >= 4)
