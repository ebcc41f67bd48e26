"""The doubt rule's standard decode is the reference server's: a doubtful early result gives its text.

wyoming-faster-whisper 3.8.1 calls ``WhisperModel.transcribe(wav, beam_size=..., language=..., initial_prompt=None,
vad_filter=False, vad_parameters=None)`` and joins the segments' texts. o1's standard decode must give that text
on the same audio, so that a doubtful early result is replaced by exactly what the reference would have heard.
Real faster-whisper (tiny.en), judged by transcripts (over Wyoming TCP: ``test_stt_early.py``).
"""

from __future__ import annotations

import asyncio
import os

import numpy as np
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from test_stt_early import feed_live, read_pcm

from o1_server.stt import SpeechToText
from o1_server.stt import utterance as utterance_module


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


@pytest.mark.parametrize("name", ["what_is_two_plus_two.wav", "how_many_files.wav", "what_day_is_it.wav"])
async def test_the_standard_decode_is_the_reference_servers(stt: SpeechToText, name: str) -> None:
    """Same audio, same text as the reference's arguments give (timestamps, temperature fallback, context).
    Clear speech: the greedy result passes faster-whisper's checks, no sampling."""
    await asyncio.to_thread(stt.load)
    pcm = padded(name)
    samples = np.frombuffer(pcm, "<i2").astype(np.float32) / 32768.0
    ours = stt._decode_blocking(samples, "en", "", standard=True).text
    assert ours == reference(stt, pcm), name


async def test_a_doubtful_early_result_is_replaced_by_the_reference_text(
    stt: SpeechToText, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An early result made doubtful (every average log-probability below the threshold): the transcript is
    the whole audio decoded as the reference decodes it, word for word (two passes: early, whole)."""
    monkeypatch.setattr(utterance_module, "EARLY_LOG_PROB_THRESHOLD", 0.0)
    pcm = padded("what_is_two_plus_two.wav")
    utterance = stt.start("en")
    await feed_live(utterance, pcm)
    assert utterance._committed[0].early
    result = await utterance.finish()
    assert result.passes == 2, result
    assert result.text == reference(stt, pcm), result
