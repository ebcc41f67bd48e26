"""ai_task.generate_data answered by the REAL o1 server (a child process) whose LLM is scripted.

The task's attachment (from HA's local media source) lands in the task conversation's folder, where the
agent's code reads it; the JSON the code prints is checked against the task's structure (asked again once).
"""

from __future__ import annotations

from pathlib import Path

import probatio
import pytest

from custom_components.o1 import async_create_client
from custom_components.o1.const import CONF_PROFILE, CONF_PROMPT, DOMAIN, SUBENTRY_AI_TASK
from homeassistant.components import ai_task
from homeassistant.config_entries import SOURCE_USER
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import entity_registry as er
from homeassistant.setup import async_setup_component
from tests.support.ha_fixtures import o1_server, scripted_llm  # noqa: F401  (session fixtures)
from tests.support.o1_process import O1Process
from tests.support.scripted_llm import ScriptedLLM

STRUCTURE = probatio.Schema({probatio.Required("item"): str, probatio.Required("count"): int})
READ_NOTE = (
    "```python\nimport json\nitem, count = open('list.txt').read().split()\n"
    "print(json.dumps({'item': item, 'count': int(count)}))\n```"
)


@pytest.fixture
async def task_entity(
    hass: HomeAssistant, socket_enabled: None, o1_server: O1Process, tmp_path: Path  # noqa: F811
) -> str:
    """Set up o1 (config flow) with an AI Task subentry of the default profile; return its entity id."""
    hass.config.media_dirs = {"local": str(tmp_path)}
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})
    assert await async_setup_component(hass, "media_source", {})
    flow = await hass.config_entries.flow.async_init(DOMAIN, context={"source": "user"})
    result = await hass.config_entries.flow.async_configure(
        flow["flow_id"], {"url": o1_server.api_url, "token": o1_server.token}
    )
    assert result["type"] == "create_entry", result
    entry = result["result"]
    await hass.async_block_till_done()
    flow = await hass.config_entries.subentries.async_init(
        (entry.entry_id, SUBENTRY_AI_TASK), context={"source": SOURCE_USER}
    )
    assert flow["type"] == "form" and flow["step_id"] == "user"
    result = await hass.config_entries.subentries.async_configure(
        flow["flow_id"], {CONF_PROFILE: "default", CONF_PROMPT: "Keep it {{ 'short' }}."}
    )
    assert result["type"] == "create_entry", result
    await hass.async_block_till_done()
    (entity_id,) = [
        e.entity_id for e in er.async_get(hass).entities.values()
        if e.platform == DOMAIN and e.domain == "ai_task"
    ]
    return entity_id


def _system(request: dict) -> str:
    return "\n".join(m["content"] for m in request["messages"] if m["role"] == "system")


async def test_structured_data_from_an_attachment(
    hass: HomeAssistant, task_entity: str, scripted_llm: ScriptedLLM, tmp_path: Path  # noqa: F811
) -> None:
    """The code reads the attached file in its folder; its printed JSON is the task's data."""
    (tmp_path / "list.txt").write_text("milk 3")
    scripted_llm.script(READ_NOTE)
    result = await ai_task.async_generate_data(
        hass,
        task_name="shopping",
        entity_id=task_entity,
        instructions="What is on my list, and how many?",
        structure=STRUCTURE,
        attachments=[{"media_content_id": "media-source://media_source/local/list.txt",
                      "media_content_type": "text/plain"}],
    )
    assert result.data == {"item": "milk", "count": 3}
    (request,) = scripted_llm.requests
    system = _system(request)
    assert "Keep it short." in system and '"count"' in system  # the entity's instructions, the schema
    assert "list.txt" in request["messages"][-1]["content"]
    assert hass.states.get(task_entity).state not in (None, "unknown")


async def test_invalid_json_is_asked_again_once(
    hass: HomeAssistant, task_entity: str, scripted_llm: ScriptedLLM  # noqa: F811
) -> None:
    scripted_llm.script(
        "```python\nprint('milk, three of them')\n```",
        "```python\nimport json\nprint(json.dumps({'item': 'milk', 'count': 3}))\n```",
    )
    result = await ai_task.async_generate_data(
        hass, task_name="t", entity_id=task_entity, instructions="Milk count?", structure=STRUCTURE
    )
    assert result.data == {"item": "milk", "count": 3}
    assert len(scripted_llm.requests) == 2
    assert "not valid for the task" in scripted_llm.requests[1]["messages"][-1]["content"]


async def test_data_that_never_fits_fails_clearly(
    hass: HomeAssistant, task_entity: str, scripted_llm: ScriptedLLM  # noqa: F811
) -> None:
    wrong = "```python\nimport json\nprint(json.dumps({'item': 'milk', 'count': 'many'}))\n```"
    scripted_llm.script(wrong, wrong)
    with pytest.raises(HomeAssistantError) as err:
        await ai_task.async_generate_data(
            hass, task_name="milk", entity_id=task_entity, instructions="Milk count?", structure=STRUCTURE
        )
    assert err.value.translation_key == "structured_output_invalid"
    assert "does not match the schema" in err.value.translation_placeholders["error"]
    assert len(scripted_llm.requests) == 2


async def test_text_data_is_the_answer(
    hass: HomeAssistant, task_entity: str, scripted_llm: ScriptedLLM  # noqa: F811
) -> None:
    scripted_llm.script("```python\nprint('The kitchen is quiet today.')\n```")
    result = await ai_task.async_generate_data(
        hass, task_name="t", entity_id=task_entity, instructions="Describe the kitchen."
    )
    assert result.data == "The kitchen is quiet today."


async def test_server_failures_are_home_assistant_errors(
    hass: HomeAssistant, task_entity: str, closed_port_url: str, tmp_path: Path
) -> None:
    """An unreachable server fails the task (attachments first, then the turn) with a clear error."""
    (tmp_path / "a.txt").write_text("x")
    entry = hass.config_entries.async_entries(DOMAIN)[0]
    entry.runtime_data.client = async_create_client(hass, closed_port_url, "test-token")
    with pytest.raises(HomeAssistantError) as err:
        await ai_task.async_generate_data(
            hass, task_name="t", entity_id=task_entity, instructions="x",
            attachments=[{"media_content_id": "media-source://media_source/local/a.txt"}],
        )
    assert err.value.translation_key == "attachments_failed"
    with pytest.raises(HomeAssistantError) as err:
        await ai_task.async_generate_data(hass, task_name="t", entity_id=task_entity, instructions="x")
    assert err.value.translation_key == "task_failed"
