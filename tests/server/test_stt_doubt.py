"""The ``accurate`` decoding mode (the shared test model's): o1's text is the reference server's unless an early pass agreed.

wyoming-faster-whisper 3.8.1 calls ``WhisperModel.transcribe(wav, beam_size=..., language=..., initial_prompt=None,
vad_filter=False, vad_parameters=None)`` and joins the segments' texts. o1's standard decode gives that text on the
same audio. In accurate mode an early pass is followed by the standard decode of the same audio (its check): the
early text is kept only when both hear the same words; otherwise, and for audio no early pass covered, the text
is the standard decode's. The ``fast`` mode's rules: ``test_stt_early.py``. Real faster-whisper (tiny.en), real
Wyoming over TCP on 127.0.0.1; judged by transcripts and by which decodes ran.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from test_stt_early import feed_live, read_pcm
from wyoming.asr import Transcribe
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.event import async_read_event, async_write_event

from o1_server.stt import SpeechToText
from o1_server.stt import utterance as utterance_module
from o1_server.stt.utterance import _Decoded, disagreement
from o1_server.tts import TextToSpeech
from o1_server.wyoming_server import WyomingServer

# Clear speech: the standard decode's greedy result passes faster-whisper's checks (no sampling), so its text
# is the same from one call to the next.
STABLE = ["what_is_two_plus_two.wav", "what_day_is_it.wav"]


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


def clipped(name: str) -> bytes:
    """A fixture with 0.3 s of silence before it and its own last 0.2 s cut: about 0.12 s of silence after the
    speech, less than the pause an early pass waits for, so the whole audio is decoded at audio-stop."""
    return bytes(int(0.3 * 16000) * 2) + read_pcm(name)[: -int(0.2 * 16000) * 2]


def standard(stt: SpeechToText, pcm: bytes) -> str:
    """``pcm`` decoded by :meth:`SpeechToText._decode_standard` (no context)."""
    samples = np.frombuffer(pcm, "<i2").astype(np.float32) / 32768.0
    return str(stt._decode_standard(samples, "en", None).text)


@pytest.fixture
def short_calls(stt: SpeechToText, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Fitted-window decodes run from here on (the real decode, recorded)."""
    calls: list[Any] = []
    real = stt._decode_short

    def recorded(*args: Any) -> Any:
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(stt, "_decode_short", recorded)
    return calls


@pytest.fixture
async def server(stt: SpeechToText, tts: TextToSpeech) -> AsyncIterator[WyomingServer]:
    wyoming = WyomingServer("tcp://127.0.0.1:0", stt, tts, None, "9.9.9")
    await wyoming.start()
    yield wyoming
    await wyoming.stop()


async def over_tcp(server: WyomingServer, pcm: bytes) -> str:
    """Home Assistant's way: transcribe, the audio in real time in 64 ms chunks, audio-stop; the transcript."""
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
                return str(event.data["text"])
    finally:
        writer.close()


@pytest.mark.parametrize("name", ["what_is_two_plus_two.wav", "how_many_files.wav", "what_day_is_it.wav"])
async def test_the_standard_decode_is_the_reference_servers(stt: SpeechToText, name: str) -> None:
    """Same audio, same text as the reference's arguments give (timestamps, temperature fallback, context).
    Clear speech: the greedy result passes faster-whisper's checks, no sampling."""
    await asyncio.to_thread(stt.load)
    pcm = padded(name)
    samples = np.frombuffer(pcm, "<i2").astype(np.float32) / 32768.0
    ours = stt._decode_blocking(samples, "en", "", standard=True).text
    assert ours == reference(stt, pcm), name


