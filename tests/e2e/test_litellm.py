"""Home Assistant's own LiteLLM agent with o1's LLM API selected, against the REAL o1 server.

Two scripted LLMs: the caller's (LiteLLM's OpenAI-compatible backend, which emits ``o1_run`` tool calls) and
o1's own (which writes the code). Judged by effects: what o1 ran (its audit log), what is on disk in the
conversation's sandbox folder, and what the caller's chat log and its LLM's next request hold.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openai  # noqa: F401  LiteLLM's requirement: script/bootstrap installs it (HA_COMPONENTS has litellm)
import pytest

from homeassistant.components import conversation
from homeassistant.components.conversation import AssistantContent, ToolResultContent
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import llm
from homeassistant.helpers.aiohttp_client import async_get_clientsession
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.o1.const import DOMAIN
from custom_components.o1.llm_api import TOOL_NAME
from tests.support.ha_fixtures import sockets_allowed
from tests.support.o1_process import O1Process
from tests.support.scripted_llm import ScriptedLLM


@pytest.fixture(scope="module")
def caller_llm() -> Iterator[ScriptedLLM]:
    """The LiteLLM agent's backend: a second scripted OpenAI-compatible server."""
    with sockets_allowed():
        server = ScriptedLLM().start()
    yield server
    with sockets_allowed():
        server.stop()


async def _set_up(hass: HomeAssistant, o1: O1Process, caller: ScriptedLLM) -> str:
    """Add o1 (config flow) and a LiteLLM agent using o1's LLM API; return the LiteLLM agent's entity id."""
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})
    flow = await hass.config_entries.flow.async_init(DOMAIN, context={"source": "user"})
    result = await hass.config_entries.flow.async_configure(flow["flow_id"], {"url": o1.api_url, "token": o1.token})
    assert result["type"] == "create_entry", result
    await hass.async_block_till_done()
    (api_id,) = [api.id for api in llm.async_get_apis(hass) if api.id.startswith(f"{DOMAIN}-")]
    litellm = MockConfigEntry(
        domain="litellm",
        title="scripted",
        data={"url": caller.api_base},
        subentries_data=[
            {
                "subentry_type": "conversation",
                "data": {"model": "scripted", "llm_hass_api": [api_id], "prompt": "You are a helpful assistant."},
                "title": "scripted",
                "unique_id": None,
            }
        ],
    )
    litellm.add_to_hass(hass)
    assert await hass.config_entries.async_setup(litellm.entry_id)
    await hass.async_block_till_done()
    (agent,) = [
        e.entity_id
        for e in er.async_get(hass).entities.values()
        if e.platform == "litellm" and e.domain == "conversation"
    ]
    return agent


async def _say(hass: HomeAssistant, agent: str, text: str, cid: str) -> str:
    result = await conversation.async_converse(hass, text, cid, Context(), language="en", agent_id=agent)
    return str(result.response.speech["plain"]["speech"])


async def _get(hass: HomeAssistant, o1: O1Process, path: str, **params: str) -> Any:
    headers = {"Authorization": f"Bearer {o1.token}"}
    async with async_get_clientsession(hass).get(f"{o1.api_url}{path}", headers=headers, params=params) as resp:
        return await resp.json()


def _tool_messages(request: dict[str, Any]) -> list[dict[str, Any]]:
    """The tool results an LLM request carries (LiteLLM sends ``{"data", "error"}`` as JSON)."""
    return [json.loads(m["content"])["data"] for m in request["messages"] if m["role"] == "tool"]


def _chat_log_tools(hass: HomeAssistant, cid: str) -> list[tuple[str, Any]]:
    """The o1 tool calls and results in the caller's chat log."""
    found: list[tuple[str, Any]] = []
    for content in hass.data["conversation_chat_logs"][cid].content:
        if isinstance(content, AssistantContent):
            found += [("call", call.tool_args) for call in content.tool_calls or [] if call.tool_name == TOOL_NAME]
        elif isinstance(content, ToolResultContent) and content.tool_name == TOOL_NAME:
            found.append(("result", content.result.data["status"]))
    return found


