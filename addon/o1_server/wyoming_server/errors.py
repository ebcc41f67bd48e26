"""The ``error`` events this server sends: their stable codes, and the exception that refuses a request.

Only the codes and :class:`_Rejected`; sending the events is :mod:`.handler`'s.
"""

from __future__ import annotations

ERROR_CODES = {
    "invalid_event": "the event could not be read or lacks a required field",
    "unknown_event": "this server does not handle that event type",
    "unknown_program": "select-program named no program of this server",
    "audio_not_started": "audio-chunk or audio-stop without a preceding audio-start",
    "unsupported_audio_format": "rate not in 8000..48000 Hz, width not 1/2/4 bytes, or channels < 1",
    "audio_too_long": "the utterance is longer than the speech-to-text limit",
    "unsupported_language": "the speech-to-text model does not understand the language asked for, or no "
    "installed voice speaks it",
    "transcription_failed": "speech-to-text failed",
    "invalid_text": "empty, too long or non-string text to synthesize",
    "invalid_voice": "a voice that is not installed, an unknown speaker, or a synthesis option that is not a "
    "number in its range",
    "synthesize_not_started": "synthesize-chunk or synthesize-stop without synthesize-start",
    "synthesis_failed": "text-to-speech failed",
    "no_agent": "no agent is configured for transcript (handle) requests",
    "busy": "too many requests are queued (or connections open); try again later",
    "idle_timeout": "the connection sent nothing for too long (or was the idlest when all were taken); closed",
    "flooded": "more was sent while a transcript was answered than the connection buffers (128 KiB); the turn "
    "was stopped and the connection closed",
    "frame_timeout": "an event took too long to arrive once it began; closed",
    "internal_error": "an unexpected server error; see the server log",
    "sandbox_peer": "the connecting socket belongs to generated code (a sandbox uid) or its owner could not be "
    "found; closed before any event is read",
}
"""Stable ``code`` values of the ``error`` events this server sends, with their meaning."""


class _Rejected(Exception):
    """A request is refused with an ``error`` event."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code
        self.text = text
