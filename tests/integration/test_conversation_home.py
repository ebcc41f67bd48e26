"""Tests of the agent's Home Assistant side of a turn (conversation.py): which agents send the home context,
the tool calls the server relays (answered and posted back) and the broker's calls in the chat log.

The tools themselves are home.py's; here only the agent's relay is checked, through the stub server.
"""

from __future__ import annotations

from collections.abc import Callable
import logging
from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.o1.config_flow import conversation_subentry, entry_title
from custom_components.o1.const import DOMAIN
from homeassistant.components import conversation
from homeassistant.const import CONF_LLM_HASS_API, CONF_TOKEN, CONF_URL
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import chat_session

from .stub_server import TOKEN, StubO1Server

CODER = "conversation.o1_coder"
NONE = "conversation.o1_none"
BROKEN = "conversation.o1_broken"
TOOL_CALL = {
    "type": "tool_call",
    "turn_id": "turn-1",
    "id": "call-1",
    "name": "o1.get_states",
    "args": {"entity_ids": ["light.kitchen"]},
}


def _script(*items: Any) -> Callable[[dict[str, Any], dict[str, Any]], list[Any]]:
    """Return a stub stream script: `items`, where "DONE" is the request's done event."""
    return lambda request, reply: [{"type": "done", "reply": reply} if item == "DONE" else item for item in items]


def _agent(profile: str, title_profile: str, apis: list[str] | None) -> Any:
    """Return the subentry of an agent of `profile` titled "o1 <title_profile>", with its APIs if given."""
    subentry = conversation_subentry(profile)
    subentry["title"] = f"o1 {title_profile}"
    subentry["unique_id"] = title_profile
    if apis is not None:
        subentry["data"] = {**subentry["data"], CONF_LLM_HASS_API: apis}
    return subentry


