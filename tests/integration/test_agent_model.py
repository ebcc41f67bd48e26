"""The model per agent (a subentry option among the server's models) and the token usage of its turns (in the
conversation trace, as core's LLM agents record theirs, and in the diagnostics)."""

from __future__ import annotations

import copy
from typing import Any

import aiohttp
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.o1.client import O1Client, O1ConnectionError, O1ResponseError, O1Usage
from custom_components.o1.const import CONF_MODEL, CONF_PROFILE, CONF_PROMPT, SUBENTRY_AI_TASK, SUBENTRY_CONVERSATION
from custom_components.o1.diagnostics import async_get_config_entry_diagnostics
from homeassistant.components import ai_task, conversation
from homeassistant.components.conversation import trace
from homeassistant.config_entries import SOURCE_RECONFIGURE, SOURCE_USER
from homeassistant.core import Context, HomeAssistant
from homeassistant.data_entry_flow import FlowResultType, InvalidData
from homeassistant.helpers import entity_registry as er

from .stub_server import MODELS, TOKEN, Failure, StubO1Server


def _model_field(result: dict[str, Any]) -> Any:
    """The model field of a form's schema (None when the form has none), with its selector."""
    for key, selector in result["data_schema"].schema.items():
        if key == CONF_MODEL:
            return key, selector
    return None


async def _add(hass: HomeAssistant, entry: MockConfigEntry, kind: str, data: dict[str, Any]) -> str:
    result = await hass.config_entries.subentries.async_init((entry.entry_id, kind), context={"source": SOURCE_USER})
    result = await hass.config_entries.subentries.async_configure(result["flow_id"], data)
    assert result["type"] is FlowResultType.CREATE_ENTRY, result
    await hass.async_block_till_done()
    return next(s for s in entry.subentries.values() if s.data == result["data"]).subentry_id


@pytest.mark.parametrize("kind", [SUBENTRY_CONVERSATION, SUBENTRY_AI_TASK])
async def test_the_form_offers_the_servers_models(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server, kind: str
) -> None:
    o1_server.models = copy.deepcopy(MODELS)
    result = await hass.config_entries.subentries.async_init(
        (init_integration.entry_id, kind), context={"source": SOURCE_USER}
    )
    assert result["type"] is FlowResultType.FORM
    key, selector = _model_field(result)
    assert key.description == {"suggested_value": None}  # empty: the server's default
    assert selector.config["options"] == [
        {"value": "qwen2.5-coder-1.5b", "label": "qwen2.5-coder-1.5b (server default)"},
        {"value": "qwen2.5-coder-0.5b", "label": "qwen2.5-coder-0.5b (700 MB)"},
    ]
    # Only what the server offers can be chosen.
    with pytest.raises(InvalidData, match="model"):
        await hass.config_entries.subentries.async_configure(
            result["flow_id"], {CONF_PROFILE: "default", CONF_MODEL: "qwen-9"}
        )
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_PROFILE: "default", CONF_MODEL: "qwen2.5-coder-0.5b"}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY and result["data"][CONF_MODEL] == "qwen2.5-coder-0.5b"
    assert len(o1_server.requests_to("GET", "/api/models")) == 1


@pytest.mark.parametrize("models", [None, {"default": "x", "models": [{"name": "x", "default": True}]}])
async def test_no_model_field_without_a_choice(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server, models: Any
) -> None:
    """An older server (no /api/models) or one that offers its default alone: no model to pick."""
    o1_server.models = models
    result = await hass.config_entries.subentries.async_init(
        (init_integration.entry_id, SUBENTRY_CONVERSATION), context={"source": SOURCE_USER}
    )
    assert result["type"] is FlowResultType.FORM and _model_field(result) is None
    result = await hass.config_entries.subentries.async_configure(result["flow_id"], {CONF_PROFILE: "coder"})
    assert result["type"] is FlowResultType.CREATE_ENTRY and CONF_MODEL not in result["data"]


