"""Tests of the o1 agent's streaming: deltas into HA's chat log, code events, broken streams."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
import time
from typing import Any
from unittest.mock import patch

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_capture_events

from custom_components.o1.config_flow import conversation_subentry, entry_title
from custom_components.o1.const import DOMAIN, EVENT_CODE_BLOCK, EVENT_MAX_OUTPUT
from custom_components.o1.conversation import (
    CODE_TOOL_NAME,
    SPEECH_STREAM_DROPPED,
    SPEECH_TIMEOUT,
    SPEECH_CONNECTION,
)
from homeassistant.components import conversation
from homeassistant.components.conversation import ConversationEntityFeature
from homeassistant.const import (
    ATTR_SUPPORTED_FEATURES,
    CONF_LLM_HASS_API,
    CONF_TOKEN,
    CONF_URL,
    STATE_UNAVAILABLE,
)
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import chat_session, intent

from .stub_server import TOKEN, StreamAction, StubO1Server, default_reply
from .translations import spoken

ENTITY_ID = "conversation.o1_default"
DELTA = {"type": "delta", "text": "Half an answer."}


def _script(*items: Any) -> Callable[[dict[str, Any], dict[str, Any]], list[Any]]:
    """Return a stub stream script: `items`, where the string "DONE" is the request's done event."""
    return lambda request, reply: [
        {"type": "done", "reply": reply} if item == "DONE" else item for item in items
    ]


def _reply_with(**changes: Any) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """Return a stub reply function: the default reply with some fields changed."""
    return lambda request: {**default_reply(request), **changes}


async def _converse(
    hass: HomeAssistant,
    text: str,
    deltas: list[dict[str, Any]] | None = None,
    conversation_id: str | None = None,
    context: Context | None = None,
) -> tuple[conversation.ConversationResult, list[conversation.Content]]:
    """Run a turn the way the Assist pipeline does (a chat log with a delta listener).

    Returns the result and the chat log's content after the turn.
    """
    user_input = conversation.ConversationInput(
        text=text,
        context=context or Context(),
        conversation_id=conversation_id,
        device_id=None,
        satellite_id=None,
        language="en",
        agent_id=ENTITY_ID,
    )
    with (
        chat_session.async_get_chat_session(hass, conversation_id) as session,
        conversation.async_get_chat_log(
            hass,
            session,
            user_input,
            chat_log_delta_listener=lambda chat_log, delta: (deltas if deltas is not None else []).append(delta),
        ) as chat_log,
    ):
        result = await conversation.async_converse(
            hass, text, session.conversation_id, user_input.context, language="en", agent_id=ENTITY_ID
        )
        return result, list(chat_log.content)


def _speech(result: conversation.ConversationResult) -> str:
    """Return what the result says."""
    return result.response.speech["plain"]["speech"]


