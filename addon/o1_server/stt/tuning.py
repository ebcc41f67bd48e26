"""Tuning of the streaming speech-to-text: voice-activity thresholds, pauses and encoder windows.

Times are in seconds (``VAD_WINDOW`` is in samples). Why each value is what it is: ``docs/speech.md``.
The audio formats are in :mod:`.audio`, the worker queue sizes in :mod:`.workers`.
"""

from __future__ import annotations

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
EARLY_LOG_PROB_THRESHOLD = -1.0
"""An early pass whose average log-probability is below this waits for the end of the audio."""
EARLY_NO_SPEECH_THRESHOLD = 0.5
"""An early pass whose no-speech probability is above this waits for the end of the audio."""
MIN_WORDS_PER_SECOND = 1.0
"""Fewer words per second of speech than this (a lost word or phrase) makes an early pass doubtful."""
MAX_WORDS_PER_SECOND = 6.0
"""More words per second of speech than this (words imagined into the noise) makes an early pass doubtful."""
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

_FRAMES_PER_SECOND = 100  # whisper's mel frames per second (hop of 160 samples at 16 kHz)
_FULL_WINDOW_FRAMES = 3000
_COMPRESSION_RATIO_THRESHOLD = 2.4  # faster-whisper's defaults for its temperature fallback
_LOG_PROB_THRESHOLD = -1.0
_NO_SPEECH_THRESHOLD = 0.6