async def test_a_failing_models_list_leaves_the_form_usable(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    o1_server.models = copy.deepcopy(MODELS)
    o1_server.failures["models"] = Failure(status=500, body={"error": "internal_error", "message": "Boom."})
    result = await hass.config_entries.subentries.async_init(
        (init_integration.entry_id, SUBENTRY_AI_TASK), context={"source": SOURCE_USER}
    )
    assert result["type"] is FlowResultType.FORM and _model_field(result) is None


@pytest.mark.parametrize("kind", [SUBENTRY_CONVERSATION, SUBENTRY_AI_TASK])
async def test_reconfigure_shows_and_changes_the_model(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server, kind: str
) -> None:
    o1_server.models = copy.deepcopy(MODELS)
    subentry_id = await _add(hass, init_integration, kind, {CONF_PROFILE: "coder", CONF_MODEL: "qwen2.5-coder-0.5b"})
    result = await hass.config_entries.subentries.async_init(
        (init_integration.entry_id, kind), context={"source": SOURCE_RECONFIGURE, "subentry_id": subentry_id}
    )
    key, _ = _model_field(result)
    assert key.description == {"suggested_value": "qwen2.5-coder-0.5b"}
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_PROFILE: "coder", CONF_MODEL: "qwen2.5-coder-1.5b", CONF_PROMPT: "Be brief."}
    )
    assert result["type"] is FlowResultType.ABORT and result["reason"] == "reconfigure_successful"
    await hass.async_block_till_done()
    data = init_integration.subentries[subentry_id].data
    assert data[CONF_MODEL] == "qwen2.5-coder-1.5b" and data[CONF_PROMPT] == "Be brief."
    result = await hass.config_entries.subentries.async_init(
        (init_integration.entry_id, kind), context={"source": SOURCE_RECONFIGURE, "subentry_id": subentry_id}
    )
    result = await hass.config_entries.subentries.async_configure(result["flow_id"], {CONF_PROFILE: "coder"})
    await hass.async_block_till_done()
    assert CONF_MODEL not in init_integration.subentries[subentry_id].data  # emptied: the server's default again


