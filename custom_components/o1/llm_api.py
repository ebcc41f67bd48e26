"""o1 as a tool of every Home Assistant LLM agent: one LLM API per o1 conversation agent (config subentry).

Each API (id ``o1-<subentry id>``, named like its agent) offers one tool, ``o1_run``: the calling agent's LLM
hands it a request ("how many files are in drafts?", or code) and o1's server answers it with that agent's
profile, through the same classify, policy, confirmation, sandbox and audit as a turn of o1's own agent
(``POST /api/conversation``). The o1 conversation id is derived from the calling chat log's id, so o1 keeps
the history and the held confirmation per calling conversation. When o1 asks before acting, the tool result
tells the calling LLM to ask the user; at the next call the user's own latest message in the chat log, never
the LLM's words, answers o1 (a plain yes runs the held block, anything else cancels it), so the calling LLM
cannot approve anything itself. Without a chat log (a caller such as the MCP server) each call is a
conversation of its own and nothing o1 holds can be confirmed.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, override

import probatio
from homeassistant.components.conversation import ChatLog, UserContent
from homeassistant.components.conversation.chat_log import current_chat_log
from homeassistant.config_entries import ConfigSubentry
from homeassistant.core import CALLBACK_TYPE, HomeAssistant, callback
from homeassistant.helpers import llm

from .client import O1AuthError, O1CodeBlock, O1Error, O1Reply, O1ResponseError
from .const import (
    CONF_PROFILE,
    DOMAIN,
    EVENT_MAX_OUTPUT,
    LOGGER,
    MAX_CONVERSATION_ID_ALIASES,
    SUBENTRY_CONVERSATION,
)
from .events import truncate

if TYPE_CHECKING:
    from . import O1ConfigEntry

TOOL_NAME = "o1_run"
# Prefix of the o1 conversation ids of tool calls (so they never meet the o1 agent's own conversations).
CONVERSATION_PREFIX = "tool-"
# The tool result's status values.
STATUS_DONE = "done"
STATUS_NEEDS_YES = "needs_confirmation"
STATUS_REFUSED = "refused"
STATUS_FAILED = "failed"
# Code block decisions of the server (agent/gate.py) that mean "nothing ran because of the policy".
REFUSED_DECISIONS = frozenset({"deny", "invalid", "limit"})

API_PROMPT = (
    "The tool {tool} hands a task to o1, which writes and runs code in a sandbox on this Home Assistant's server "
    "and answers from what the code printed. Use it for calculations, dates, text, and the files of o1's "
    "workspace. Pass the user's request in plain words as `request`. Relay o1's answer. When the result's status "
    "is 'needs_confirmation', ask the user the question it gives and wait; when the user answers, call {tool} "
    "again (o1 reads the user's own answer). When the status is 'refused', tell the user o1 did not do it and do "
    "not try another way."
)
TOOL_DESCRIPTION = (
    "Ask o1 to do or answer something by running code in its sandbox (calculations, dates, text, files in its "
    "workspace). o1 checks each block against its safety policy, may refuse it, or may need the user's yes first."
)
NEEDS_YES_INSTRUCTIONS = (
    "o1 has not done it yet: it needs the user's yes first. Ask the user this question in their language and "
    "stop. When the user answers, call {tool} again with their answer as request: o1 reads the user's own "
    "message, so only the user can say yes."
)
STILL_WAITING_INSTRUCTIONS = (
    "The user has not answered o1's question yet. Ask the user this question and wait for their answer."
)
NO_CHAT_INSTRUCTIONS = (
    "o1 needs the user's yes before doing this, and this caller cannot give it: nothing was done. Tell the user "
    "to ask in a Home Assistant conversation instead."
)
REFUSED_INSTRUCTIONS = "o1's safety policy did not let this run, and nothing ran. Tell the user; do not retry."
CANCELLED_NOTE = "o1 cancelled the action it had asked about earlier: the user did not say yes to it."


@dataclass(slots=True)
class _Held:
    """A confirmation question o1 asked in a calling chat log, waiting for the user's answer."""

    question: str
    # How many user messages the chat log held when o1 asked: a later one is the user's answer.
    user_messages: int


