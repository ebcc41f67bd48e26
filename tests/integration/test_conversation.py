"""Tests of the o1 conversation agent entity."""

from __future__ import annotations

import logging
from typing import Any
from unittest.mock import patch

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.o1.client import O1Error
from custom_components.o1.conversation import (
    CODE_TOOL_NAME,
    SPEECH_AUTH,
    SPEECH_CONNECTION,
    SPEECH_TIMEOUT,
    SPEECH_UNKNOWN,
    async_error_message,
)
from custom_components.o1.config_flow import conversation_subentry, entry_title
from custom_components.o1.const import DOMAIN
from homeassistant.components import conversation
from homeassistant.config_entries import SOURCE_REAUTH
from homeassistant.const import CONF_TOKEN, CONF_URL, MATCH_ALL
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import chat_session, device_registry as dr, entity_registry as er, intent

from .stub_server import TOKEN, Failure, StubO1Server, default_reply
from .translations import spoken

ENTITY_ID = "conversation.o1_default"
MESSAGE_AUTH = spoken(SPEECH_AUTH)
MESSAGE_CONNECTION = spoken(SPEECH_CONNECTION)
MESSAGE_TIMEOUT = spoken(SPEECH_TIMEOUT)
MESSAGE_UNKNOWN = spoken(SPEECH_UNKNOWN)


async def _converse(
    hass: HomeAssistant, text: str, conversation_id: str | None = None, language: str | None = None
) -> conversation.ConversationResult:
    """Send a sentence to the o1 agent through HA's conversation API."""
    return await conversation.async_converse(
        hass, text, conversation_id, Context(), language=language, agent_id=ENTITY_ID
    )