async def test_the_agents_model_goes_with_each_turn_and_usage_is_traced(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    o1_server.models = copy.deepcopy(MODELS)
    chosen = await _add(
        hass, init_integration, SUBENTRY_CONVERSATION, {CONF_PROFILE: "coder", CONF_MODEL: "qwen2.5-coder-0.5b"}
    )
    default = next(s.subentry_id for s in init_integration.subentries.values() if s.subentry_id != chosen)
    await conversation.async_converse(hass, "one two three", None, Context(), language="en",
                                      agent_id="conversation.o1_coder")
    await conversation.async_converse(hass, "hello", None, Context(), language="en",
                                      agent_id="conversation.o1_default")
    await conversation.async_converse(hass, "four five", None, Context(), language="en",
                                      agent_id="conversation.o1_coder")
    first, second, third = o1_server.requests_to("POST", "/api/conversation/stream")
    assert first.json["model"] == third.json["model"] == "qwen2.5-coder-0.5b"
    assert "model" not in second.json  # no model chosen: the server's default
    # As core's LLM agents: each turn's tokens are an agent detail of its conversation trace.
    stats = [
        event["data"]["stats"]
        for t in trace.async_get_traces()[-3:]
        for event in t.as_dict()["events"]
        if event["event_type"] == trace.ConversationTraceEventType.AGENT_DETAIL and "stats" in event["data"]
    ]
    assert stats == [{"input_tokens": 103, "output_tokens": 7}, {"input_tokens": 101, "output_tokens": 7},
                     {"input_tokens": 102, "output_tokens": 7}]
    usage = (await async_get_config_entry_diagnostics(hass, init_integration))["usage"]
    assert usage[chosen] == {
        "turns": 2, "prompt_tokens": 205, "completion_tokens": 14, "total_tokens": 219,
        "last_turn": {"prompt_tokens": 102, "completion_tokens": 7, "total_tokens": 109, "requests": 1},
    }
    assert usage[default]["turns"] == 1 and usage[default]["last_turn"]["prompt_tokens"] == 101


async def test_a_turn_without_usage_counts_nothing(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    def no_usage(request: dict[str, Any]) -> dict[str, Any]:
        return {"conversation_id": request["conversation_id"], "profile": "default", "answer": "Hi.",
                "code_blocks": [], "usage": None}

    o1_server.reply = no_usage
    result = await conversation.async_converse(hass, "hi", None, Context(), language="en",
                                               agent_id="conversation.o1_default")
    assert result.response.speech["plain"]["speech"] == "Hi."
    assert (await async_get_config_entry_diagnostics(hass, init_integration))["usage"] == {}


async def test_a_model_the_server_no_longer_offers_is_said(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    o1_server.models = copy.deepcopy(MODELS)
    await _add(hass, init_integration, SUBENTRY_CONVERSATION, {CONF_PROFILE: "coder", CONF_MODEL: "qwen2.5-coder-0.5b"})
    message = "The server offers no model called 'qwen2.5-coder-0.5b'; it offers: qwen2.5-coder-1.5b."
    o1_server.failures["stream"] = Failure(status=400, body={"error": "unknown_model", "message": message})
    result = await conversation.async_converse(hass, "hi", None, Context(), language="en",
                                               agent_id="conversation.o1_coder")
    assert result.response.error_code is not None
    assert result.response.speech["plain"]["speech"] == message


async def test_the_ai_tasks_model_goes_with_its_turns(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    o1_server.models = copy.deepcopy(MODELS)
    subentry_id = await _add(
        hass, init_integration, SUBENTRY_AI_TASK, {CONF_PROFILE: "default", CONF_MODEL: "qwen2.5-coder-0.5b"}
    )
    (entity_id,) = [e.entity_id for e in er.async_get(hass).entities.values() if e.domain == "ai_task"]
    result = await ai_task.async_generate_data(hass, task_name="t", entity_id=entity_id, instructions="Say hi")
    assert result.data == "You said: Say hi"
    (request,) = o1_server.requests_to("POST", "/api/conversation")
    assert request.json["model"] == "qwen2.5-coder-0.5b"
    usage = (await async_get_config_entry_diagnostics(hass, init_integration))["usage"]
    assert usage[subentry_id]["last_turn"] == {"prompt_tokens": 102, "completion_tokens": 7, "total_tokens": 109,
                                              "requests": 1}


async def test_the_client_reads_models_and_usage_strictly(
    hass: HomeAssistant, o1_server: StubO1Server, socket_enabled: None
) -> None:
    async with aiohttp.ClientSession() as session:
        client = O1Client(session, o1_server.url, TOKEN)
        assert await client.async_get_models() == []  # an older server: no route
        o1_server.models = copy.deepcopy(MODELS)
        models = await client.async_get_models()
        assert [(m.name, m.default, m.embedded, m.memory_mb, m.context) for m in models] == [
            ("qwen2.5-coder-1.5b", True, True, 1950, 4096), ("qwen2.5-coder-0.5b", False, True, 700, 4096)
        ]
        o1_server.models = {"models": [{"default": True}]}
        with pytest.raises(O1ConnectionError):
            await client.async_get_models()
        o1_server.failures["models"] = Failure(status=503, body={"error": "busy", "message": "Busy."})
        with pytest.raises(O1ResponseError):
            await client.async_get_models()
        for usage in ({"prompt_tokens": -1, "completion_tokens": 1}, {"prompt_tokens": True, "completion_tokens": 1},
                      "12", {"prompt_tokens": 1}):
            def reply(request: dict[str, Any], usage: Any = usage) -> dict[str, Any]:
                return {"conversation_id": "c", "profile": "default", "answer": "ok", "code_blocks": [], "usage": usage}

            o1_server.reply = reply
            assert (await client.async_converse("hi")).usage is None
        o1_server.reply = lambda request: {"conversation_id": "c", "answer": "ok", "code_blocks": [],
                                           "usage": {"prompt_tokens": 3, "completion_tokens": 2}}
        got = await client.async_converse("hi", model="qwen2.5-coder-0.5b")
        assert got.usage == O1Usage(3, 2, 1) and got.as_dict()["usage"]["total_tokens"] == 5
        assert o1_server.requests_to("POST", "/api/conversation")[-1].json["model"] == "qwen2.5-coder-0.5b"
