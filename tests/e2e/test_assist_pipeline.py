"""HA's real Assist pipeline against the real o1 server over Wyoming and the o1 API.

speech (fixture WAV) -> wyoming stt (o1 faster-whisper) -> o1 conversation agent (Open Interpreter runs the
scripted LLM's code in the sandbox) -> wyoming tts (o1 piper) -> audio, which o1's speech-to-text hears again.
The last test does the same with the server on its defaults: the real embedded model, no scripted LLM.
"""

from __future__ import annotations

import io
import re
import wave
from collections.abc import Iterator
from pathlib import Path

import imageio_ffmpeg
import pytest
from homeassistant.components import assist_pipeline, stt, tts
from homeassistant.components.assist_pipeline import PipelineEvent, PipelineEventType
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import entity_registry as er
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from tests.support.ha_fixtures import sockets_allowed
from tests.support.o1_process import O1Process, start_o1
from tests.support.scripted_llm import ScriptedLLM

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def pcm_of(path: Path) -> tuple[bytes, int]:
    """Return the PCM frames and sample rate (Hz) of a 16-bit mono WAV."""
    with wave.open(str(path), "rb") as wav:
        assert wav.getsampwidth() == 2 and wav.getnchannels() == 1
        return wav.readframes(wav.getnframes()), wav.getframerate()


async def set_up(hass: HomeAssistant, server: O1Process) -> dict[str, str]:
    """Add HA's wyoming integration and the o1 integration (through its config flow); return entity ids."""
    assert await async_setup_component(hass, "homeassistant", {})
    # HA's tts converts replies with ffmpeg: use the static binary from the imageio-ffmpeg wheel.
    assert await async_setup_component(hass, "ffmpeg", {"ffmpeg": {"ffmpeg_bin": imageio_ffmpeg.get_ffmpeg_exe()}})
    assert await async_setup_component(hass, "conversation", {})
    assert await async_setup_component(hass, "assist_pipeline", {})
    wyoming_entry = MockConfigEntry(domain="wyoming", data={"host": "127.0.0.1", "port": server.wyoming_port})
    wyoming_entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(wyoming_entry.entry_id)
    flow = await hass.config_entries.flow.async_init("o1", context={"source": "user"})
    result = await hass.config_entries.flow.async_configure(
        flow["flow_id"], {"url": server.api_url, "token": server.token})
    assert result["type"] == "create_entry", result
    await hass.async_block_till_done()
    registry = er.async_get(hass)
    found = {(e.platform, e.domain): e.entity_id for e in registry.entities.values()}
    return {"stt": found[("wyoming", "stt")], "tts": found[("wyoming", "tts")],
            "agent": found[("o1", "conversation")], "handle": found.get(("wyoming", "conversation"), "")}


async def run_pipeline(hass: HomeAssistant, pipeline_id: str, audio: bytes, rate: int) -> list[PipelineEvent]:
    """Run the pipeline from stt to tts on ``audio``; return its events."""
    events: list[PipelineEvent] = []

    async def stream():
        for i in range(0, len(audio), 3200):
            yield audio[i:i + 3200]

    await assist_pipeline.async_pipeline_from_audio_stream(
        hass, context=Context(), event_callback=events.append,
        stt_metadata=stt.SpeechMetadata(language="en", format=stt.AudioFormats.WAV, codec=stt.AudioCodecs.PCM,
                                        bit_rate=stt.AudioBitRates.BITRATE_16,
                                        sample_rate=stt.AudioSampleRates(rate),
                                        channel=stt.AudioChannels.CHANNEL_MONO),
        stt_stream=stream(), pipeline_id=pipeline_id, tts_audio_output="wav")
    return events


