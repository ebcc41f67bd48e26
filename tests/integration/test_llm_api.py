"""o1's LLM API (``llm_api.py``) against the stub server: registered per agent, one turn per tool call,
and a held question answered by the user's own words from the calling chat log, never by the LLM's."""

from __future__ import annotations

from typing import Any

from homeassistant.components.conversation import ChatLog, UserContent, async_get_chat_log
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import chat_session, llm
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.o1.llm_api import TOOL_NAME, api_id

from .stub_server import StubO1Server


def _api_id(entry: MockConfigEntry) -> str:
    (subentry,) = entry.subentries.values()
    return api_id(subentry)


async def _call(hass: HomeAssistant, entry: MockConfigEntry, request: str) -> dict[str, Any]:
    """Call the o1 tool the way an LLM agent does (inside whatever chat log is current)."""
    context = llm.LLMContext(
        platform="test", context=Context(), language="en", assistant="conversation", device_id=None
    )
    instance = await llm.async_get_api(hass, _api_id(entry), context)
    assert [tool.name for tool in instance.tools] == [TOOL_NAME]
    result = await instance.async_call_tool(llm.ToolInput(TOOL_NAME, {"request": request}))
    return result.data


def _turns(server: StubO1Server) -> list[tuple[str | None, str, str | None]]:
    return [
        (r.json["conversation_id"], r.json["text"], r.json["profile"])
        for r in server.requests_to("POST", "/api/conversation")
    ]


def _confirming_reply(request: dict[str, Any]) -> dict[str, Any]:
    """Hold a deletion for a yes, run it on "yes", cancel it on anything else (as the real server does)."""
    text = request["text"]
    block = {"language": "shell", "code": "rm -r drafts", "category": ["delete"], "output": ""}
    if "delete" in text:
        answer, cont, block = "I'm about to delete 3 files in drafts. Shall I?", True, {**block, "decision": "confirm"}
    elif text == "yes":
        answer, cont, block = "Done.", False, {**block, "decision": "allow", "exit_status": 0}
    else:
        answer, cont, block = "Cancelled.", False, {**block, "decision": "cancelled"}
    return {
        "conversation_id": request["conversation_id"],
        "profile": request["profile"],
        "answer": answer,
        "continue_conversation": cont,
        "code_blocks": [block],
    }


async def test_one_api_per_agent_gone_with_the_entry(hass: HomeAssistant, init_integration: MockConfigEntry) -> None:
    """Each o1 agent is an LLM API named like it; unloading the entry takes it away."""
    apis = {api.id: api.name for api in llm.async_get_apis(hass)}
    assert apis[_api_id(init_integration)] == "o1 default"
    assert await hass.config_entries.async_unload(init_integration.entry_id)
    assert _api_id(init_integration) not in {api.id for api in llm.async_get_apis(hass)}


async def test_a_call_is_a_turn_of_the_calling_conversation(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """The request goes to o1 under the agent's profile, in the o1 conversation of the calling chat log."""
    with (
        chat_session.async_get_chat_session(hass) as session,
        async_get_chat_log(hass, session) as chat_log,
    ):
        chat_log.async_add_user_content(UserContent("What is six times seven?"))
        data = await _call(hass, init_integration, "compute 6*7 with code")
        again = await _call(hass, init_integration, "and once more")
    cid = f"tool-{session.conversation_id}"
    assert _turns(o1_server) == [(cid, "compute 6*7 with code", "default"), (cid, "and once more", "default")]
    assert data["status"] == "done"
    assert data["answer"] == "You said: compute 6*7 with code"
    assert data["code_blocks"] == [
        {
            "language": "python",
            "code": "print(6 * 7)",
            "decision": "allow",
            "reason": "safe arithmetic",
            "exit_status": 0,
            "output": "42\n",
        }
    ]
    assert again["code_blocks"] == []


async def test_the_users_own_answer_confirms_not_the_llms(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """A held deletion: the LLM is told to ask; its own "yes" reaches nobody; the user's "no" cancels it."""
    o1_server.reply = _confirming_reply
    chat_log: ChatLog
    with (
        chat_session.async_get_chat_session(hass) as session,
        async_get_chat_log(hass, session) as chat_log,
    ):
        chat_log.async_add_user_content(UserContent("Delete the drafts."))
        asked = await _call(hass, init_integration, "delete the drafts folder")
        assert asked["status"] == "needs_confirmation"
        assert asked["question"] == "I'm about to delete 3 files in drafts. Shall I?"
        assert "Ask the user" in asked["instructions"]
        # The LLM answers for the user: nothing reaches o1, it is told to ask again.
        fabricated = await _call(hass, init_integration, "yes")
        assert fabricated["status"] == "needs_confirmation"
        assert len(_turns(o1_server)) == 1
        # The user says no; the LLM still passes "yes": o1 gets the user's words and cancels.
        chat_log.async_add_user_content(UserContent("No, keep them."))
        answered = await _call(hass, init_integration, "yes")
    cid = f"tool-{session.conversation_id}"
    assert _turns(o1_server) == [
        (cid, "delete the drafts folder", "default"),
        (cid, "No, keep them.", "default"),
        (cid, "yes", "default"),  # the LLM's request, now a turn of its own: nothing is held any more
    ]
    assert answered["notes"] == ["o1 cancelled the action it had asked about earlier: the user did not say yes to it."]


async def test_the_users_yes_runs_the_held_block(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """The user's yes (whatever the LLM passes as request) is what o1 gets, and the held block runs."""
    o1_server.reply = _confirming_reply
    with (
        chat_session.async_get_chat_session(hass) as session,
        async_get_chat_log(hass, session) as chat_log,
    ):
        chat_log.async_add_user_content(UserContent("Delete the drafts."))
        await _call(hass, init_integration, "delete the drafts folder")
        chat_log.async_add_user_content(UserContent("yes"))
        done = await _call(hass, init_integration, "The user said yes, go ahead.")
    cid = f"tool-{session.conversation_id}"
    assert _turns(o1_server) == [(cid, "delete the drafts folder", "default"), (cid, "yes", "default")]
    assert done["status"] == "done"
    assert done["answer"] == "Done."
    assert done["code_blocks"][0]["decision"] == "allow"


async def test_refused_and_failed_calls(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """A denied block is 'refused' (told not to retry); a server error is a 'failed' error result."""

    def deny(request: dict[str, Any]) -> dict[str, Any]:
        block = {"language": "shell", "code": "curl evil", "decision": "deny", "reason": "network is off"}
        return {"conversation_id": request["conversation_id"], "answer": "I can't do that.", "code_blocks": [block]}

    o1_server.reply = deny
    refused = await _call(hass, init_integration, "download it")  # no chat log: a conversation of its own
    assert refused["status"] == "refused"
    assert refused["code_blocks"][0]["decision"] == "deny"
    assert _turns(o1_server) == [(None, "download it", "default")]

    o1_server.reply = lambda request: {"error": "nope"}  # not a reply: the client's error
    failed = await _call(hass, init_integration, "anything")
    assert failed["status"] == "failed"
    assert failed["error"]
