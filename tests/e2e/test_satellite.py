"""A voice satellite on Home Assistant's real Wyoming satellite support, answered by the real o1 server.

"Okay Nabu, what is two plus two?" is played into a software satellite (``satellite_wyoming.py``): it hears the
wake word on the device with the microWakeWord model ESPHome boards run, then Home Assistant (phcc's ``hass``,
with HA's ``wyoming`` integration connected to the satellite) runs the preferred Assist pipeline from the
satellite's audio: o1 speech-to-text -> o1 conversation agent (Open Interpreter runs the scripted LLM's code)
-> o1 text-to-speech, and streams the spoken reply back to the satellite, as it would to an ESP32.

A second test runs the wake word in Home Assistant instead (a "streaming" satellite, ESPHome's "wake word in
Home Assistant"): the satellite streams everything and the pipeline starts at its wake word stage, served by a
Wyoming wake word service running the same microWakeWord model.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import imageio_ffmpeg
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers.aiohttp_client import async_get_clientsession
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from tests.e2e.satellite_audio import read_pcm, silence, synthesize, transcribe
from tests.e2e.satellite_wyoming import SatelliteTurn, SoftwareSatellite, WakeWordService
from tests.support.o1_process import O1Process
from tests.support.scripted_llm import ScriptedLLM

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CONNECT_TIMEOUT = 30  # seconds for Home Assistant to connect to the satellite


async def o1_pipeline(hass: HomeAssistant, server: O1Process, hass_ws_client,
                      wake_word: tuple[str, str] | None = None) -> str:
    """Set up HA's wyoming integration on o1 (speech) and the o1 integration (agent); create an Assist pipeline
    from them, with ``wake_word`` = (wake word entity, wake word id) when given, and make it the preferred one
    (satellites use the preferred pipeline). Return its id."""
    await setup_assist(hass)
    await add_wyoming(hass, server.wyoming_port)
    flow = await hass.config_entries.flow.async_init("o1", context={"source": "user"})
    result = await hass.config_entries.flow.async_configure(
        flow["flow_id"], {"url": server.api_url, "token": server.token})
    assert result["type"] == "create_entry", result
    await hass.async_block_till_done()
    found = entities(hass)

    client = await hass_ws_client(hass)
    await client.send_json_auto_id({
        "type": "assist_pipeline/pipeline/create", "name": "o1", "language": "en",
        "conversation_engine": found[("o1", "conversation")], "conversation_language": "en",
        "stt_engine": found[("wyoming", "stt")], "stt_language": "en",
        "tts_engine": found[("wyoming", "tts")], "tts_language": "en_US", "tts_voice": None,
        "wake_word_entity": wake_word[0] if wake_word else None, "wake_word_id": wake_word[1] if wake_word else None,
    })
    created = await client.receive_json()
    assert created["success"], created
    pipeline_id = created["result"]["id"]
    await client.send_json_auto_id({"type": "assist_pipeline/pipeline/set_preferred", "pipeline_id": pipeline_id})
    assert (await client.receive_json())["success"]
    return pipeline_id


async def setup_assist(hass: HomeAssistant) -> None:
    """Set up HA's core, ffmpeg (the static binary from imageio-ffmpeg), conversation and Assist pipelines."""
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "ffmpeg", {"ffmpeg": {"ffmpeg_bin": imageio_ffmpeg.get_ffmpeg_exe()}})
    assert await async_setup_component(hass, "conversation", {})
    assert await async_setup_component(hass, "assist_pipeline", {})


async def add_wyoming(hass: HomeAssistant, port: int) -> MockConfigEntry:
    """Add HA's wyoming integration for the Wyoming server on 127.0.0.1:``port``."""
    entry = MockConfigEntry(domain="wyoming", data={"host": "127.0.0.1", "port": port})
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry


def entities(hass: HomeAssistant) -> dict[tuple[str, str], str]:
    """Entity ids by (integration, domain)."""
    return {(e.platform, e.domain): e.entity_id for e in er.async_get(hass).entities.values()}


async def audit_records(hass: HomeAssistant, server: O1Process) -> list[dict]:
    """Every record of the o1 server's audit log (one per code block run), oldest first."""
    async with async_get_clientsession(hass).get(
            f"{server.api_url}/api/audit", params={"limit": "1000"},
            headers={"Authorization": f"Bearer {server.token}"}) as response:
        assert response.status == 200
        return (await response.json())["records"]


async def connect_satellite(hass: HomeAssistant, satellite: SoftwareSatellite) -> MockConfigEntry:
    """Start ``satellite`` and add it to HA's wyoming integration; wait until HA runs it."""
    await satellite.start()
    # HA's wyoming integration sees a satellite (not a speech service), adds it, connects and runs it.
    entry = await add_wyoming(hass, satellite.port)
    satellites = [e for e in er.async_get(hass).entities.values()
                  if e.platform == "wyoming" and e.domain == "assist_satellite"]
    assert len(satellites) == 1, satellites
    async with asyncio.timeout(CONNECT_TIMEOUT):
        await satellite.running.wait()
    return entry


