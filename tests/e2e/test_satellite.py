"""A voice satellite on Home Assistant's real Wyoming satellite support, answered by the real o1 server.

"Okay Nabu, what is two plus two?" is played into a software satellite (``satellite_wyoming.py``): it hears the
wake word on the device with the microWakeWord model ESPHome boards run, then Home Assistant (phcc's ``hass``,
with HA's ``wyoming`` integration connected to the satellite) runs the preferred Assist pipeline from the
satellite's audio: o1 speech-to-text -> o1 conversation agent (Open Interpreter runs the scripted LLM's code)
-> o1 text-to-speech, and streams the spoken reply back to the satellite, as it would to an ESP32.
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
from tests.e2e.satellite_wyoming import SoftwareSatellite
from tests.support.o1_process import O1Process
from tests.support.scripted_llm import ScriptedLLM

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CONNECT_TIMEOUT = 30  # seconds for Home Assistant to connect to the satellite


async def o1_pipeline(hass: HomeAssistant, server: O1Process, hass_ws_client) -> str:
    """Set up HA's wyoming integration on o1 (speech) and the o1 integration (agent); create an Assist pipeline
    from them and make it the preferred one (satellites use the preferred pipeline). Return its id."""
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "ffmpeg", {"ffmpeg": {"ffmpeg_bin": imageio_ffmpeg.get_ffmpeg_exe()}})
    assert await async_setup_component(hass, "conversation", {})
    assert await async_setup_component(hass, "assist_pipeline", {})
    speech = MockConfigEntry(domain="wyoming", data={"host": "127.0.0.1", "port": server.wyoming_port})
    speech.add_to_hass(hass)
    assert await hass.config_entries.async_setup(speech.entry_id)
    flow = await hass.config_entries.flow.async_init("o1", context={"source": "user"})
    result = await hass.config_entries.flow.async_configure(
        flow["flow_id"], {"url": server.api_url, "token": server.token})
    assert result["type"] == "create_entry", result
    await hass.async_block_till_done()
    found = {(e.platform, e.domain): e.entity_id for e in er.async_get(hass).entities.values()}

    client = await hass_ws_client(hass)
    await client.send_json_auto_id({
        "type": "assist_pipeline/pipeline/create", "name": "o1", "language": "en",
        "conversation_engine": found[("o1", "conversation")], "conversation_language": "en",
        "stt_engine": found[("wyoming", "stt")], "stt_language": "en",
        "tts_engine": found[("wyoming", "tts")], "tts_language": "en_US", "tts_voice": None,
        "wake_word_entity": None, "wake_word_id": None,
    })
    created = await client.receive_json()
    assert created["success"], created
    pipeline_id = created["result"]["id"]
    await client.send_json_auto_id({"type": "assist_pipeline/pipeline/set_preferred", "pipeline_id": pipeline_id})
    assert (await client.receive_json())["success"]
    return pipeline_id


async def audit_records(hass: HomeAssistant, server: O1Process) -> list[dict]:
    """Every record of the o1 server's audit log (one per code block run), oldest first."""
    async with async_get_clientsession(hass).get(
            f"{server.api_url}/api/audit", params={"limit": "1000"},
            headers={"Authorization": f"Bearer {server.token}"}) as response:
        assert response.status == 200
        return (await response.json())["records"]


async def test_spoken_question_through_a_satellite(
    hass: HomeAssistant, socket_enabled: None, o1_server: O1Process, scripted_llm: ScriptedLLM, hass_ws_client
) -> None:
    await o1_pipeline(hass, o1_server, hass_ws_client)
    satellite = SoftwareSatellite()
    await satellite.start()
    entry = MockConfigEntry(domain="wyoming", data={"host": "127.0.0.1", "port": satellite.port})
    entry.add_to_hass(hass)
    try:
        # HA's wyoming integration sees a satellite (not a speech service), adds it, connects and runs it.
        assert await hass.config_entries.async_setup(entry.entry_id)
        await hass.async_block_till_done()
        satellites = [e for e in er.async_get(hass).entities.values()
                      if e.platform == "wyoming" and e.domain == "assist_satellite"]
        assert len(satellites) == 1, satellites
        async with asyncio.timeout(CONNECT_TIMEOUT):
            await satellite.running.wait()

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
        assert turn.errors == [], [(e.code, e.text) for e in turn.errors]
        kinds = [e.type for e in turn.events]
        for expected in ("transcribe", "voice-started", "voice-stopped", "transcript", "synthesize",
                         "audio-start", "audio-stop"):
            assert expected in kinds, (expected, kinds)
        assert kinds.index("transcript") < kinds.index("synthesize") < kinds.index("audio-start")
        # HA's voice activity detection ended the utterance, not the satellite running out of silence (8 s).
        assert turn.streamed_seconds < len(question) / 32000 + 2.5, turn.streamed_seconds

        transcript = (turn.transcript or "").lower()
        assert "plus" in transcript and ("2" in transcript or "two" in transcript), transcript
        assert "nabu" not in transcript  # only what came after the wake word went to speech-to-text
        assert any("plus" in str(m.get("content")).lower() for m in scripted_llm.requests[0]["messages"])
        assert "4" in (turn.spoken_text or "") or "four" in (turn.spoken_text or "").lower(), turn.spoken_text

        # The reply reached the satellite as audio: long enough to be a sentence, and it says "four".
        assert turn.reply_width == 2 and turn.reply_channels == 1 and turn.reply_rate >= 16000
        seconds = len(turn.reply) / (turn.reply_rate * turn.reply_width)
        assert seconds > 0.8, seconds
        heard = (await transcribe(o1_server.wyoming_port, turn.reply, turn.reply_rate)).lower()
        assert "4" in heard or "four" in heard, heard

        # The code the LLM wrote really ran on the o1 server (this turn's one audit record).
        [record] = (await audit_records(hass, o1_server))[audited_before:]
        assert record["code"].strip() == "print(2 + 2)" and record["exit_status"] == 0, record
    finally:
        await hass.config_entries.async_unload(entry.entry_id)
        await hass.async_block_till_done()
        await satellite.stop()
