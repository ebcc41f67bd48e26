"""PCM audio for speech-to-text: format checks and streaming conversion to whisper's input format.

Input is raw little-endian PCM (8000..48000 Hz; 1 = unsigned 8-bit, 2 = signed 16-bit or 4 = signed 32-bit
samples; 1..64 interleaved channels); what whisper gets is 16,000 Hz, 16-bit, mono. No decoding here.
"""

from __future__ import annotations

import logging

import numpy as np

# wyoming's converter (audioop on Python 3.11/3.12, its own pure-Python port later) does the resampling.
from wyoming.audio import AudioChunk, AudioChunkConverter

_LOGGER = logging.getLogger(__package__)  # "o1_server.stt", the logger's name before the package split

WHISPER_RATE = 16_000
"""Sample rate whisper expects, in Hz."""
WHISPER_WIDTH = 2
"""Sample width after conversion, in bytes (signed 16-bit)."""
WHISPER_CHANNELS = 1
"""Channel count after conversion (mono)."""

MIN_RATE = 8_000
MAX_RATE = 48_000
SUPPORTED_WIDTHS = (1, 2, 4)


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
    clipped: np.ndarray = np.clip(samples, -32768, 32767)  # numpy's stubs type clip with int bounds as Any
    return clipped.astype("<i2")


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
