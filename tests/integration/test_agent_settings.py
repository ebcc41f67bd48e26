"""Agent settings in the subentry forms: instructions per agent, several agents on one profile, AI Task forms."""

from __future__ import annotations

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.o1.const import CONF_PROFILE, CONF_PROMPT, SUBENTRY_AI_TASK, SUBENTRY_CONVERSATION
from homeassistant.components import conversation
from homeassistant.config_entries import SOURCE_USER
from homeassistant.const import CONF_LLM_HASS_API
from homeassistant.core import Context, HomeAssistant
from homeassistant.data_entry_flow import FlowResultType

from .stub_server import StubO1Server


async def _add_agent(hass: HomeAssistant, entry: MockConfigEntry, data: dict) -> str:
    result = await hass.config_entries.subentries.async_init(
        (entry.entry_id, SUBENTRY_CONVERSATION), context={"source": SOURCE_USER}
    )
    result = await hass.config_entries.subentries.async_configure(result["flow_id"], data)
    assert result["type"] is FlowResultType.CREATE_ENTRY, result
    await hass.async_block_till_done()
    return next(s for s in entry.subentries.values() if s.data == result["data"]).subentry_id


async def test_two_agents_of_one_profile_have_their_own_instructions(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """Each agent's turns carry its own rendered instructions; the agent without any sends none."""
    entry = init_integration
    await _add_agent(hass, entry, {CONF_PROFILE: "default", CONF_PROMPT: "Talk like a {{ 'pirate' }}."})
    await _add_agent(hass, entry, {CONF_PROFILE: "default", CONF_PROMPT: "  Answer in German.  "})
    subentries = [s for s in entry.subentries.values() if s.subentry_type == SUBENTRY_CONVERSATION]
    assert [s.data[CONF_PROFILE] for s in subentries] == ["default"] * 3
    assert [s.unique_id for s in subentries] == ["default", None, None]
    assert subentries[2].data == {CONF_PROFILE: "default", CONF_LLM_HASS_API: [], CONF_PROMPT: "Answer in German."}
    agents = ["conversation.o1_default", "conversation.o1_default_2", "conversation.o1_default_3"]
    for agent in agents:
        assert hass.states.get(agent) is not None
        await conversation.async_converse(hass, "hello", None, Context(), language="en", agent_id=agent)
    requests = o1_server.requests_to("POST", "/api/conversation/stream")
    assert [r.json.get("instructions") for r in requests] == [None, "Talk like a pirate.", "Answer in German."]
    assert {r.json["profile"] for r in requests} == {"default"}


async def test_instructions_that_do_not_render_are_sent_as_written(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    await _add_agent(hass, init_integration, {CONF_PROFILE: "coder", CONF_PROMPT: "Be {{ 1 / 0 }} brief."})
    await conversation.async_converse(
        hass, "hello", None, Context(), language="en", agent_id="conversation.o1_coder"
    )
    (request,) = o1_server.requests_to("POST", "/api/conversation/stream")
    assert request.json["instructions"] == "Be {{ 1 / 0 }} brief."


async def test_reconfigure_shows_and_changes_the_instructions(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    entry = init_integration
    subentry_id = await _add_agent(hass, entry, {CONF_PROFILE: "coder", CONF_PROMPT: "Be brief."})
    result = await entry.start_subentry_reconfigure_flow(hass, subentry_id)
    schema = result["data_schema"].schema
    prompt = next(k for k in schema if k == CONF_PROMPT)
    assert prompt.description == {"suggested_value": "Be brief."}
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_PROFILE: "coder", CONF_PROMPT: ""}
    )
    assert result["reason"] == "reconfigure_successful"
    assert CONF_PROMPT not in entry.subentries[subentry_id].data


async def test_ai_task_subentry_form(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """An AI Task entity per subentry: any profile, its own instructions; reconfigured like an agent."""
    entry = init_integration
    result = await hass.config_entries.subentries.async_init(
        (entry.entry_id, SUBENTRY_AI_TASK), context={"source": SOURCE_USER}
    )
    assert result["type"] is FlowResultType.FORM
    assert list(result["data_schema"].schema) == [CONF_PROFILE, CONF_PROMPT]
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_PROFILE: "default", CONF_PROMPT: "Data only."}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["title"] == "o1 AI Task default"
    await hass.async_block_till_done()
    state = hass.states.get("ai_task.o1_ai_task_default")
    assert state is not None and state.attributes["supported_features"] == 3
    subentry = next(s for s in entry.subentries.values() if s.subentry_type == SUBENTRY_AI_TASK)
    result = await entry.start_subentry_reconfigure_flow(hass, subentry.subentry_id)
    assert result["step_id"] == "reconfigure"
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_PROFILE: "coder"}
    )
    assert result["reason"] == "reconfigure_successful"
    assert entry.subentries[subentry.subentry_id].data == {CONF_PROFILE: "coder"}
    assert entry.subentries[subentry.subentry_id].title == "o1 AI Task coder"
    await hass.async_block_till_done()
    await hass.config_entries.async_unload(entry.entry_id)
    for source in ("user", "reconfigure"):
        if source == "user":
            result = await hass.config_entries.subentries.async_init(
                (entry.entry_id, SUBENTRY_AI_TASK), context={"source": SOURCE_USER}
            )
        else:
            result = await entry.start_subentry_reconfigure_flow(hass, subentry.subentry_id)
        assert result["reason"] == "entry_not_loaded"