def _user_texts(chat_log: ChatLog) -> list[str]:
    """Return the user's messages of a chat log, oldest first."""
    return [content.content for content in chat_log.content if isinstance(content, UserContent)]


def _block_data(block: O1CodeBlock) -> dict[str, Any]:
    """Return what the calling LLM sees of a code block: the code and what became of it."""
    data: dict[str, Any] = {
        "language": block.language,
        "code": block.code,
        "decision": block.decision,
    }
    if block.reason:
        data["reason"] = block.reason
    if block.exit_status is not None:
        data["exit_status"] = block.exit_status
        data["output"] = truncate(block.output, EVENT_MAX_OUTPUT)
    return data


def _only_cancelled(reply: O1Reply) -> bool:
    """Whether the reply only cancelled a held block (the text answered an old question, nothing else)."""
    return bool(reply.code_blocks) and all(b.decision == "cancelled" for b in reply.code_blocks)


def _same_words(first: str, second: str) -> bool:
    """Whether two messages say the same, ignoring case, spacing and end punctuation."""

    def norm(text: str) -> str:
        return " ".join(text.casefold().split()).rstrip(".!?")

    return norm(first) == norm(second)


@dataclass(kw_only=True)
class O1ToolAPI(llm.API):
    """The LLM API of one o1 conversation agent: the ``o1_run`` tool under the agent's profile."""

    entry: O1ConfigEntry
    subentry_id: str
    profile: str
    held: OrderedDict[str, _Held] = field(default_factory=OrderedDict)

    @override
    async def async_get_api_instance(self, llm_context: llm.LLMContext) -> llm.APIInstance:
        """Return the API's instance for one LLM request: its prompt and its one tool."""
        return llm.APIInstance(
            api=self,
            api_prompt=API_PROMPT.format(tool=TOOL_NAME),
            llm_context=llm_context,
            tools=[O1RunTool(self)],
        )

    async def async_run(self, request: str, chat_log: ChatLog | None, language: str | None) -> llm.ToolResult:
        """Answer one tool call: forward the user's answer to a held question, or send the request.

        Returns the tool result (``status``: done, needs_confirmation, refused or failed); never raises for
        the server's failures (they are a ``failed`` result with the error's sentence). A rejected token also
        starts the entry's reauthentication.
        """
        cid = None if chat_log is None else f"{CONVERSATION_PREFIX}{chat_log.conversation_id}"
        held = self.held.pop(cid, None) if cid is not None else None
        notes: list[str] = []
        try:
            if held is not None and cid is not None and chat_log is not None:
                users = _user_texts(chat_log)
                if len(users) <= held.user_messages:  # the user has not spoken since o1 asked
                    self._hold(cid, held)
                    return _needs_yes(held.question, STILL_WAITING_INSTRUCTIONS)
                # The user's own words answer o1's question: a yes runs the held block, anything else cancels.
                reply = await self._converse(users[-1], cid, language)
                if not _only_cancelled(reply) or _same_words(request, users[-1]):
                    return self._result(reply, cid, chat_log)
                notes.append(CANCELLED_NOTE)
            reply = await self._converse(request, cid, language)
            if held is None and _only_cancelled(reply):
                # o1 held a block this side forgot (Home Assistant restarted): the request only cancelled it.
                notes.append(CANCELLED_NOTE)
                reply = await self._converse(request, cid, language)
        except O1Error as err:
            # The request is the user's words: never logged above debug.
            LOGGER.warning("An o1 tool call failed: %s", err)
            LOGGER.debug("The o1 tool call that failed: %r", request)
            if isinstance(err, O1AuthError):
                self.entry.async_start_reauth(self.hass)
            message = err.message if isinstance(err, O1ResponseError) else str(err)
            return llm.ToolResult(data={"status": STATUS_FAILED, "error": message}, error=True)
        return self._result(reply, cid, chat_log, notes)

    async def _converse(self, text: str, cid: str | None, language: str | None) -> O1Reply:
        """Send one turn to the o1 server under this API's profile."""
        client = self.entry.runtime_data.client
        reply: O1Reply = await client.async_converse(text, conversation_id=cid, profile=self.profile, language=language)
        return reply

    def _hold(self, cid: str, held: _Held) -> None:
        """Remember a held question of a calling conversation (the most recent ones only)."""
        self.held[cid] = held
        self.held.move_to_end(cid)
        while len(self.held) > MAX_CONVERSATION_ID_ALIASES:
            self.held.popitem(last=False)

    def _result(
        self,
        reply: O1Reply,
        cid: str | None,
        chat_log: ChatLog | None,
        notes: list[str] | None = None,
    ) -> llm.ToolResult:
        """Return the tool result of o1's reply, and remember a question it asked."""
        data: dict[str, Any] = {
            "status": STATUS_DONE,
            "answer": reply.answer,
            "code_blocks": [_block_data(block) for block in reply.code_blocks],
        }
        if notes:
            data["notes"] = notes
        decisions = {block.decision for block in reply.code_blocks}
        if "confirm" in decisions and reply.continue_conversation:
            if chat_log is None or cid is None:
                data.update(
                    status=STATUS_NEEDS_YES,
                    question=reply.answer,
                    instructions=NO_CHAT_INSTRUCTIONS,
                )
                return llm.ToolResult(data=data)
            self._hold(cid, _Held(reply.answer, len(_user_texts(chat_log))))
            data.update(_needs_yes(reply.answer, NEEDS_YES_INSTRUCTIONS).data)
        elif decisions and decisions <= REFUSED_DECISIONS | {"cancelled"} and decisions & REFUSED_DECISIONS:
            data.update(status=STATUS_REFUSED, instructions=REFUSED_INSTRUCTIONS)
        return llm.ToolResult(data=data)


