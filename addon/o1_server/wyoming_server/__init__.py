"""Wyoming protocol server: speech-to-text, text-to-speech and the o1 agent on one port.

Modules: :mod:`.info` (the ``describe`` answer), :mod:`.reading` (event framing and read limits),
:mod:`.handler` (one connection, with the :mod:`.asr_events`, :mod:`.tts_events` and :mod:`.handle_events`
mixins), :mod:`.server` (the listener), :mod:`.errors` (error codes) and :mod:`.peers`. The event flows
served, the limits and why they are what they are: ``docs/speech.md``.
"""

from .asr_events import AsrEvents
from .errors import ERROR_CODES
from .handle_events import AGENT_FAILED_MESSAGE, CLIENT_POLL_SECONDS, HandleEvents
from .handler import STALE_STREAM_SECONDS, O1EventHandler
from .info import ASR_PROGRAM, HANDLE_PROGRAM, TTS_PROGRAM, build_info
from .peers import wyoming_channel
from .reading import FRAME_SECONDS, IDLE_SECONDS, MAX_DATA_BYTES, MAX_PAYLOAD_BYTES
from .server import MAX_CONNECTIONS, WyomingServer, serve_wyoming
from .tts_events import SAMPLES_PER_CHUNK, TtsEvents

__all__ = [
    "AGENT_FAILED_MESSAGE",
    "ASR_PROGRAM",
    "CLIENT_POLL_SECONDS",
    "ERROR_CODES",
    "FRAME_SECONDS",
    "HANDLE_PROGRAM",
    "IDLE_SECONDS",
    "MAX_CONNECTIONS",
    "MAX_DATA_BYTES",
    "MAX_PAYLOAD_BYTES",
    "SAMPLES_PER_CHUNK",
    "STALE_STREAM_SECONDS",
    "TTS_PROGRAM",
    "AsrEvents",
    "HandleEvents",
    "O1EventHandler",
    "TtsEvents",
    "WyomingServer",
    "build_info",
    "serve_wyoming",
    "wyoming_channel",
]
