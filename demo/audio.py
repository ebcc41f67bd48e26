"""Audio in and out of the demo: the question's PCM, the reply saved as WAV, finding ffmpeg."""

from __future__ import annotations

import io
import shutil
import struct
import subprocess
import wave
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Pcm:
    """Raw 16-bit mono PCM and its sample rate."""

    data: bytes
    rate: int

    @property
    def seconds(self) -> float:
        """Return the duration."""
        return len(self.data) / 2 / self.rate


def read_question(path: Path) -> Pcm:
    """Read a 16-bit mono WAV (any sample rate: HA's pipeline resamples to 16 kHz)."""
    try:
        with wave.open(str(path), "rb") as wav:
            if wav.getsampwidth() != 2 or wav.getnchannels() != 1:
                raise ValueError(f"{path}: need 16-bit mono PCM, got {8 * wav.getsampwidth()}-bit, "
                                 f"{wav.getnchannels()} channel(s)")
            return Pcm(wav.readframes(wav.getnframes()), wav.getframerate())
    except (wave.Error, EOFError) as err:
        raise ValueError(f"{path}: not a PCM WAV file ({err})") from err


def find_ffmpeg(explicit: str | None) -> str | None:
    """Return an ffmpeg binary: the one given, else ffmpeg on PATH, else imageio-ffmpeg's bundled one."""
    if explicit:
        return explicit
    if found := shutil.which("ffmpeg"):
        return found
    try:
        import imageio_ffmpeg  # noqa: PLC0415 - optional
    except ImportError:
        return None
    try:
        return imageio_ffmpeg.get_ffmpeg_exe()
    except RuntimeError:
        return None


def save_reply(data: bytes, out: Path, ffmpeg: str | None) -> str:
    """Save reply audio as WAV at `out`, decoding it with ffmpeg unless it already is WAV.

    Returns a short description (format, rate, duration) of the saved file.
    """
    if data[:4] == b"RIFF" and data[8:12] == b"WAVE":
        wav_bytes = _fix_streamed_wav(data)
        source = "WAV as HA sent it"
    else:
        if ffmpeg is None:
            raise RuntimeError("the reply is not WAV and no ffmpeg was found to decode it")
        wav_bytes = _decode_with_ffmpeg(data, ffmpeg)
        source = "decoded from HA's mp3 with ffmpeg"
    out.write_bytes(wav_bytes)
    with wave.open(io.BytesIO(wav_bytes), "rb") as wav:
        seconds = wav.getnframes() / wav.getframerate()
        return f"{seconds:.1f} s, {wav.getframerate()} Hz, {source}"


def _decode_with_ffmpeg(data: bytes, ffmpeg: str) -> bytes:
    """Decode any audio ffmpeg understands into 16-bit PCM WAV."""
    proc = subprocess.run(
        [ffmpeg, "-hide_banner", "-loglevel", "error", "-i", "pipe:0", "-f", "wav", "-acodec", "pcm_s16le",
         "pipe:1"],
        input=data, capture_output=True, timeout=60, check=False,
    )
    if proc.returncode != 0 or not proc.stdout:
        message = proc.stderr.decode(errors="replace")[-500:]
        raise RuntimeError(f"ffmpeg could not decode the reply: {message}")
    return _fix_streamed_wav(proc.stdout)


def _fix_streamed_wav(data: bytes) -> bytes:
    """Rewrite a WAV whose header has no valid length (as streamed, or piped by ffmpeg) into a normal one.

    Walks the RIFF chunks: the format comes from `fmt `, the samples are everything after `data`.
    """
    offset, fmt, frames = 12, None, b""
    while offset + 8 <= len(data):
        chunk_id, size = data[offset:offset + 4], struct.unpack("<I", data[offset + 4:offset + 8])[0]
        body = offset + 8
        if chunk_id == b"fmt ":
            fmt = struct.unpack("<HHIIHH", data[body:body + 16])
        elif chunk_id == b"data":
            frames = data[body:]
            break
        offset = body + size + (size & 1)
    if fmt is None:
        raise RuntimeError("the reply WAV has no format chunk")
    _, channels, rate, _, _, bits = fmt
    width = bits // 8
    frames = frames[: len(frames) - len(frames) % (width * channels)]
    buf = io.BytesIO()
    with wave.open(buf, "wb") as out:
        out.setnchannels(channels)
        out.setsampwidth(width)
        out.setframerate(rate)
        out.writeframes(frames)
    return buf.getvalue()
