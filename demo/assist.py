"""HA's side of the demo: integrations, the Assist pipeline, one spoken run, the reply audio."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from audio import Pcm
from ha_api import HAError, HomeAssistantREST, HomeAssistantWS, wait_for
from progress import log

LANGUAGE = "en"
AUDIO_CHUNK_BYTES = 2048  # 64 ms of 16 kHz 16-bit mono, about what a satellite sends

Events = dict[str, dict[str, Any]]  # pipeline event type -> {"type", "data", "timestamp"}


@dataclass
class Engines:
    """The entities the demo's pipeline is made of, with a language and voice for each."""

    stt: str
    stt_language: str
    conversation: str
    tts: str
    tts_language: str
    tts_voice: str | None


async def add_integrations(rest: HomeAssistantREST, wyoming_port: int, o1_url: str, o1_token: str) -> None:
    """Add HA's wyoming integration (o1's speech services) and the o1 integration (o1's agent)."""
    entry = await rest.add_integration("wyoming", {"host": "127.0.0.1", "port": wyoming_port})
    log(f"wyoming integration added: {entry.get('title')!r}, state {entry.get('state')}")
    entry = await rest.add_integration("o1", {"url": o1_url, "token": o1_token})
    log(f"o1 integration added: {entry.get('title')!r}, state {entry.get('state')}")


async def find_engines(hass_ws: HomeAssistantWS) -> Engines:
    """Find o1's speech entities (wyoming platform) and agent entity (o1 platform), with languages/voice."""
    found = {}
    for platform, domain in (("wyoming", "stt"), ("wyoming", "tts"), ("o1", "conversation")):
        found[domain] = await wait_for(lambda p=platform, d=domain: _find_entity(hass_ws, p, d),
                                       f"the {platform} {domain} entity", limit=60)
    stt_language = await _engine_language(hass_ws, "stt", found["stt"])
    tts_language = await _engine_language(hass_ws, "tts", found["tts"])
    voices = await hass_ws.command("tts/engine/voices", engine_id=found["tts"], language=tts_language)
    return Engines(stt=found["stt"], stt_language=stt_language, conversation=found["conversation"],
                   tts=found["tts"], tts_language=tts_language,
                   tts_voice=voices["voices"][0]["voice_id"] if voices["voices"] else None)


async def _find_entity(hass_ws: HomeAssistantWS, platform: str, domain: str) -> str | None:
    """Return the first registered entity of `platform` in `domain`, or None."""
    for entry in await hass_ws.command("config/entity_registry/list"):
        if entry["platform"] == platform and entry["entity_id"].startswith(f"{domain}."):
            return entry["entity_id"]
    return None


async def _engine_language(hass_ws: HomeAssistantWS, kind: str, engine_id: str) -> str:
    """Return the best language of an stt/tts engine for LANGUAGE (HA's own matching, best first)."""
    providers = (await hass_ws.command(f"{kind}/engine/list", language=LANGUAGE))["providers"]
    for provider in providers:
        if provider["engine_id"] == engine_id and provider["supported_languages"]:
            return provider["supported_languages"][0]
    raise HAError(f"{engine_id} supports no language matching {LANGUAGE!r}")


async def create_pipeline(hass_ws: HomeAssistantWS, engines: Engines) -> str:
    """Create the demo's Assist pipeline and return its id."""
    pipeline = await hass_ws.command(
        "assist_pipeline/pipeline/create",
        name="o1 demo",
        language=LANGUAGE,
        stt_engine=engines.stt,
        stt_language=engines.stt_language,
        conversation_engine=engines.conversation,
        conversation_language=LANGUAGE,
        tts_engine=engines.tts,
        tts_language=engines.tts_language,
        tts_voice=engines.tts_voice,
        wake_word_entity=None,
        wake_word_id=None,
    )
    return pipeline["id"]


async def run_pipeline(hass_ws: HomeAssistantWS, pipeline_id: str, question: Pcm, limit: float) -> Events:
    """Stream the question through the pipeline, from speech-to-text to text-to-speech.

    Returns the run's events by type. Raises HAError on an `error` event and TimeoutError when the run
    takes longer than `limit` seconds (HA is given the same limit).
    """
    events: Events = {}
    try:
        async with asyncio.timeout(limit):
            _, stream = await hass_ws.subscribe(
                "assist_pipeline/run", pipeline=pipeline_id, start_stage="stt", end_stage="tts",
                input={"sample_rate": question.rate}, timeout=limit)
            async for event in stream:
                kind, data = event["type"], event.get("data") or {}
                events[kind] = event
                _log_event(kind, data)
                if kind == "run-start":
                    await _send_question(hass_ws, data["runner_data"]["stt_binary_handler_id"], question)
                elif kind == "error":
                    raise HAError(f"pipeline error {data.get('code')}: {data.get('message')}")
                elif kind == "run-end":
                    return events
    except TimeoutError:
        last = list(events)[-1] if events else "none"
        raise TimeoutError(f"the pipeline run took longer than {limit:.0f} s "
                           f"(last event: {last})") from None
    raise HAError("the WebSocket ended before run-end")