async def test_agent_streams_before_the_turn_ends(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """The first sentence reaches the chat log's listener (the TTS) while the server still works."""
    o1_server.reply = _reply_with(answer="First sentence. Second one.")
    o1_server.stream = _script(
        {"type": "delta", "text": "First sentence."},
        StreamAction.GATE,
        {"type": "delta", "text": " Second one."},
        "DONE",
    )
    agent = conversation.async_get_agent(hass, ENTITY_ID)
    assert agent.supports_streaming is True

    deltas: list[dict[str, Any]] = []
    task = hass.async_create_task(_converse(hass, "talk", deltas))
    for _ in range(200):
        if deltas:
            break
        await asyncio.sleep(0.01)
    assert deltas == [{"role": "assistant", "content": "First sentence."}]
    assert not task.done()

    o1_server.gate.set()
    result, content = await task
    assert deltas[-1] == {"content": " Second one."}
    assert _speech(result) == "First sentence. Second one."
    assert result.response.response_type is intent.IntentResponseType.ACTION_DONE
    assert [c.role for c in content] == ["system", "user", "assistant"]
    assert content[-1].content == "First sentence. Second one."


async def test_code_and_text_interleave_in_the_chat_log(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """Text, a code block, more text: each in its place, the answer spoken whole."""
    block = {"language": "python", "code": "print(1)", "decision": "allow", "exit_status": 0, "output": "1\n"}
    o1_server.reply = _reply_with(answer="Let me check. It is 1.")
    o1_server.stream = _script(
        {"type": "delta", "text": "Let me check."},
        {"type": "delta", "text": ""},
        {"type": "code", "block": block},
        {"type": "delta", "text": " It is 1."},
        "DONE",
    )
    deltas: list[dict[str, Any]] = []
    result, content = await _converse(hass, "check", deltas)
    assert _speech(result) == "Let me check. It is 1."
    assert [c.role for c in content] == [
        "system", "user", "assistant", "assistant", "tool_result", "assistant"
    ]
    assert content[2].content == "Let me check."
    assert content[3].tool_calls[0].tool_name == CODE_TOOL_NAME
    assert content[3].tool_calls[0].tool_args == {"language": "python", "code": "print(1)"}
    assert content[4].result.data["output"] == "1\n"
    assert content[5].content == " It is 1."
    # The listener saw the tool call between the two sentences (the pipeline inserts a pause there).
    assert [d.get("role") for d in deltas if "role" in d] == ["assistant", "assistant", "tool_result", "assistant"]


async def test_each_code_block_fires_an_event(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """An o1_code_block event per block, with the turn's context and a truncated output."""
    events = async_capture_events(hass, EVENT_CODE_BLOCK)
    long_output = "x" * (EVENT_MAX_OUTPUT + 500)
    blocks = [
        {"language": "shell", "code": "rm -rf drafts", "decision": "confirm",
         "category": ["deletes_files"], "reason": "This deletes drafts.", "exit_status": None,
         "output": "", "seconds": 0},
        {"language": "python", "code": "print('x' * 1500)", "decision": "allow", "category": [],
         "reason": "", "exit_status": 0, "output": long_output, "seconds": 0.5},
    ]
    o1_server.reply = _reply_with(code_blocks=blocks)
    context = Context()
    result, _ = await _converse(hass, "clean up", context=context)
    await hass.async_block_till_done()

    subentry_id = next(iter(init_integration.subentries))
    assert [e.data["decision"] for e in events] == ["confirm", "allow"]
    first = events[0]
    assert first.context is context
    assert first.data == {
        "entry_id": init_integration.entry_id,
        "subentry_id": subentry_id,
        "entity_id": ENTITY_ID,
        "conversation_id": result.conversation_id,
        "profile": "default",
        "language": "shell",
        "code": "rm -rf drafts",
        "decision": "confirm",
        "category": ["deletes_files"],
        "reason": "This deletes drafts.",
        "exit_status": None,
        "output": "",
        "seconds": 0,
    }
    output = events[1].data["output"]
    assert len(output) == EVENT_MAX_OUTPUT
    assert output.endswith("…")
    assert events[1].data["exit_status"] == 0


@pytest.mark.parametrize("ending", [StreamAction.DROP, StreamAction.END])
async def test_dropped_stream_mid_answer_is_spoken(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server, ending: StreamAction
) -> None:
    """A stream that breaks off after a sentence ends with a spoken error, streamed too, at once."""
    o1_server.stream = _script(DELTA, ending)
    deltas: list[dict[str, Any]] = []
    started = time.monotonic()
    result, content = await _converse(hass, "hello", deltas)
    assert time.monotonic() - started < 5

    expected = f"Half an answer. {spoken(SPEECH_STREAM_DROPPED)}"
    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert _speech(result) == expected
    assert result.conversation_id
    # The error sentence went through the stream as well, so a TTS that started speaks it.
    assert "".join(d.get("content") or "" for d in deltas) == expected
    assert content[-1].content == expected


async def test_stalled_stream_mid_answer_times_out(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """A stream that stops sending ends with the spoken timeout, not a hang."""
    o1_server.stream = _script({"type": "delta", "text": "Half "}, StreamAction.HANG)
    started = time.monotonic()
    with patch("custom_components.o1.client.CONVERSATION_TIMEOUT", 0.3):
        result, _ = await _converse(hass, "hello")
    assert time.monotonic() - started < 5
    # No double space after a piece that already ends with one.
    assert _speech(result) == f"Half {spoken(SPEECH_TIMEOUT)}"


async def test_error_event_mid_answer_speaks_the_servers_sentence(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """An error event after some sentences: what was said, then the server's sentence."""
    o1_server.stream = _script(
        DELTA, {"type": "error", "error": "llm_unavailable", "message": "My language model went away."}
    )
    result, _ = await _converse(hass, "hello")
    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert _speech(result) == "Half an answer. My language model went away."


async def test_reply_without_deltas_is_still_said(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """A done event with an answer that was not streamed puts the answer in the chat log."""
    o1_server.stream = _script("DONE")
    deltas: list[dict[str, Any]] = []
    result, content = await _converse(hass, "quiet", deltas)
    assert _speech(result) == "You said: quiet"
    assert deltas == [{"role": "assistant", "content": "You said: quiet"}]
    assert content[-1].content == "You said: quiet"


@pytest.mark.parametrize(
    ("answer", "server_says", "expected"),
    [
        ("This deletes drafts. Shall I?", True, True),
        ("Did you know? It is 4.", False, False),
        ("Is it 4?", False, False),
    ],
)
async def test_continue_conversation_comes_from_the_done_reply(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    o1_server: StubO1Server,
    answer: str,
    server_says: bool,
    expected: bool,
) -> None:
    """The streamed done reply decides whether the conversation stays open, not a question mark."""
    o1_server.reply = _reply_with(answer=answer, continue_conversation=server_says)
    result, _ = await _converse(hass, "delete the drafts")
    assert _speech(result) == answer
    assert result.continue_conversation is expected


async def test_agent_turns_unavailable_when_the_server_goes(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """A failed turn checks the server at once: the agent turns unavailable but still answers."""
    assert hass.states.get(ENTITY_ID).state != STATE_UNAVAILABLE
    await o1_server.stop()
    result, _ = await _converse(hass, "hello")
    await hass.async_block_till_done()
    assert _speech(result) == spoken(SPEECH_CONNECTION)
    assert hass.states.get(ENTITY_ID).state == STATE_UNAVAILABLE

    result, _ = await _converse(hass, "still there?")
    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert _speech(result) == spoken(SPEECH_CONNECTION)


async def test_control_feature_follows_the_profiles_home_access(
    hass: HomeAssistant, setup_ha: None, o1_server: StubO1Server
) -> None:
    """CONTROL only when the agent really has tools: its profile may control the home and an HA LLM
    API is in effect (the agent's own choice, else its profile's); it follows the server."""
    no_api = conversation_subentry("power")
    no_api["data"] = {**no_api["data"], CONF_LLM_HASS_API: []}  # every API unticked in the agent's form
    o1_server.info["profiles"].append({"name": "power", "ha_access": "control", "llm_hass_api": ["assist"]})
    entry = MockConfigEntry(
        domain=DOMAIN,
        title=entry_title(o1_server.url),
        unique_id=o1_server.url,
        data={CONF_URL: o1_server.url, CONF_TOKEN: TOKEN},
        subentries_data=[conversation_subentry("default"), conversation_subentry("coder"), no_api],
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()

    def features(entity_id: str) -> int:
        """Return the supported features an agent's state shows."""
        return hass.states.get(entity_id).attributes[ATTR_SUPPORTED_FEATURES]

    assert features("conversation.o1_default") == 0  # ha_access: read
    assert features("conversation.o1_coder") == ConversationEntityFeature.CONTROL  # control, Assist
    assert features("conversation.o1_power") == 0  # control, but no API: nothing to control with

    # A profile that may control the home but asks for no API (or one HA does not have) has no tools.
    o1_server.info["profiles"][0]["ha_access"] = "control"
    o1_server.info["profiles"][1]["llm_hass_api"] = ["no_such_api"]
    await entry.runtime_data.coordinator.async_refresh()
    await hass.async_block_till_done()
    assert features("conversation.o1_default") == 0
    assert features("conversation.o1_coder") == 0

    o1_server.info["profiles"][0]["llm_hass_api"] = ["assist"]
    o1_server.info["profiles"][1] = {"name": "coder", "ha_access": "none", "llm_hass_api": ["assist"]}
    await entry.runtime_data.coordinator.async_refresh()
    await hass.async_block_till_done()
    assert features("conversation.o1_default") == ConversationEntityFeature.CONTROL
    assert features("conversation.o1_coder") == 0

    # A profile the server dropped cannot control anything.
    del o1_server.info["profiles"][0]
    await entry.runtime_data.coordinator.async_refresh()
    await hass.async_block_till_done()
    assert features("conversation.o1_default") == 0
