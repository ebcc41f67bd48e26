"""Tests of the o1.ask and o1.reset_conversation services."""

from __future__ import annotations

from unittest.mock import patch

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_capture_events

from custom_components.o1.const import (
    DOMAIN,
    EVENT_CODE_BLOCK,
    SERVICE_ASK,
    SERVICE_RESET_CONVERSATION,
)
from homeassistant.config_entries import SOURCE_REAUTH
from homeassistant.const import CONF_TOKEN, CONF_URL
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import HomeAssistantError, ServiceValidationError

from .stub_server import Failure, StubO1Server


async def _ask(hass: HomeAssistant, **data: object) -> dict:
    """Call o1.ask and return its response."""
    return await hass.services.async_call(
        DOMAIN, SERVICE_ASK, data, blocking=True, return_response=True
    )


async def test_ask_returns_answer_and_code(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """o1.ask returns the answer, the conversation id and the code blocks."""
    response = await _ask(hass, text="run code to multiply", profile="coder", language="en")
    assert response["answer"] == "You said: run code to multiply"
    assert response["profile"] == "coder"
    assert response["continue_conversation"] is False
    assert response["code_blocks"] == [
        {
            "language": "python",
            "code": "print(6 * 7)",
            "decision": "allow",
            "category": ["compute"],
            "reason": "safe arithmetic",
            "exit_status": 0,
            "output": "42\n",
            "seconds": 0.01,
        }
    ]
    conversation_id = response["conversation_id"]
    assert conversation_id

    again = await _ask(
        hass,
        config_entry_id=init_integration.entry_id,
        text="again?",
        conversation_id=conversation_id,
    )
    assert again["conversation_id"] == conversation_id
    assert again["continue_conversation"] is True
    sent = [r.json for r in o1_server.requests_to("POST", "/api/conversation")]
    assert sent[0] == {"text": "run code to multiply", "conversation_id": None, "profile": "coder", "language": "en"}
    assert sent[1] == {"text": "again?", "conversation_id": conversation_id, "profile": None, "language": None}


async def test_ask_fires_code_block_events(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """Code run through o1.ask fires the same events as code run by an agent (no entity)."""
    events = async_capture_events(hass, EVENT_CODE_BLOCK)
    context = Context()
    response = await hass.services.async_call(
        DOMAIN, SERVICE_ASK, {"text": "run code", "profile": "coder"},
        blocking=True, return_response=True, context=context,
    )
    await hass.async_block_till_done()
    assert len(events) == 1
    assert events[0].context is context
    assert events[0].data == {
        "entry_id": init_integration.entry_id,
        "subentry_id": None,
        "entity_id": None,
        "conversation_id": response["conversation_id"],
        "profile": "coder",
        "language": "python",
        "code": "print(6 * 7)",
        "decision": "allow",
        "category": ["compute"],
        "reason": "safe arithmetic",
        "exit_status": 0,
        "output": "42\n",
        "seconds": 0.01,
    }
    await _ask(hass, text="just talk")
    await hass.async_block_till_done()
    assert len(events) == 1


@pytest.mark.parametrize(
    ("failure", "message"),
    [
        (Failure(status=500, raw=b"Internal Server Error"), "The o1 server answered HTTP 500"),
        (Failure(status=200, body={}, delay=10), "did not answer within 0.2 seconds"),
    ],
)
async def test_ask_failures_are_bounded_errors(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    o1_server: StubO1Server,
    failure: Failure,
    message: str,
) -> None:
    """A 500 without a sentence, or a server that takes too long, fail the call (never hang)."""
    o1_server.failures["conversation"] = failure
    with (
        patch("custom_components.o1.client.CONVERSATION_TIMEOUT", 0.2),
        pytest.raises(HomeAssistantError) as err,
    ):
        await _ask(hass, text="hello")
    assert message in err.value.translation_placeholders["error"]


async def test_ask_server_error(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """A server error becomes a HomeAssistantError with the server's sentence."""
    o1_server.failures["conversation"] = Failure(
        status=502, body={"error": "llm_unavailable", "message": "The model is down."}
    )
    with pytest.raises(HomeAssistantError) as err:
        await _ask(hass, text="hello")
    assert err.value.translation_key == "request_failed"
    assert err.value.translation_placeholders == {"error": "The model is down."}


async def test_ask_auth_error_starts_reauth(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """A rejected token fails the call and starts re-authentication."""
    o1_server.token = "rotated"
    with pytest.raises(HomeAssistantError):
        await _ask(hass, text="hello")
    await hass.async_block_till_done()
    flows = hass.config_entries.flow.async_progress_by_handler(DOMAIN)
    assert [f["context"]["source"] for f in flows] == [SOURCE_REAUTH]


async def test_ask_unknown_entry(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """An entry id that is not an o1 entry is refused."""
    with pytest.raises(ServiceValidationError) as err:
        await _ask(hass, config_entry_id="nope", text="hello")
    assert err.value.translation_key == "entry_not_found"

    other = MockConfigEntry(domain="other_domain")
    other.add_to_hass(hass)
    with pytest.raises(ServiceValidationError) as err:
        await _ask(hass, config_entry_id=other.entry_id, text="hello")
    assert err.value.translation_key == "entry_not_found"


async def test_ask_entry_not_loaded(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """An unloaded entry is refused."""
    await hass.config_entries.async_unload(init_integration.entry_id)
    with pytest.raises(ServiceValidationError) as err:
        await _ask(hass, config_entry_id=init_integration.entry_id, text="hello")
    assert err.value.translation_key == "entry_not_loaded"
    # With no loaded entry at all, the entry must be named.
    with pytest.raises(ServiceValidationError) as err:
        await _ask(hass, text="hello")
    assert err.value.translation_key == "entry_required"
    assert err.value.translation_placeholders == {"count": "0"}


async def test_ask_needs_entry_when_several(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """With two loaded servers, the entry must be named."""
    second = StubO1Server()
    await second.start()
    try:
        entry = MockConfigEntry(
            domain=DOMAIN,
            unique_id=second.url,
            data={CONF_URL: second.url, CONF_TOKEN: second.token},
        )
        entry.add_to_hass(hass)
        assert await hass.config_entries.async_setup(entry.entry_id)
        await hass.async_block_till_done()
        with pytest.raises(ServiceValidationError) as err:
            await _ask(hass, text="hello")
        assert err.value.translation_key == "entry_required"
        assert err.value.translation_placeholders == {"count": "2"}

        response = await _ask(hass, config_entry_id=entry.entry_id, text="hello")
        assert response["answer"] == "You said: hello"
        assert len(second.requests_to("POST", "/api/conversation")) == 1
        assert o1_server.requests_to("POST", "/api/conversation") == []
        await hass.config_entries.async_unload(entry.entry_id)
    finally:
        await second.stop()


async def test_reset_conversation(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """o1.reset_conversation makes the server forget; unknown ids are fine."""
    response = await _ask(hass, text="remember this", conversation_id="conv-1")
    assert "conv-1" in o1_server.conversations

    await hass.services.async_call(
        DOMAIN, SERVICE_RESET_CONVERSATION, {"conversation_id": response["conversation_id"]}, blocking=True
    )
    assert "conv-1" not in o1_server.conversations
    deletes = o1_server.requests_to("DELETE", "/api/conversation/")
    assert [r.path for r in deletes] == ["/api/conversation/conv-1"]

    # Forgetting it again (404 from the server) is not an error.
    await hass.services.async_call(
        DOMAIN, SERVICE_RESET_CONVERSATION, {"conversation_id": "conv-1"}, blocking=True
    )
    assert len(o1_server.requests_to("DELETE", "/api/conversation/")) == 2


async def test_reset_conversation_server_error(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """A server error while forgetting is raised to the caller."""
    o1_server.failures["delete"] = Failure(status=500, body={"error": "boom", "message": "Boom."})
    with pytest.raises(HomeAssistantError) as err:
        await hass.services.async_call(
            DOMAIN, SERVICE_RESET_CONVERSATION, {"conversation_id": "x"}, blocking=True
        )
    assert err.value.translation_placeholders == {"error": "Boom."}