async def test_agent_entity_registered(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """The default profile's agent is an entity of platform o1 with its own device."""
    entity_registry = er.async_get(hass)
    entries = [
        e for e in er.async_entries_for_config_entry(entity_registry, init_integration.entry_id)
        if e.platform == DOMAIN and e.domain == "conversation"
    ]
    assert [e.entity_id for e in entries] == [ENTITY_ID]
    subentry_id = next(iter(init_integration.subentries))
    assert entries[0].unique_id == subentry_id
    assert entries[0].config_subentry_id == subentry_id

    device = dr.async_get(hass).async_get(entries[0].device_id)
    assert device is not None
    assert device.name == "o1 default"
    assert device.model == "Profile default"
    assert device.sw_version == "0.1.0"
    assert device.entry_type is dr.DeviceEntryType.SERVICE
    # A server added by hand: no link (its HTTP API wants a token, a browser cannot open it).
    assert device.configuration_url is None

    agent = conversation.async_get_agent(hass, ENTITY_ID)
    assert agent is not None
    assert agent.supported_languages == MATCH_ALL
    assert hass.states.get(ENTITY_ID) is not None


async def test_conversation_turns_keep_the_conversation_id(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """The HA conversation id is the o1 conversation id, turn after turn."""
    result = await _converse(hass, "hello there", language="en")
    assert result.response.response_type is intent.IntentResponseType.ACTION_DONE
    assert result.response.speech["plain"]["speech"] == "You said: hello there"
    assert result.continue_conversation is False
    ha_id = result.conversation_id
    assert ha_id

    result = await _converse(hass, "and again", ha_id)
    assert result.conversation_id == ha_id
    assert result.response.speech["plain"]["speech"] == "You said: and again"

    sent = [r.json for r in o1_server.requests_to("POST", "/api/conversation")]
    assert sent == [
        {"text": "hello there", "conversation_id": ha_id, "profile": "default", "language": "en"},
        {"text": "and again", "conversation_id": ha_id, "profile": "default", "language": hass.config.language},
    ]
    assert len(o1_server.conversations[ha_id]) == 2


async def test_continue_conversation_follows_the_server(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """continue_conversation comes from the server's reply, not from punctuation."""
    def reply(request: dict[str, Any]) -> dict[str, Any]:
        """Ask for a confirmation without a question mark."""
        data = default_reply(request)
        data["answer"] = "Say yes to run it"
        data["continue_conversation"] = True
        return data

    o1_server.reply = reply
    result = await _converse(hass, "delete the logs")
    assert result.continue_conversation is True
    assert result.response.speech["plain"]["speech"] == "Say yes to run it"


async def test_code_blocks_in_chat_log(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """Code run by o1 shows in HA's chat log as external tool calls and results."""
    result = await _converse(hass, "run some code please")
    assert result.response.speech["plain"]["speech"] == "You said: run some code please"

    with (
        chat_session.async_get_chat_session(hass, result.conversation_id) as session,
        conversation.async_get_chat_log(hass, session) as chat_log,
    ):
        contents = chat_log.content
    roles = [c.role for c in contents]
    assert roles == ["system", "user", "assistant", "tool_result", "assistant"]
    call = contents[2].tool_calls[0]
    assert call.tool_name == CODE_TOOL_NAME
    assert call.external is True
    assert call.tool_args == {"language": "python", "code": "print(6 * 7)"}
    tool_result = contents[3]
    assert tool_result.tool_call_id == call.id
    assert tool_result.result.error is False
    assert tool_result.result.data["output"] == "42\n"
    assert tool_result.result.data["decision"] == "allow"
    assert contents[4].content == "You said: run some code please"


async def test_failed_code_block_is_an_error_result(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """A code block that exited non-zero is recorded as an error tool result."""
    def reply(request: dict[str, Any]) -> dict[str, Any]:
        """Reply with a failed code block."""
        data = default_reply(request)
        data["code_blocks"] = [
            {"language": "shell", "code": "false", "decision": "allow", "category": [],
             "reason": "", "exit_status": 1, "output": "", "seconds": 0.1}
        ]
        return data

    o1_server.reply = reply
    result = await _converse(hass, "try it")
    with (
        chat_session.async_get_chat_session(hass, result.conversation_id) as session,
        conversation.async_get_chat_log(hass, session) as chat_log,
    ):
        tool_result = chat_log.content[3]
    assert tool_result.result.error is True
    assert tool_result.result.data["exit_status"] == 1


async def test_server_picks_its_own_conversation_id(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """If the server answers with another id, later turns use the server's id."""
    def reply(request: dict[str, Any]) -> dict[str, Any]:
        """Always answer with the server's own conversation id."""
        data = default_reply(request)
        data["conversation_id"] = "server-side-id"
        return data

    o1_server.reply = reply
    first = await _converse(hass, "one")
    second = await _converse(hass, "two", first.conversation_id)
    assert second.conversation_id == first.conversation_id != "server-side-id"
    sent = [r.json["conversation_id"] for r in o1_server.requests_to("POST", "/api/conversation")]
    assert sent == [first.conversation_id, "server-side-id"]

    # When the server goes back to HA's id, the alias is dropped.
    def reply_with_ha_id(request: dict[str, Any]) -> dict[str, Any]:
        """Answer with HA's conversation id."""
        data = default_reply(request)
        data["conversation_id"] = first.conversation_id
        return data

    o1_server.reply = reply_with_ha_id
    await _converse(hass, "three", first.conversation_id)
    await _converse(hass, "four", first.conversation_id)
    sent = [r.json["conversation_id"] for r in o1_server.requests_to("POST", "/api/conversation")]
    assert sent[2:] == ["server-side-id", first.conversation_id]


async def test_conversation_id_aliases_are_bounded(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """Only the most recent id aliases are kept."""
    def reply(request: dict[str, Any]) -> dict[str, Any]:
        """Answer with an id derived from HA's."""
        data = default_reply(request)
        data["conversation_id"] = f"o1-{request['conversation_id']}"
        return data

    o1_server.reply = reply
    with patch("custom_components.o1.conversation.MAX_CONVERSATION_ID_ALIASES", 2):
        ids = [(await _converse(hass, f"turn {n}", f"conv-{n}")).conversation_id for n in range(3)]
        assert ids == ["conv-0", "conv-1", "conv-2"]
        await _converse(hass, "again", "conv-0")
        await _converse(hass, "again", "conv-2")
    sent = [r.json["conversation_id"] for r in o1_server.requests_to("POST", "/api/conversation")]
    # conv-0's alias was evicted; conv-2's was kept.
    assert sent[3:] == ["conv-0", "o1-conv-2"]


@pytest.mark.parametrize(
    ("status", "code", "message"),
    [
        (502, "llm_unavailable", "The language model is not available right now."),
        (504, "timeout", "That took too long, so I stopped."),
        (404, "unknown_profile", "There is no profile called default."),
        (400, "invalid_request", "I did not understand the request."),
    ],
)
async def test_server_errors_are_spoken(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    o1_server: StubO1Server,
    status: int,
    code: str,
    message: str,
) -> None:
    """An API error becomes an error response that speaks the server's sentence."""
    o1_server.failures["conversation"] = Failure(status=status, body={"error": code, "message": message})
    result = await _converse(hass, "hello")
    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert result.response.error_code is intent.IntentResponseErrorCode.UNKNOWN
    assert result.response.speech["plain"]["speech"] == message
    assert result.conversation_id


async def test_server_error_without_message(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """An error without a JSON body still gives a sentence."""
    o1_server.failures["conversation"] = Failure(status=500, raw=b"Internal Server Error")
    result = await _converse(hass, "hello")
    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert result.response.speech["plain"]["speech"] == "The o1 server answered HTTP 500"


async def test_auth_error_is_spoken_and_starts_reauth(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """A rejected token is told to the user and starts a re-authentication flow."""
    o1_server.token = "rotated"
    result = await _converse(hass, "hello")
    await hass.async_block_till_done()
    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert result.response.speech["plain"]["speech"] == MESSAGE_AUTH
    flows = hass.config_entries.flow.async_progress_by_handler(DOMAIN)
    assert [f["context"]["source"] for f in flows] == [SOURCE_REAUTH]


async def test_timeout_is_spoken(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """A turn that takes longer than the client's timeout ends with a sentence, not a hang."""
    o1_server.failures["conversation"] = Failure(status=200, body={}, delay=10)
    with patch("custom_components.o1.client.CONVERSATION_TIMEOUT", 0.2):
        result = await _converse(hass, "think hard")
    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert result.response.speech["plain"]["speech"] == MESSAGE_TIMEOUT


async def test_connection_error_is_spoken(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server, caplog: pytest.LogCaptureFixture
) -> None:
    """A server that went away gives a sentence; the log warns without the user's words (debug only)."""
    await o1_server.stop()
    with caplog.at_level(logging.DEBUG, logger="custom_components.o1"):
        result = await _converse(hass, "hello my secret diary")
    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert result.response.speech["plain"]["speech"] == MESSAGE_CONNECTION
    records = [r for r in caplog.records if r.name.startswith("custom_components.o1")]
    assert any("o1 could not answer a turn of" in r.getMessage() for r in records if r.levelno == logging.WARNING)
    assert any("secret diary" in r.getMessage() for r in records if r.levelno == logging.DEBUG)
    assert not any("secret diary" in r.getMessage() for r in records if r.levelno > logging.DEBUG)


@pytest.mark.parametrize(
    ("language", "spoken_in"), [("de", "de"), ("de-CH", "de"), ("en", "en"), ("fr", "en")]
)
async def test_errors_are_spoken_in_the_conversation_language(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    o1_server: StubO1Server,
    language: str,
    spoken_in: str,
) -> None:
    """The sentence of a failure is in the user's language (English when o1 has no translation)."""
    await o1_server.stop()
    result = await _converse(hass, "hallo", language=language)
    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert result.response.speech["plain"]["speech"] == spoken(SPEECH_CONNECTION, spoken_in)
    assert spoken(SPEECH_CONNECTION, "de") != spoken(SPEECH_CONNECTION, "en")


async def test_malformed_reply_is_spoken(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """A reply that is not the API's shape gives a sentence."""
    o1_server.failures["conversation"] = Failure(status=200, body={"answer": "no id"})
    result = await _converse(hass, "hello")
    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert result.response.speech["plain"]["speech"] == MESSAGE_CONNECTION


async def test_other_profile_agent(
    hass: HomeAssistant, setup_ha: None, o1_server: StubO1Server
) -> None:
    """Each profile subentry is its own agent that sends its own profile."""
    entry = MockConfigEntry(
        domain=DOMAIN,
        title=entry_title(o1_server.url),
        unique_id=o1_server.url,
        data={CONF_URL: o1_server.url, CONF_TOKEN: TOKEN},
        subentries_data=[conversation_subentry("default"), conversation_subentry("coder")],
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()

    result = await conversation.async_converse(
        hass, "hi", None, Context(), agent_id="conversation.o1_coder"
    )
    assert result.response.speech["plain"]["speech"] == "You said: hi"
    assert o1_server.requests_to("POST", "/api/conversation")[-1].json["profile"] == "coder"


async def test_other_subentry_types_get_no_agent(
    hass: HomeAssistant, setup_ha: None, o1_server: StubO1Server
) -> None:
    """Only conversation subentries become conversation agents."""
    entry = MockConfigEntry(
        domain=DOMAIN,
        unique_id=o1_server.url,
        data={CONF_URL: o1_server.url, CONF_TOKEN: TOKEN},
        subentries_data=[
            {"subentry_type": "something_else", "data": {"profile": "default"}, "title": "x", "unique_id": None}
        ],
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert er.async_entries_for_config_entry(er.async_get(hass), entry.entry_id) == []


async def test_error_message_of_a_bare_error(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """An error of no known kind still gives a (translated) sentence."""
    assert await async_error_message(hass, O1Error("x"), "en") == MESSAGE_UNKNOWN
    assert await async_error_message(hass, O1Error("x"), "de") == spoken(SPEECH_UNKNOWN, "de")