@pytest.fixture
async def agents(hass: HomeAssistant, setup_ha: None, o1_server: StubO1Server) -> MockConfigEntry:
    """Three agents of the `coder` profile (control, Assist): its own choice, no API, an API HA lacks."""
    entry = MockConfigEntry(
        domain=DOMAIN,
        title=entry_title(o1_server.url),
        unique_id=o1_server.server_id,
        data={CONF_URL: o1_server.url, CONF_TOKEN: TOKEN},
        subentries_data=[
            _agent("coder", "coder", None),
            _agent("coder", "none", []),
            _agent("coder", "broken", ["no_such_api"]),
        ],
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    hass.states.async_set("light.kitchen", "on", {"friendly_name": "Kitchen light"})
    return entry


async def _turn(hass: HomeAssistant, agent_id: str, text: str) -> list[conversation.Content]:
    """Run a turn with a chat log and return the chat log's content after it."""
    with (
        chat_session.async_get_chat_session(hass, None) as session,
        conversation.async_get_chat_log(hass, session, None) as chat_log,
    ):
        await conversation.async_converse(
            hass, text, session.conversation_id, Context(), language="en", agent_id=agent_id
        )
        return list(chat_log.content)


async def test_only_agents_with_an_api_send_the_home_context(
    hass: HomeAssistant, agents: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """The profile's choice (Assist) sends the context; an agent with every API unticked sends none."""
    await _turn(hass, CODER, "is the kitchen light on")
    await _turn(hass, NONE, "is the kitchen light on")
    coder, none = (r.json for r in o1_server.requests_to("POST", "/api/conversation/stream"))
    assert coder["home"]["llm_apis"] == ["assist"]
    assert coder["home"]["tools"]  # Assist's tools
    assert "light.kitchen" in [entity["entity_id"] for entity in coder["home"]["entities"]]
    assert "home" not in none


async def test_an_api_home_assistant_lacks_is_logged_and_the_turn_goes_on(
    hass: HomeAssistant, agents: MockConfigEntry, o1_server: StubO1Server, caplog: pytest.LogCaptureFixture
) -> None:
    """An LLM API id HA does not know: a warning, and the turn still carries the entities."""
    with caplog.at_level(logging.WARNING):
        await _turn(hass, BROKEN, "hello")
    assert "LLM API ['no_such_api'] is not available" in caplog.text
    (request,) = o1_server.requests_to("POST", "/api/conversation/stream")
    assert request.json["home"]["llm_apis"] == ["no_such_api"]
    assert request.json["home"]["tools"] == []  # no API instance: no tools
    assert "light.kitchen" in [entity["entity_id"] for entity in request.json["home"]["entities"]]


async def test_a_relayed_tool_call_is_answered_to_the_server(
    hass: HomeAssistant, agents: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """The server's tool call is run in HA and its result posted to the turn's tool_results."""
    o1_server.stream = _script(TOOL_CALL, {"type": "delta", "text": "It is on."}, "DONE")
    content = await _turn(hass, CODER, "is the kitchen light on")
    answer = o1_server.tool_results[("turn-1", "call-1")]
    assert "light.kitchen" in str(answer) and "'on'" in str(answer)
    assert "error" not in answer
    assert content[-1].content == "It is on."


async def test_a_tool_call_to_an_agent_without_home_context_is_refused(
    hass: HomeAssistant, agents: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """An agent that sent no context answers the call with a refusal (nothing runs in HA)."""
    o1_server.stream = _script(TOOL_CALL, "DONE")
    await _turn(hass, NONE, "turn it on")
    assert o1_server.tool_results[("turn-1", "call-1")] == {
        "error": "denied",
        "message": "This agent sent no Home Assistant context.",
    }


async def test_a_tool_call_the_server_stopped_waiting_for_is_dropped(
    hass: HomeAssistant, agents: MockConfigEntry, o1_server: StubO1Server, caplog: pytest.LogCaptureFixture
) -> None:
    """HTTP 404 on the result (the call timed out on the server): the turn goes on to its end."""
    o1_server.gone_calls.add("call-1")
    o1_server.stream = _script(TOOL_CALL, {"type": "delta", "text": "Too late."}, "DONE")
    with caplog.at_level(logging.DEBUG, logger="custom_components.o1"):
        content = await _turn(hass, CODER, "is the kitchen light on")
    assert "no longer waited for tool call o1.get_states" in caplog.text
    assert o1_server.tool_results == {}
    assert content[-1].content == "Too late."


async def test_the_brokers_calls_show_in_the_chat_log(
    hass: HomeAssistant, agents: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """Each ``home`` event is an external ``o1_ha.<op>`` tool call and its result (ok or an error)."""
    o1_server.stream = _script(
        {
            "type": "home",
            "call": {
                "op": "state",
                "args": {"name": "kitchen light"},
                "access": "read",
                "outcome": "ok",
                "result": "on",
            },
        },
        {
            "type": "home",
            "call": {
                "op": "turn_on",
                "args": "not a dict",
                "access": "control",
                "outcome": "denied",
                "error": "not_exposed",
                "message": "Not exposed.",
            },
        },
        {"type": "delta", "text": "Done."},
        "DONE",
    )
    content = await _turn(hass, CODER, "kitchen light")
    calls = [c for c in content if isinstance(c, conversation.AssistantContent) and c.tool_calls]
    results = [c for c in content if isinstance(c, conversation.ToolResultContent)]
    assert [(c.tool_calls[0].tool_name, c.tool_calls[0].tool_args, c.tool_calls[0].external) for c in calls] == [
        ("o1_ha.state", {"name": "kitchen light"}, True),
        ("o1_ha.turn_on", {}, True),
    ]
    assert [r.tool_call_id for r in results] == [c.tool_calls[0].id for c in calls]
    assert results[0].result.data == {"outcome": "ok", "result": "on"}
    assert not results[0].result.error
    assert results[1].result.data == {"outcome": "denied", "error": "not_exposed", "message": "Not exposed."}
    assert results[1].result.error
    assert content[-1].content == "Done."