async def test_fast_a_doubtful_early_result_is_replaced_by_the_reference_text(
    stt: SpeechToText, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fast mode, an early result made doubtful (every average log-probability below the threshold): the
    transcript is the whole audio decoded as the reference decodes it, word for word (two passes: early, whole)."""
    monkeypatch.setattr(stt, "decoding", "fast")
    monkeypatch.setattr(utterance_module, "EARLY_LOG_PROB_THRESHOLD", 0.0)
    pcm = padded("what_is_two_plus_two.wav")
    utterance = stt.start("en")
    await feed_live(utterance, pcm)
    assert utterance._committed[0].early and utterance._committed[0].check is None
    result = await utterance.finish()
    assert result.passes == 2, result
    assert result.text == reference(stt, pcm), result


@pytest.mark.parametrize("name", STABLE)
async def test_accurate_a_clip_without_an_early_pass_is_the_standard_decode(
    stt: SpeechToText, short_calls: list[Any], name: str
) -> None:
    """No pause long enough for an early pass: at audio-stop the whole audio is decoded the standard way only
    (one pass, no fitted window), and the transcript is that decode's text."""
    pcm = clipped(name)
    utterance = stt.start("en")
    await feed_live(utterance, pcm)
    assert utterance._pass is None and not utterance._committed  # no early pass
    result = await utterance.finish()
    assert (result.passes, short_calls) == (1, []), result
    assert result.text == standard(stt, pcm) == reference(stt, pcm), result


async def test_reference_mode_decodes_only_at_audio_stop_the_standard_way(
    stt: SpeechToText, short_calls: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``reference``: even with a pause long enough for an early pass, nothing is decoded before audio-stop;
    then one standard decode of the whole audio, whose text is the reference's."""
    monkeypatch.setattr(stt, "decoding", "reference")
    monkeypatch.setattr(stt, "early_decoding", False)  # what SpeechToText(decoding="reference") sets
    pcm = padded("what_is_two_plus_two.wav")
    utterance = stt.start("en")
    await feed_live(utterance, pcm)
    assert utterance._pass is None and not utterance._committed  # no early pass despite the pause
    result = await utterance.finish()
    assert (result.passes, short_calls) == (1, []), result
    assert result.text == reference(stt, pcm), result


@pytest.mark.parametrize("name", STABLE)
async def test_fast_a_clip_without_an_early_pass_is_the_fitted_window_decode(
    stt: SpeechToText, short_calls: list[Any], monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """The same clips in fast mode, as before the accurate mode: one fitted-window pass at audio-stop."""
    monkeypatch.setattr(stt, "decoding", "fast")
    utterance = stt.start("en")
    await feed_live(utterance, clipped(name))
    result = await utterance.finish()
    assert result.passes == 1 and len(short_calls) == 1, result
    assert result.text, result


async def test_over_wyoming_tcp_accurate_a_clip_without_an_early_pass_is_the_standard_decode(
    server: WyomingServer, stt: SpeechToText, short_calls: list[Any]
) -> None:
    """Over Wyoming TCP in real time: the transcript is exactly the standard decode of the audio sent, and no
    fitted-window decode ran for it."""
    pcm = clipped("what_is_two_plus_two.wav")
    text = await over_tcp(server, pcm)
    assert short_calls == []
    assert text == standard(stt, pcm), text


async def test_accurate_an_agreeing_early_pass_is_kept(stt: SpeechToText) -> None:
    """A clear question: the early pass and its check (the same audio decoded the standard way) hear the same
    words: the early text is the transcript, streamed before audio-stop, and nothing is decoded after it
    (two passes: the early one, its check)."""
    utterance = stt.start("en")
    await feed_live(utterance, padded("what_is_two_plus_two.wav"))
    early = utterance._committed[0]
    assert early.early and early.check is not None and early.check.done()
    assert disagreement(early.future.result(), early.check.result()) == ""
    chunks = utterance.take_chunks()
    result = await utterance.finish()
    assert result.passes == 2, result
    assert result.chunks == chunks == [early.future.result().text], (chunks, result)


async def test_accurate_a_disagreeing_early_pass_is_replaced(
    stt: SpeechToText, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the early pass and its check heard, a disagreement between them keeps the early text from being
    streamed and makes the transcript the whole audio decoded as the reference decodes it (three passes:
    early, check, whole)."""
    monkeypatch.setattr(utterance_module, "disagreement", lambda decoded, check: "told to disagree")
    pcm = padded("what_is_two_plus_two.wav")
    utterance = stt.start("en")
    await feed_live(utterance, pcm)
    early = utterance._committed[0]
    assert early.early and early.check is not None and early.check.done()
    assert utterance.take_chunks() == []
    result = await utterance.finish()
    assert result.passes == 3, result
    assert result.text == reference(stt, pcm), result


async def test_over_wyoming_tcp_accurate_a_disagreeing_early_pass_is_replaced(
    server: WyomingServer, stt: SpeechToText, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over Wyoming TCP in real time, every early pass disagreeing with its check: the transcript is the
    reference's text of the whole audio."""
    monkeypatch.setattr(utterance_module, "disagreement", lambda decoded, check: "told to disagree")
    pcm = padded("what_day_is_it.wav")
    assert await over_tcp(server, pcm) == reference(stt, pcm)


def test_disagreement_rule() -> None:
    """Same words (case and punctuation aside) agree; another word, one more or one less does not."""
    early = _Decoded("Turn off all the lights.", "en", False, -0.3, 0.05)
    assert disagreement(early, early._replace(text="turn off all the lights")) == ""
    assert "heard" in disagreement(early, early._replace(text="Turn of all the lights."))
    assert "heard" in disagreement(early, early._replace(text="Turn off all the lights now."))
    assert "heard" in disagreement(early, early._replace(text="Turn off the lights."))
