"""Speech-to-text with faster-whisper, shared by every Wyoming connection and the 01 Light server.

Modules: :mod:`.audio` (PCM checks and conversion), :mod:`.workers` (serial background threads),
:mod:`.vad` (streaming Silero), :mod:`.utterance` (one utterance: early and final decoding passes),
:mod:`.service` (:class:`SpeechToText`: the model and decoding), :mod:`.tuning` (thresholds, in seconds).
How the delay from the end of the audio to the transcript is kept small: ``docs/speech.md``.
"""

from .audio import (
    MAX_RATE,
    MIN_RATE,
    SUPPORTED_WIDTHS,
    WHISPER_CHANNELS,
    WHISPER_RATE,
    WHISPER_WIDTH,
    PcmNormalizer,
    check_format,
)
from .service import (
    ASSEMBLED_MODELS,
    BUNDLED_MODEL,
    DECODING_MODES,
    DEFAULT_MAX_SECONDS,
    MODEL_NAMES,
    SpeechToText,
    default_models_dirs,
)
from .tuning import (
    COMMIT_PAUSE_SECONDS,
    EARLY_LOG_PROB_THRESHOLD,
    EARLY_NO_SPEECH_THRESHOLD,
    EARLY_PAUSE_SECONDS,
    EDGE_PAD_SECONDS,
    LIVE_EDGE_SECONDS,
    MAX_SHORT_WINDOW_SECONDS,
    MAX_WORDS_PER_SECOND,
    MIN_SPEECH_WINDOWS,
    MIN_WINDOW_SECONDS,
    MIN_WORDS_PER_SECOND,
    RETRY_MIN_WINDOW_SECONDS,
    RETRY_WINDOW_PAD_SECONDS,
    SILENCE_THRESHOLD,
    SPEECH_THRESHOLD,
    VAD_WINDOW,
    WINDOW_PAD_SECONDS,
)
from .utterance import TranscriptResult, Utterance
from .workers import DEFAULT_MAX_PENDING, BusyError, SerialWorker

__all__ = [
    "ASSEMBLED_MODELS",
    "BUNDLED_MODEL",
    "COMMIT_PAUSE_SECONDS",
    "DECODING_MODES",
    "DEFAULT_MAX_PENDING",
    "DEFAULT_MAX_SECONDS",
    "EARLY_LOG_PROB_THRESHOLD",
    "EARLY_NO_SPEECH_THRESHOLD",
    "EARLY_PAUSE_SECONDS",
    "EDGE_PAD_SECONDS",
    "LIVE_EDGE_SECONDS",
    "MAX_RATE",
    "MAX_SHORT_WINDOW_SECONDS",
    "MAX_WORDS_PER_SECOND",
    "MIN_RATE",
    "MIN_SPEECH_WINDOWS",
    "MIN_WINDOW_SECONDS",
    "MIN_WORDS_PER_SECOND",
    "MODEL_NAMES",
    "RETRY_MIN_WINDOW_SECONDS",
    "RETRY_WINDOW_PAD_SECONDS",
    "SILENCE_THRESHOLD",
    "SPEECH_THRESHOLD",
    "SUPPORTED_WIDTHS",
    "VAD_WINDOW",
    "WHISPER_CHANNELS",
    "WHISPER_RATE",
    "WHISPER_WIDTH",
    "WINDOW_PAD_SECONDS",
    "BusyError",
    "PcmNormalizer",
    "SerialWorker",
    "SpeechToText",
    "TranscriptResult",
    "Utterance",
    "check_format",
    "default_models_dirs",
]
