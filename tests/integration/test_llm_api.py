"""o1's LLM API (``llm_api.py``) against the stub server: registered per agent, one turn per tool call,
and a held question answered by the user's own words from the calling chat log, never by the LLM's."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from homeassistant.components.conversation import ChatLog, UserContent, async_get_chat_log
from homeassistant.config_entries import SOURCE_REAUTH
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import chat_session, llm
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.o1.const import DOMAIN, MAX_CONVERSATION_ID_ALIASES
from custom_components.o1.llm_api import TOOL_NAME, api_id

from .stub_server import Failure, StubO1Server


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


async def test_unreachable_server_is_a_failed_result(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server, caplog: pytest.LogCaptureFixture
) -> None:
    """A server that went away is a 'failed' error result naming the failure; the user's words stay out of
    every log record above debug."""
    await o1_server.stop()
    with caplog.at_level(logging.DEBUG, logger="custom_components.o1"):
        failed = await _call(hass, init_integration, "count my secret diary files")
    assert failed["status"] == "failed"
    assert "o1 server" in failed["error"]
    records = [r for r in caplog.records if r.name.startswith("custom_components.o1")]
    assert any("An o1 tool call failed" in r.getMessage() and r.levelno == logging.WARNING for r in records)
    assert any("secret diary" in r.getMessage() for r in records if r.levelno == logging.DEBUG)
    assert not any("secret diary" in r.getMessage() for r in records if r.levelno > logging.DEBUG)


async def test_rejected_token_is_a_failed_result_and_starts_reauth(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """The server rejects the token: the call fails with the server's sentence and a reauth flow starts."""
    o1_server.token = "rotated"
    failed = await _call(hass, init_integration, "anything")
    await hass.async_block_till_done()
    assert failed == {"status": "failed", "error": "The access token is not valid."}
    flows = hass.config_entries.flow.async_progress_by_handler(DOMAIN)
    assert [f["context"]["source"] for f in flows] == [SOURCE_REAUTH]


async def test_an_api_error_gives_the_servers_sentence(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """An error of the server's API is a 'failed' result with its sentence; no reauth for it."""
    o1_server.failures["conversation"] = Failure(
        status=400, body={"error": "unknown_profile", "message": "There is no profile named default."}
    )
    failed = await _call(hass, init_integration, "anything")
    assert failed == {"status": "failed", "error": "There is no profile named default."}
    o1_server.failures["conversation"] = Failure(status=502, raw=b"Bad Gateway")
    failed = await _call(hass, init_integration, "anything")
    assert failed == {"status": "failed", "error": "The o1 server answered HTTP 502"}
    await hass.async_block_till_done()
    assert hass.config_entries.flow.async_progress_by_handler(DOMAIN) == []


async def test_an_empty_request_reaches_nobody(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """A blank request is a 'failed' result at once: no turn is sent."""
    failed = await _call(hass, init_integration, "   ")
    assert failed == {"status": "failed", "error": "The request is empty."}
    assert _turns(o1_server) == []


async def test_a_question_without_a_chat_log_cannot_be_confirmed(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """Without a chat log (an MCP client) o1's question is reported as not confirmable and nothing is held:
    the next "yes" reaches o1 as a request of its own, in a conversation of its own."""
    o1_server.reply = _confirming_reply
    asked = await _call(hass, init_integration, "delete the drafts folder")
    assert asked["status"] == "needs_confirmation"
    assert asked["question"] == "I'm about to delete 3 files in drafts. Shall I?"
    assert "this caller cannot give it" in asked["instructions"]
    assert (await _call(hass, init_integration, "yes"))["status"] == "done"
    assert _turns(o1_server) == [(None, "delete the drafts folder", "default"), (None, "yes", "default")]


async def test_a_block_held_before_a_restart_is_cancelled_then_the_request_answered(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """o1 still holds a block this side forgot (the entry reloaded): the request only cancels it, so it is
    sent again, answered, and the result notes the cancellation."""
    held: set[str] = set()

    def server(request: dict[str, Any]) -> dict[str, Any]:
        cid = request["conversation_id"]
        if cid in held:  # another request than a yes: the held block is cancelled, nothing else happens
            held.discard(cid)
            return _confirming_reply({**request, "text": "no"})
        if "delete" in request["text"]:
            held.add(cid)
            return _confirming_reply(request)
        return {"conversation_id": cid, "answer": "It is 12:00.", "code_blocks": []}

    o1_server.reply = server
    with (
        chat_session.async_get_chat_session(hass) as session,
        async_get_chat_log(hass, session) as chat_log,
    ):
        chat_log.async_add_user_content(UserContent("Delete the drafts."))
        assert (await _call(hass, init_integration, "delete the drafts folder"))["status"] == "needs_confirmation"
        assert await hass.config_entries.async_reload(init_integration.entry_id)
        await hass.async_block_till_done()
        chat_log.async_add_user_content(UserContent("What time is it?"))
        answered = await _call(hass, init_integration, "what time is it")
    cid = f"tool-{session.conversation_id}"
    assert _turns(o1_server) == [
        (cid, "delete the drafts folder", "default"),
        (cid, "what time is it", "default"),
        (cid, "what time is it", "default"),
    ]
    assert answered["status"] == "done"
    assert answered["answer"] == "It is 12:00."
    assert answered["notes"] == ["o1 cancelled the action it had asked about earlier: the user did not say yes to it."]


async def test_only_the_latest_held_questions_are_remembered(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """Questions held in more conversations than the limit: the oldest is forgotten (an LLM's "yes" there
    reaches o1 as a request of its own), the newest is still waiting for its user."""
    o1_server.reply = _confirming_reply
    sessions = []
    for _ in range(MAX_CONVERSATION_ID_ALIASES + 1):
        with (
            chat_session.async_get_chat_session(hass) as session,
            async_get_chat_log(hass, session) as chat_log,
        ):
            chat_log.async_add_user_content(UserContent("Delete the drafts."))
            await _call(hass, init_integration, "delete the drafts folder")
        sessions.append(session.conversation_id)
    sent = len(_turns(o1_server))
    for conversation_id, reaches_o1 in ((sessions[-1], False), (sessions[0], True)):
        with (
            chat_session.async_get_chat_session(hass, conversation_id) as session,
            async_get_chat_log(hass, session) as chat_log,
        ):
            result = await _call(hass, init_integration, "yes")
        assert (result["status"] == "needs_confirmation") is not reaches_o1
    assert _turns(o1_server)[sent:] == [(f"tool-{sessions[0]}", "yes", "default")]