async def _send_question(hass_ws: HomeAssistantWS, handler_id: int, question: Pcm) -> None:
    """Send the PCM as binary messages prefixed by the handler id, then the id alone to end the stream."""
    prefix = bytes([handler_id])
    for start in range(0, len(question.data), AUDIO_CHUNK_BYTES):
        await hass_ws.send_binary(prefix + question.data[start:start + AUDIO_CHUNK_BYTES])
    await hass_ws.send_binary(prefix)
    log(f"sent {question.seconds:.1f} s of audio")


def _log_event(kind: str, data: dict[str, Any]) -> None:
    """Log one pipeline event with what matters in it."""
    detail = ""
    if kind == "stt-end":
        detail = repr(transcript(data))
    elif kind == "intent-end":
        detail = repr(speech(data))
    elif kind == "error":
        detail = f"{data.get('code')}: {data.get('message')}"
    log(f"pipeline event {kind} {detail}".rstrip())


def transcript(stt_end: dict[str, Any]) -> str:
    """Return the text of an stt-end event."""
    return stt_end.get("stt_output", {}).get("text", "")


def speech(intent_end: dict[str, Any]) -> str:
    """Return the spoken answer of an intent-end event."""
    response = intent_end.get("intent_output", {}).get("response", {})
    return response.get("speech", {}).get("plain", {}).get("speech", "")


def conversation_id(events: Events) -> str | None:
    """Return the conversation id HA reported at intent-end."""
    return events.get("intent-end", {}).get("data", {}).get("intent_output", {}).get("conversation_id")


def stage_seconds(events: Events, first: str, last: str) -> float | None:
    """Return the seconds between two events by HA's own timestamps, or None if one is missing."""
    if first not in events or last not in events:
        return None
    began = datetime.fromisoformat(events[first]["timestamp"])
    ended = datetime.fromisoformat(events[last]["timestamp"])
    return (ended - began).total_seconds()


@dataclass
class ReplyAudio:
    """The reply audio as downloaded from HA."""

    data: bytes
    content_type: str
    seconds: float  # download time, which includes the synthesis (HA renders TTS lazily)
    how: str


async def fetch_reply_audio(rest: HomeAssistantREST, events: Events, engines: Engines) -> ReplyAudio:
    """Download the pipeline's reply audio from HA.

    The pipeline API gives no say over the format: HA renders mp3, converting the engine's WAV with
    ffmpeg. Without ffmpeg that fails; the answer is then spoken again through HA's TTS URL API asking
    for WAV, which the Wyoming engine gives natively (no conversion).
    """
    url = events.get("tts-end", {}).get("data", {}).get("tts_output", {}).get("url")
    began = time.monotonic()
    try:
        if not url:
            raise HAError("the pipeline gave no TTS URL")
        data, content_type = await rest.download(url)
        how = "the pipeline's own reply"
    except HAError as err:
        log(f"could not fetch the pipeline's reply audio ({err}); asking HA's TTS for WAV instead")
        data, content_type = await _synthesize_wav(rest, engines, speech(events["intent-end"]["data"]))
        how = "spoken again as WAV through /api/tts_get_url (HA had no ffmpeg for the pipeline's mp3)"
    took = time.monotonic() - began
    log(f"reply audio: {len(data)} bytes of {content_type} in {took:.1f} s")
    return ReplyAudio(data, content_type, took, how)


async def _synthesize_wav(rest: HomeAssistantREST, engines: Engines, text: str) -> tuple[bytes, str]:
    """Have HA's TTS speak `text` with the pipeline's engine and voice, as WAV (no ffmpeg needed)."""
    options: dict[str, Any] = {"preferred_format": "wav"}
    if engines.tts_voice:
        options["voice"] = engines.tts_voice
    answer = await rest.request("POST", "/api/tts_get_url", {
        "engine_id": engines.tts, "message": text, "language": engines.tts_language, "options": options})
    return await rest.download(answer["path"])
