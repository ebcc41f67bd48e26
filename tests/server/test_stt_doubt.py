"""The doubt rule's standard decode is the reference server's, and a disagreement sends the utterance to it.

wyoming-faster-whisper 3.8.1 calls ``WhisperModel.transcribe(wav, beam_size=..., language=..., initial_prompt=None,
vad_filter=False, vad_parameters=None)`` and joins the segments' texts. o1's standard decode must give that text
on the same audio, so that a doubtful early result is replaced by exactly what the reference would have heard.
Real faster-whisper (tiny.en), real Wyoming over TCP on 127.0.0.1; judged by transcripts.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator

import numpy as np
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from test_stt_early import CLIP, feed_live, read_pcm
from wyoming.asr import Transcribe
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.event import async_read_event, async_write_event

from o1_server.stt import SpeechToText
from o1_server.stt import utterance as utterance_module
from o1_server.tts import TextToSpeech
from o1_server.wyoming_server import WyomingServer


def reference(stt: SpeechToText, pcm: bytes) -> str:
    """``pcm`` decoded as wyoming-faster-whisper 3.8.1 decodes it (its handler's arguments)."""
    samples = np.frombuffer(pcm, "<i2").astype(np.float32) / 32768.0
    segments, _info = stt._whisper.transcribe(
        samples, beam_size=5, language="en", initial_prompt=None, vad_filter=False, vad_parameters=None
    )
    return " ".join(segment.text for segment in segments).strip()


def padded(name: str) -> bytes:
    """A fixture with 0.3 s of silence before it and 0.7 s after it, as the benchmark streams it."""
    return bytes(int(0.3 * 16000) * 2) + read_pcm(name) + bytes(int(0.7 * 16000) * 2)


@pytest.fixture
async def server(stt: SpeechToText, tts: TextToSpeech) -> AsyncIterator[WyomingServer]:
    wyoming = WyomingServer("tcp://127.0.0.1:0", stt, tts, None, "9.9.9")
    await wyoming.start()
    yield wyoming
    await wyoming.stop()


@pytest.mark.parametrize("name", ["what_is_two_plus_two.wav", "how_many_files.wav", "what_day_is_it.wav"])
async def test_the_standard_decode_is_the_reference_servers(stt: SpeechToText, name: str) -> None:
    """Same audio, same text as the reference's arguments give (timestamps, temperature fallback, context).
    Clear speech: the greedy result passes faster-whisper's checks, no sampling."""
    await asyncio.to_thread(stt.load)
    pcm = padded(name)
    samples = np.frombuffer(pcm, "<i2").astype(np.float32) / 32768.0
    ours = stt._decode_blocking(samples, "en", "", standard=True).text
    assert ours == reference(stt, pcm), name


async def test_a_disagreeing_check_gives_way_to_the_whole_audio(
    stt: SpeechToText, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the early pass and its check heard, a disagreement between them makes the transcript the whole
    audio decoded as the reference decodes it (three passes: early, check, whole)."""
    monkeypatch.setattr(utterance_module, "disagreement", lambda decoded, check: "told to disagree")
    pcm = padded("what_is_two_plus_two.wav")
    utterance = stt.start("en")
    await feed_live(utterance, pcm)
    early = utterance._committed[0]
    assert early.early and early.check is not None and early.check.done()
    result = await utterance.finish()
    assert result.passes == 3, result
    assert result.text == reference(stt, pcm), result


async def test_over_wyoming_tcp_an_early_result_is_kept_only_when_the_check_agrees(
    server: WyomingServer, stt: SpeechToText
) -> None:
    """Home Assistant's way (the audio in real time in 64 ms chunks, audio-stop) with the espeak-ng clip padded as
    the benchmark pads it: whether its early result is kept or the whole audio is decoded (the standard decode
    samples on this clip, so its words vary), the transcript ends in "front door"."""
    pcm = padded(CLIP)
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    try:
        await async_write_event(Transcribe(language="en").event(), writer)
        await async_write_event(AudioStart(rate=16000, width=2, channels=1).event(), writer)
        started = time.monotonic()
        for index, offset in enumerate(range(0, len(pcm), 2048)):
            await asyncio.sleep(max(0.0, started + index * 0.064 - time.monotonic()))
            chunk = AudioChunk(rate=16000, width=2, channels=1, audio=pcm[offset : offset + 2048])
            await async_write_event(chunk.event(), writer)
        await async_write_event(AudioStop().event(), writer)
        while True:
            event = await asyncio.wait_for(async_read_event(reader), 60)
            assert event is not None and event.type != "error", event
            if event.type == "transcript":
                break
    finally:
        writer.close()
    text = event.data["text"]
    assert "front door" in text.lower(), text