async def test_spoken_question_answered_through_the_assist_pipeline(
    hass: HomeAssistant, socket_enabled: None, o1_server: O1Process, scripted_llm: ScriptedLLM, hass_ws_client
) -> None:
    ids = await set_up(hass, o1_server)
    client = await hass_ws_client(hass)
    await client.send_json_auto_id({
        "type": "assist_pipeline/pipeline/create", "name": "o1", "language": "en",
        "conversation_engine": ids["agent"], "conversation_language": "en",
        "stt_engine": ids["stt"], "stt_language": "en",
        "tts_engine": ids["tts"], "tts_language": "en_US", "tts_voice": None,
        "wake_word_entity": None, "wake_word_id": None,
    })
    created = await client.receive_json()
    assert created["success"], created
    scripted_llm.script("```python\nprint(2 + 2)\n```", "Two plus two is four.")

    audio, rate = pcm_of(FIXTURES / "what_is_two_plus_two.wav")
    events = await run_pipeline(hass, created["result"]["id"], audio, rate)
    by_type = {e.type: e.data for e in events}
    assert PipelineEventType.ERROR not in by_type, by_type.get(PipelineEventType.ERROR)

    transcript = by_type[PipelineEventType.STT_END]["stt_output"]["text"].lower()
    assert "plus" in transcript and ("2" in transcript or "two" in transcript), transcript
    # The question the scripted LLM received is the transcript, and the code it wrote really ran.
    assert any("plus" in str(m.get("content")).lower() for m in scripted_llm.requests[0]["messages"])
    intent = by_type[PipelineEventType.INTENT_END]["intent_output"]
    answer = intent["response"]["speech"]["plain"]["speech"]
    assert "4" in answer, answer
    conversation_id = intent["conversation_id"]
    record = o1_server.log  # the server is alive and logged the turn
    assert record

    tts_output = by_type[PipelineEventType.TTS_END]["tts_output"]
    stream = tts.async_get_stream(hass, tts_output["token"])
    assert stream is not None and tts_output["mime_type"] == "audio/x-wav"
    data = b"".join([chunk async for chunk in stream.async_stream_result()])
    with wave.open(io.BytesIO(data), "rb") as wav:
        assert wav.getnframes() / wav.getframerate() > 0.5  # a spoken sentence, not silence

    # The conversation id HA used is the one o1 keeps the turn under.
    headers = {"Authorization": f"Bearer {o1_server.token}"}
    from homeassistant.helpers.aiohttp_client import async_get_clientsession

    async with async_get_clientsession(hass).get(
        f"{o1_server.api_url}/api/conversation/{conversation_id}", headers=headers) as r:
        assert r.status == 200
        turns = (await r.json())["turns"]
    assert turns[-1]["code_blocks"][0]["output"] == "4"


@pytest.fixture(scope="module")
def embedded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[O1Process]:
    """The real o1 server on its defaults: the embedded Qwen2.5-Coder-1.5B, no scripted LLM."""
    with sockets_allowed():
        proc = start_o1(tmp_path_factory.mktemp("o1-embedded"))
    yield proc
    proc.stop()


async def test_spoken_question_answered_by_the_real_embedded_model(
    hass: HomeAssistant, socket_enabled: None, embedded_server: O1Process, hass_ws_client
) -> None:
    ids = await set_up(hass, embedded_server)
    client = await hass_ws_client(hass)
    await client.send_json_auto_id({
        "type": "assist_pipeline/pipeline/create", "name": "o1 embedded", "language": "en",
        "conversation_engine": ids["agent"], "conversation_language": "en",
        "stt_engine": ids["stt"], "stt_language": "en",
        "tts_engine": ids["tts"], "tts_language": "en_US", "tts_voice": None,
        "wake_word_entity": None, "wake_word_id": None,
    })
    created = await client.receive_json()
    assert created["success"], created
    audio, rate = pcm_of(FIXTURES / "what_is_two_plus_two.wav")
    events = await run_pipeline(hass, created["result"]["id"], audio, rate)
    by_type = {e.type: e.data for e in events}
    assert PipelineEventType.ERROR not in by_type, by_type.get(PipelineEventType.ERROR)
    intent = by_type[PipelineEventType.INTENT_END]["intent_output"]
    answer = intent["response"]["speech"]["plain"]["speech"]
    assert re.search(r"\b4\b|\bfour\b", answer, re.I), answer

    from homeassistant.helpers.aiohttp_client import async_get_clientsession

    headers = {"Authorization": f"Bearer {embedded_server.token}"}
    async with async_get_clientsession(hass).get(
            f"{embedded_server.api_url}/api/conversation/{intent['conversation_id']}", headers=headers) as r:
        turns = (await r.json())["turns"]
    [block] = turns[-1]["code_blocks"]
    assert block["decision"] == "allow" and block["exit_status"] == 0 and "4" in block["output"], block
    stream = tts.async_get_stream(hass, by_type[PipelineEventType.TTS_END]["tts_output"]["token"])
    data = b"".join([chunk async for chunk in stream.async_stream_result()])
    with wave.open(io.BytesIO(data), "rb") as wav:
        assert wav.getnframes() / wav.getframerate() > 0.5
