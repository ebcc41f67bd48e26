"""The integration against the REAL o1 server (a child process) whose LLM is scripted.

The default profile asks before deleting files: the agent streams its question, fires the code
block's event as 'confirm' and keeps the conversation open; "yes" then runs exactly that code.
Turns go through HA's Assist pipeline (text in, intent stage), the way a voice satellite's do.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
import uuid

import pytest
from pytest_homeassistant_custom_component.common import async_capture_events
from pytest_homeassistant_custom_component.typing import WebSocketGenerator

from custom_components.o1.const import DOMAIN, EVENT_CODE_BLOCK
from homeassistant.components import conversation
from homeassistant.components.conversation import ConversationEntityFeature
from homeassistant.const import ATTR_SUPPORTED_FEATURES
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers.aiohttp_client import async_get_clientsession
from homeassistant.setup import async_setup_component
from tests.support.ha_fixtures import o1_server, scripted_llm  # noqa: F401  (session fixtures)
from tests.support.o1_process import O1Process
from tests.support.scripted_llm import ScriptedLLM


async def _set_up(hass: HomeAssistant, server: O1Process) -> str:
    """Add the o1 integration through its config flow; return the agent's entity id."""
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})
    assert await async_setup_component(hass, "assist_pipeline", {})
    flow = await hass.config_entries.flow.async_init(DOMAIN, context={"source": "user"})
    result = await hass.config_entries.flow.async_configure(
        flow["flow_id"], {"url": server.api_url, "token": server.token}
    )
    assert result["type"] == "create_entry", result
    await hass.async_block_till_done()
    (agent,) = [
        e.entity_id for e in er.async_get(hass).entities.values()
        if e.platform == DOMAIN and e.domain == "conversation"
    ]
    return agent


async def _run_text(client: Any, pipeline_id: str, text: str, conversation_id: str) -> dict[str, list[dict]]:
    """Run the pipeline's intent stage on `text`; return its events' data by type."""
    await client.send_json_auto_id({
        "type": "assist_pipeline/run", "start_stage": "intent", "end_stage": "intent",
        "input": {"text": text}, "pipeline": pipeline_id, "conversation_id": conversation_id,
        "timeout": 120,
    })
    assert (await client.receive_json())["success"]
    events: dict[str, list[dict]] = {}
    while True:
        message = await client.receive_json()
        event = message["event"]
        events.setdefault(event["type"], []).append(event["data"])
        if event["type"] in ("run-end", "error"):
            return events


async def test_confirmation_round_trip_with_the_real_server(
    hass: HomeAssistant,
    socket_enabled: None,
    o1_server: O1Process,
    scripted_llm: ScriptedLLM,
    hass_ws_client: WebSocketGenerator,
) -> None:
    """Streamed question, 'confirm' code event, conversation kept open; 'yes' deletes the folder."""
    agent_id = await _set_up(hass, o1_server)
    agent = conversation.async_get_agent(hass, agent_id)
    assert agent.supports_streaming is True
    # The default profile reads the home but may not control it.
    assert hass.states.get(agent_id).attributes[ATTR_SUPPORTED_FEATURES] == 0
    assert not hass.states.get(agent_id).attributes[ATTR_SUPPORTED_FEATURES] & ConversationEntityFeature.CONTROL

    client = await hass_ws_client(hass)
    await client.send_json_auto_id({
        "type": "assist_pipeline/pipeline/create", "name": "o1 text", "language": "en",
        "conversation_engine": agent_id, "conversation_language": "en",
        "stt_engine": None, "stt_language": None, "tts_engine": None, "tts_language": None,
        "tts_voice": None, "wake_word_entity": None, "wake_word_id": None,
    })
    created = await client.receive_json()
    assert created["success"], created
    pipeline_id = created["result"]["id"]

    # (HA keeps a conversation id the caller picks, unless it is a ULID: those are its own.)
    conversation_id = f"o1-real-{uuid.uuid4().hex}"
    code_events = async_capture_events(hass, EVENT_CODE_BLOCK)
    scripted_llm.script("```shell\nrm -rf drafts\n```")

    events = await _run_text(client, pipeline_id, "Delete the drafts folder.", conversation_id)
    assert "error" not in events, events.get("error")
    (intent_end,) = events["intent-end"]
    output = intent_end["intent_output"]
    answer = output["response"]["speech"]["plain"]["speech"]
    assert answer.endswith("Shall I?"), answer
    assert output["continue_conversation"] is True
    assert output["conversation_id"] == conversation_id
    # The answer came through the chat log as streamed deltas: the code's tool call, then the text.
    deltas = [e["chat_log_delta"] for e in events.get("intent-progress", []) if "chat_log_delta" in e]
    assert any(d.get("tool_calls") for d in deltas), deltas
    assert "".join(d.get("content") or "" for d in deltas) == answer
    # The conversation's sandbox folder, from the server's record, gets a "drafts" folder to delete.
    headers = {"Authorization": f"Bearer {o1_server.token}"}
    async with async_get_clientsession(hass).get(
        f"{o1_server.api_url}/api/conversation/{conversation_id}", headers=headers
    ) as response:
        record = await response.json()
    assert record["pending"] is True  # held for confirmation: nothing ran
    drafts = Path(record["workdir"]) / "drafts"
    drafts.mkdir(parents=True)
    (drafts / "note.txt").write_text("draft")

    await hass.async_block_till_done()
    assert [(e.data["language"], e.data["code"], e.data["decision"]) for e in code_events] == [
        ("shell", "rm -rf drafts", "confirm")
    ]
    assert code_events[0].data["entity_id"] == agent_id
    assert code_events[0].data["conversation_id"] == conversation_id
    assert code_events[0].data["exit_status"] is None

    # "yes" runs exactly the held code.
    events = await _run_text(client, pipeline_id, "yes", conversation_id)
    assert "error" not in events, events.get("error")
    output = events["intent-end"][0]["intent_output"]
    assert output["response"]["speech"]["plain"]["speech"].startswith("Done")
    assert output["continue_conversation"] is False
    await hass.async_block_till_done()
    assert [(e.data["code"], e.data["decision"], e.data["exit_status"]) for e in code_events[1:]] == [
        ("rm -rf drafts", "allow", 0)
    ]
    assert not drafts.exists()
    assert len(scripted_llm.requests) == 1  # the confirmation did not ask the LLM again