async def check_answer(hass: HomeAssistant, server: O1Process, llm: ScriptedLLM, turn: SatelliteTurn,
                       audited_before: int, question_seconds: float) -> None:
    """The turn went speech -> o1 stt -> o1 agent (code ran) -> o1 tts -> reply audio saying "four"."""
    assert turn.errors == [], [(e.code, e.text) for e in turn.errors]
    kinds = [e.type for e in turn.events]
    for expected in ("transcribe", "voice-started", "voice-stopped", "transcript", "synthesize",
                     "audio-start", "audio-stop"):
        assert expected in kinds, (expected, kinds)
    assert kinds.index("transcript") < kinds.index("synthesize") < kinds.index("audio-start")
    # HA's voice activity detection ended the utterance, not the satellite running out of silence (8 s).
    assert turn.streamed_seconds < question_seconds + 2.5, turn.streamed_seconds

    transcript = (turn.transcript or "").lower()
    assert "plus" in transcript and ("2" in transcript or "two" in transcript), transcript
    assert "nabu" not in transcript  # only what came after the wake word went to speech-to-text
    assert any("plus" in str(m.get("content")).lower() for m in llm.requests[0]["messages"])
    spoken = (turn.spoken_text or "").lower()
    assert "4" in spoken or "four" in spoken, spoken

    # The reply reached the satellite as audio: long enough to be a sentence, and it says "four".
    assert turn.reply_width == 2 and turn.reply_channels == 1 and turn.reply_rate >= 16000
    seconds = len(turn.reply) / (turn.reply_rate * turn.reply_width)
    assert seconds > 0.8, seconds
    heard = (await transcribe(server.wyoming_port, turn.reply, turn.reply_rate)).lower()
    assert "4" in heard or "four" in heard, heard

    # The code the LLM wrote really ran on the o1 server (this turn's one audit record).
    [record] = (await audit_records(hass, server))[audited_before:]
    assert record["code"].strip() == "print(2 + 2)" and record["exit_status"] == 0, record


async def test_spoken_question_through_a_satellite(
    hass: HomeAssistant, socket_enabled: None, o1_server: O1Process, scripted_llm: ScriptedLLM, hass_ws_client
) -> None:
    """The wake word is heard on the satellite (like ESPHome's micro_wake_word); HA runs stt -> agent -> tts."""
    await o1_pipeline(hass, o1_server, hass_ws_client)
    satellite = SoftwareSatellite()
    entry = await connect_satellite(hass, satellite)
    try:
        audited_before = len(await audit_records(hass, o1_server))
        scripted_llm.script()  # the LLM is shared by the session: start from an empty queue and log
        question = read_pcm(FIXTURES / "what_is_two_plus_two.wav")
        # Without the wake word nothing happens: the satellite keeps its microphone to itself.
        quiet = await satellite.play(silence(0.3) + question)
        assert quiet.wake_seconds is None and quiet.events == []
        assert scripted_llm.requests == []

        wake = await synthesize(o1_server.wyoming_port, "Okay Nabu.")
        scripted_llm.script("```python\nprint(2 + 2)\n```", "Two plus two is four.")
        turn = await satellite.play(silence(0.3) + wake + silence(0.2) + question)

        # The wake word was heard where it was said, before the question.
        assert turn.wake_seconds is not None
        assert 0.3 < turn.wake_seconds <= 0.3 + len(wake) / 32000 + 0.3, turn.wake_seconds
        await check_answer(hass, o1_server, scripted_llm, turn, audited_before, len(question) / 32000)
    finally:
        await hass.config_entries.async_unload(entry.entry_id)
        await hass.async_block_till_done()
        await satellite.stop()


async def test_wake_word_in_home_assistant(
    hass: HomeAssistant, socket_enabled: None, o1_server: O1Process, scripted_llm: ScriptedLLM, hass_ws_client
) -> None:
    """The satellite streams everything; HA's pipeline runs wake (Wyoming wake service) -> stt -> agent -> tts."""
    wake_service = WakeWordService()
    await wake_service.start()
    satellite = SoftwareSatellite(local_wake=False)
    entry = None
    try:
        await setup_assist(hass)
        await add_wyoming(hass, wake_service.port)
        await o1_pipeline(hass, o1_server, hass_ws_client,
                          wake_word=(entities(hass)[("wyoming", "wake_word")], "okay_nabu"))
        entry = await connect_satellite(hass, satellite)
        audited_before = len(await audit_records(hass, o1_server))
        wake = await synthesize(o1_server.wyoming_port, "Okay Nabu.")
        question = read_pcm(FIXTURES / "what_is_two_plus_two.wav")
        scripted_llm.script("```python\nprint(2 + 2)\n```", "Two plus two is four.")
        turn = await satellite.play(silence(0.3) + wake + silence(0.2) + question)

        # HA's wake word stage asked the service, which heard "Okay Nabu" where it was said.
        assert wake_service.streams >= 1
        kinds = [e.type for e in turn.events]
        assert "detect" in kinds and "detection" in kinds and kinds.index("detection") < kinds.index("transcribe")
        assert turn.wake_seconds is not None
        assert 0.3 < turn.wake_seconds <= 0.3 + len(wake) / 32000 + 0.3, turn.wake_seconds
        await check_answer(hass, o1_server, scripted_llm, turn, audited_before,
                           (len(wake) + len(question)) / 32000 + 0.5)
    finally:
        if entry is not None:
            await hass.config_entries.async_unload(entry.entry_id)
            await hass.async_block_till_done()
        await satellite.stop()
        await wake_service.stop()