def _needs_yes(question: str, instructions: str) -> llm.ToolResult:
    """Return the result that makes the calling LLM ask the user o1's question."""
    return llm.ToolResult(
        data={
            "status": STATUS_NEEDS_YES,
            "question": question,
            "instructions": instructions.format(tool=TOOL_NAME),
        }
    )


class O1RunTool(llm.Tool):
    """The ``o1_run`` tool: one request to the o1 server, answered under the API's profile."""

    name = TOOL_NAME
    title = "Run with o1"
    description = TOOL_DESCRIPTION
    parameters = probatio.Schema(
        {
            probatio.Required(
                "request",
                description="What o1 should do or answer, in plain words (or the user's answer to o1's question).",
            ): str,
        }
    )
    annotations = llm.ToolAnnotations(read_only=False, destructive=True, idempotent=False, open_world=True)
    integration = DOMAIN

    def __init__(self, api: O1ToolAPI) -> None:
        """Keep the API whose profile answers the calls."""
        self.api = api

    @override
    async def async_call(
        self,
        hass: HomeAssistant,
        tool_input: llm.ToolInput,
        llm_context: llm.LLMContext,
    ) -> llm.ToolResult:
        """Run one request through o1 (see `O1ToolAPI.async_run`)."""
        args = self.parameters(tool_input.tool_args)
        request = str(args["request"]).strip()
        if not request:
            return llm.ToolResult(
                data={"status": STATUS_FAILED, "error": "The request is empty."},
                error=True,
            )
        return await self.api.async_run(request, current_chat_log.get(), llm_context.language)


def api_id(subentry: ConfigSubentry) -> str:
    """Return the LLM API id of an o1 conversation agent (stable: its subentry id)."""
    return f"{DOMAIN}-{subentry.subentry_id}"


@callback
def async_register_llm_apis(hass: HomeAssistant, entry: O1ConfigEntry) -> CALLBACK_TYPE:
    """Register one LLM API per conversation subentry of a loaded o1 entry; return the unregister callback."""
    unregister: list[CALLBACK_TYPE] = []
    for subentry in entry.subentries.values():
        if subentry.subentry_type != SUBENTRY_CONVERSATION:
            continue
        api = O1ToolAPI(
            hass=hass,
            id=api_id(subentry),
            name=subentry.title,
            entry=entry,
            subentry_id=subentry.subentry_id,
            profile=subentry.data[CONF_PROFILE],
        )
        unregister.append(llm.async_register_api(hass, api))

    @callback
    def unregister_all() -> None:
        for undo in unregister:
            undo()

    return unregister_all
