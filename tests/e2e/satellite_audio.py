"""Audio helpers for the satellite test: speech from (and to) the running o1 server over Wyoming."""

from __future__ import annotations

import wave
from pathlib import Path

from wyoming.asr import Transcribe, Transcript
from wyoming.audio import AudioChunk, AudioChunkConverter, AudioStart, AudioStop
from wyoming.client import AsyncTcpClient
from wyoming.tts import Synthesize

RATE = 16_000
"""Sample rate of the audio these helpers return and take, in Hz (16-bit mono)."""


def read_pcm(path: Path) -> bytes:
    """PCM of a 16 kHz 16-bit mono WAV file."""
    with wave.open(str(path), "rb") as wav:
        assert (wav.getframerate(), wav.getsampwidth(), wav.getnchannels()) == (RATE, 2, 1), path
        return wav.readframes(wav.getnframes())


def silence(seconds: float) -> bytes:
    """``seconds`` of 16 kHz 16-bit mono silence."""
    return bytes(int(seconds * RATE) * 2)


async def synthesize(port: int, text: str) -> bytes:
    """Speak ``text`` with the o1 server's Wyoming text-to-speech on 127.0.0.1:``port``.

    Returns:
        16 kHz 16-bit mono PCM.
    """
    converter = AudioChunkConverter(rate=RATE, width=2, channels=1)
    pcm = b""
    async with AsyncTcpClient("127.0.0.1", port) as client:
        await client.write_event(Synthesize(text=text).event())
        while (event := await client.read_event()) is not None:
            if AudioChunk.is_type(event.type):
                pcm += converter.convert(AudioChunk.from_event(event)).audio
            elif AudioStop.is_type(event.type):
                return pcm
    raise ConnectionError("the o1 server closed the connection before the audio ended")


async def transcribe(port: int, pcm: bytes, rate: int, width: int = 2, channels: int = 1) -> str:
    """Transcribe PCM (``rate`` Hz, ``width`` bytes per sample, ``channels`` channels) with the o1 server's
    Wyoming speech-to-text on 127.0.0.1:``port``; return the text."""
    async with AsyncTcpClient("127.0.0.1", port) as client:
        await client.write_event(Transcribe(language="en").event())
        await client.write_event(AudioStart(rate=rate, width=width, channels=channels).event())
        step = rate * width * channels // 10
        for i in range(0, len(pcm), step):
            await client.write_event(AudioChunk(rate=rate, width=width, channels=channels,
                                                audio=pcm[i:i + step]).event())
        await client.write_event(AudioStop().event())
        while (event := await client.read_event()) is not None:
            if Transcript.is_type(event.type):
                return Transcript.from_event(event).text
    raise ConnectionError("the o1 server closed the connection before the transcript")