async def test_litellm_agent_uses_o1(
    hass: HomeAssistant,
    socket_enabled: None,
    o1_server: O1Process,
    scripted_llm: ScriptedLLM,
    caller_llm: ScriptedLLM,
) -> None:
    """A question runs in o1's sandbox; a deletion waits for the user's yes; a denied block never runs."""
    agent = await _set_up(hass, o1_server, caller_llm)
    # The tool is offered to the caller's LLM with o1's prompt.
    cid = f"litellm-{uuid.uuid4().hex}"
    o1_cid = f"tool-{cid}"

    # 1. A question: o1's code runs and its output reaches the caller's LLM.
    caller_llm.script(ScriptedLLM.tool_call(TOOL_NAME, {"request": "What is 6 times 7?"}), "It is 42.")
    scripted_llm.script("```python\nprint('6 times 7 is', 6 * 7)\n```")
    assert await _say(hass, agent, "What is six times seven?", cid) == "It is 42."
    first, second = caller_llm.requests
    assert [t["function"]["name"] for t in first["tools"]] == [TOOL_NAME]
    (result,) = _tool_messages(second)
    assert result["status"] == "done"
    assert result["code_blocks"][0]["output"].strip() == "6 times 7 is 42"
    records = (await _get(hass, o1_server, "/api/audit", conversation_id=o1_cid))["records"]
    assert [(r["code"], r["decision"], r["exit_status"]) for r in records] == [
        ("print('6 times 7 is', 6 * 7)", "allow", 0)
    ]

    # 2. A deletion: o1 holds it; the caller's LLM "says yes" itself in the same turn: nothing runs.
    caller_llm.script(
        ScriptedLLM.tool_call(TOOL_NAME, {"request": "Delete the drafts folder."}),
        ScriptedLLM.tool_call(TOOL_NAME, {"request": "yes"}),
        "o1 wants to delete the drafts folder. Shall it?",
    )
    scripted_llm.script("```shell\nrm -rf drafts\n```")
    assert (
        await _say(hass, agent, "Delete the drafts folder.", cid) == "o1 wants to delete the drafts folder. Shall it?"
    )
    asked, fabricated = (_tool_messages(r)[-1] for r in caller_llm.requests[1:])
    assert asked["status"] == fabricated["status"] == "needs_confirmation"
    assert asked["question"].endswith("Shall I?"), asked
    record = await _get(hass, o1_server, f"/api/conversation/{o1_cid}")
    assert record["pending"] is True  # still held: the LLM's own "yes" never reached o1
    drafts = Path(record["workdir"]) / "drafts"
    drafts.mkdir(parents=True)
    (drafts / "note.txt").write_text("draft")

    # The user's yes, passed on by the caller's LLM, runs exactly the held block.
    caller_llm.script(ScriptedLLM.tool_call(TOOL_NAME, {"request": "yes"}), "Done, the drafts are gone.")
    assert await _say(hass, agent, "Yes, do it.", cid) == "Done, the drafts are gone."
    assert not drafts.exists()
    (done,) = _tool_messages(caller_llm.requests[1])[-1:]
    assert done["status"] == "done"
    records = (await _get(hass, o1_server, "/api/audit", conversation_id=o1_cid))["records"]
    assert [(r["code"], r["decision"]) for r in records[1:]] == [
        ("rm -rf drafts", "confirm"),
        ("rm -rf drafts", "allow"),
    ]
    assert records[-1]["exit_status"] == 0

    # 3. A denied block (installing packages) does not run; the caller's LLM is told so.
    caller_llm.script(ScriptedLLM.tool_call(TOOL_NAME, {"request": "Install requests."}), "o1 may not do that.")
    scripted_llm.script("```shell\npip install requests\n```")
    assert await _say(hass, agent, "Install the requests package.", cid) == "o1 may not do that."
    (refused,) = _tool_messages(caller_llm.requests[1])[-1:]
    assert refused["status"] == "refused"
    records = (await _get(hass, o1_server, "/api/audit", conversation_id=o1_cid))["records"]
    assert (records[-1]["code"], records[-1]["decision"], records[-1]["exit_status"]) == (
        "pip install requests",
        "deny",
        None,
    )

    # Every call shows in the caller's chat log, with its result.
    assert _chat_log_tools(hass, cid) == [
        ("call", {"request": "What is 6 times 7?"}),
        ("result", "done"),
        ("call", {"request": "Delete the drafts folder."}),
        ("result", "needs_confirmation"),
        ("call", {"request": "yes"}),
        ("result", "needs_confirmation"),
        ("call", {"request": "yes"}),
        ("result", "done"),
        ("call", {"request": "Install requests."}),
        ("result", "refused"),
    ]
