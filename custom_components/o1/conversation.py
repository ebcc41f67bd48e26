"""Conversation agent platform of the o1 integration.

Each turn is streamed from the server (``POST /api/conversation/stream``) into HA's
chat log: the answer's sentences as assistant text deltas (so a streaming TTS can
start speaking before the agent is done), each code block as an external tool call
followed by its result. Each code block also fires an ``o1_code_block`` event.

Home control: when the agent's profile may use the home and an HA LLM API is selected
(``llm_hass_api``), each turn carries the context HA's own LLM agents get (exposed
entities, the satellite's area, the extra system prompt; see `home.turn_context`), and
the server relays the Home Assistant calls of the agent's code back here as tool calls,
run by `home.HomeToolRunner`. Each such call (allowed or refused by the server's broker)
shows in the chat log as an external ``o1_ha.<op>`` tool call with its result.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import AsyncGenerator
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import Any, Literal, override

from homeassistant.components import conversation
from homeassistant.components.conversation.chat_log import (
    AssistantContentDeltaDict,
    ToolResultContentDeltaDict,
)
from homeassistant.components.conversation.models import AbstractConversationAgent
from homeassistant.config_entries import ConfigSubentry
from homeassistant.const import CONF_LLM_HASS_API, MATCH_ALL
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError, TemplateError
from homeassistant.helpers import intent, llm, template, translation
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from . import O1ConfigEntry
from .client import (
    O1AuthError,
    O1CodeBlock,
    O1CodeEvent,
    O1ConnectionError,
    O1DeltaEvent,
    O1Error,
    O1HomeCallEvent,
    O1Reply,
    O1ResponseError,
    O1StreamError,
    O1TimeoutError,
    O1ToolCallEvent,
)
from .const import (
    CONF_MODEL,
    CONF_PROMPT,
    DOMAIN,
    LOGGER,
    MAX_CONVERSATION_ID_ALIASES,
    SUBENTRY_CONVERSATION,
)
from .entity import O1Entity
from .events import async_fire_code_block, code_block_event_data
from .home import HomeToolRunner, local_turns, turn_context
from .usage import record_usage

# What the chat log's delta stream takes: assistant text or tool calls, and tool results.
type Delta = AssistantContentDeltaDict | ToolResultContentDeltaDict

# Entities only talk to the server; the server serialises its own work.
PARALLEL_UPDATES = 0

# Name of the (external) tool under which code run by o1 shows in the chat log.
CODE_TOOL_NAME = "o1_code"

# Profiles whose agent may control the home (the server's ``ha_access``).
HA_ACCESS_CONTROL = "control"
HA_ACCESS_READ = "read"
# Tool name prefix of the agent code's Home Assistant calls in the chat log.
HOME_TOOL_PREFIX = "o1_ha."

# Translation keys (exceptions) of the sentences spoken when the server cannot give its own.
SPEECH_AUTH = "speech_auth_failed"
SPEECH_TIMEOUT = "speech_timeout"
SPEECH_STREAM_DROPPED = "speech_stream_dropped"
SPEECH_CONNECTION = "speech_unreachable"
SPEECH_UNKNOWN = "speech_failed"


async def async_setup_entry(
    hass: HomeAssistant,
    config_entry: O1ConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Set up one conversation agent per conversation subentry."""
    for subentry in config_entry.subentries.values():
        if subentry.subentry_type != SUBENTRY_CONVERSATION:
            continue
        async_add_entities(
            [O1ConversationEntity(config_entry, subentry)],
            config_subentry_id=subentry.subentry_id,
        )


def error_speech_key(err: O1Error) -> str:
    """Return the translation key of the sentence to speak for a failed turn."""
    if isinstance(err, O1AuthError):
        return SPEECH_AUTH
    if isinstance(err, O1TimeoutError):
        return SPEECH_TIMEOUT
    if isinstance(err, O1StreamError):
        return SPEECH_STREAM_DROPPED
    if isinstance(err, O1ConnectionError):
        return SPEECH_CONNECTION
    return SPEECH_UNKNOWN


def speech_languages(language: str | None) -> list[str]:
    """Return the translation languages to try for a conversation language, best first.

    ``de-CH`` -> ``["de-CH", "de", "en"]``; English (the integration's source language) is last.
    """
    found: list[str] = []
    if language:
        found.append(language)
        base = language.replace("_", "-").split("-", 1)[0].lower()
        if base and base not in found:
            found.append(base)
    if "en" not in found:
        found.append("en")
    return found


async def async_speech(hass: HomeAssistant, language: str | None, *, translation_key: str) -> str:
    """Return the sentence of an exception translation (strings.json "exceptions") in `language`.

    Looked up in translations/<language>.json, then in the base language, then in English; HA's
    own exception messages are English only, the spoken answer must be in the user's language.
    """
    localize_key = f"component.{DOMAIN}.exceptions.{translation_key}.message"
    english = (
        await translation.async_get_translations(hass, "en", "exceptions", {DOMAIN})
    ).get(localize_key)
    for candidate in speech_languages(language)[:-1]:
        # HA fills a language's missing keys (or a language without a file) with English: keep looking.
        sentences = await translation.async_get_translations(
            hass, candidate, "exceptions", {DOMAIN}
        )
        if (sentence := sentences.get(localize_key)) and sentence != english:
            return sentence
    return english or translation_key  # the key only without any translation file


async def async_error_message(hass: HomeAssistant, err: O1Error, language: str | None) -> str:
    """Return the sentence to speak for a failed turn: the server's own when it gave one, else
    the translated sentence of the error's kind in the conversation's `language`."""
    if isinstance(err, O1ResponseError):
        return err.message
    return await async_speech(hass, language, translation_key=error_speech_key(err))


def render_instructions(hass: HomeAssistant, subentry: ConfigSubentry) -> str | None:
    """Return a subentry's instructions (``prompt``, a template) rendered now, or None without any.

    A template that does not render is sent as written (and logged): the agent still gets it.
    """
    prompt = subentry.data.get(CONF_PROMPT)
    if not prompt:
        return None
    try:
        rendered = template.Template(prompt, hass).async_render(parse_result=False)
    except TemplateError as err:
        LOGGER.warning("The instructions of %s do not render: %s", subentry.title, err)
        return str(prompt)
    return str(rendered).strip() or None


def _code_block_result(block: O1CodeBlock) -> llm.ToolResult:
    """Return the chat log's tool result of a code block: its fate, not its code."""
    data: dict[str, Any] = block.as_dict()
    del data["language"], data["code"]
    return llm.ToolResult(data=data, error=block.exit_status not in (None, 0))


@dataclass
class _Turn:
    """What one streamed turn produced so far."""

    spoken: list[str] = field(default_factory=list)
    reply: O1Reply | None = None
    home: dict[str, Any] | None = None
    tools: HomeToolRunner | None = None

    @property
    def text(self) -> str:
        """Return what was spoken so far."""
        return "".join(self.spoken)


class O1ConversationEntity(
    conversation.ConversationEntity,
    AbstractConversationAgent,
    O1Entity,
):
    """A Home Assistant conversation agent answered by one o1 profile."""

    _attr_supports_streaming = True
    _attr_translation_key = "conversation"

    def __init__(self, entry: O1ConfigEntry, subentry: ConfigSubentry) -> None:
        """Initialise the agent."""
        super().__init__(entry, subentry)
        # HA conversation id -> o1 conversation id, for the rare server that picks its own.
        self._o1_ids: OrderedDict[str, str] = OrderedDict()

    @property
    @override
    def supported_languages(self) -> list[str] | Literal["*"]:
        """Return the supported languages: any, the LLM decides."""
        return MATCH_ALL

    @property
    @override
    def supported_features(self) -> conversation.ConversationEntityFeature:
        """Offer CONTROL only when the agent really has tools to control the home.

        That is: the server lets the profile control the home and an HA LLM API this agent uses is
        registered in Home Assistant (with none, the agent's code has nothing to call).
        """
        profile = self.server_profile
        if (
            self.hass is not None
            and profile is not None
            and profile.ha_access == HA_ACCESS_CONTROL
            and set(self.llm_hass_api()) & {api.id for api in llm.async_get_apis(self.hass)}
        ):
            return conversation.ConversationEntityFeature.CONTROL
        return conversation.ConversationEntityFeature(0)

    @override
    async def async_added_to_hass(self) -> None:
        """Register as a conversation agent when added."""
        await super().async_added_to_hass()
        conversation.async_set_agent(self.hass, self.entry, self)

    @override
    async def async_will_remove_from_hass(self) -> None:
        """Unregister the conversation agent before removal."""
        conversation.async_unset_agent(self.hass, self.entry)
        await super().async_will_remove_from_hass()

    def o1_conversation_id(self, ha_conversation_id: str) -> str:
        """Return the o1 conversation id used for an HA conversation id."""
        return self._o1_ids.get(ha_conversation_id, ha_conversation_id)

    def _remember_o1_id(self, ha_conversation_id: str, o1_id: str) -> None:
        """Remember the o1 id of a conversation when it differs from HA's."""
        if o1_id == ha_conversation_id:
            self._o1_ids.pop(ha_conversation_id, None)
            return
        self._o1_ids[ha_conversation_id] = o1_id
        self._o1_ids.move_to_end(ha_conversation_id)
        while len(self._o1_ids) > MAX_CONVERSATION_ID_ALIASES:
            self._o1_ids.popitem(last=False)

    @override
    async def _async_handle_message(
        self,
        user_input: conversation.ConversationInput,
        chat_log: conversation.ChatLog,
    ) -> conversation.ConversationResult:
        """Stream the server's answer into the chat log and return the turn's result."""
        ha_id = chat_log.conversation_id
        turn = _Turn()
        await self._async_prepare_home(user_input, chat_log, turn)
        async for _content in chat_log.async_add_delta_content_stream(
            user_input.agent_id, self._async_stream_turn(user_input, ha_id, turn)
        ):
            pass  # the chat log keeps the content; the deltas already reached its listener

        response = intent.IntentResponse(language=user_input.language)
        if turn.reply is None:
            response.async_set_error(
                intent.IntentResponseErrorCode.UNKNOWN, turn.text
            )
            return conversation.ConversationResult(response=response, conversation_id=ha_id)

        self._remember_o1_id(ha_id, turn.reply.conversation_id)
        record_usage(self.entry.runtime_data.usage, self.subentry.subentry_id, turn.reply.usage, chat_log)
        response.async_set_speech(turn.reply.answer)
        return conversation.ConversationResult(
            response=response,
            conversation_id=ha_id,
            continue_conversation=turn.reply.continue_conversation,
        )

    def llm_hass_api(self) -> list[str]:
        """The HA LLM APIs this agent uses: its own choice (empty: none), else what its profile asks for.

        A subentry without the option (the agent the config flow adds for the server's default
        profile) follows the server's profile; one saved by the agent's form keeps what was ticked.
        """
        chosen = self.subentry.data.get(CONF_LLM_HASS_API)
        if chosen is None:
            profile = self.server_profile
            chosen = profile.llm_hass_api if profile is not None else []
        return [chosen] if isinstance(chosen, str) else list(chosen)

    async def _async_prepare_home(
        self,
        user_input: conversation.ConversationInput,
        chat_log: conversation.ChatLog,
        turn: _Turn,
    ) -> None:
        """Give the turn Home Assistant's context and a tool runner, when the profile may use the home."""
        profile = self.server_profile
        apis = self.llm_hass_api()
        if profile is None or profile.ha_access not in (HA_ACCESS_READ, HA_ACCESS_CONTROL) or not apis:
            return
        try:
            api = await llm.async_get_api(self.hass, apis, user_input.as_llm_context(DOMAIN))
        except HomeAssistantError as err:
            LOGGER.warning("o1 agent %s: LLM API %s is not available: %s", self.entity_id, apis, err)
            api = None
        local = local_turns(chat_log, user_input.agent_id)
        turn.home = turn_context(self.hass, user_input, api, apis, local)
        turn.tools = HomeToolRunner(
            self.hass, api, user_input.context, profile.ha_access == HA_ACCESS_CONTROL
        )

    async def _async_stream_turn(
        self, user_input: conversation.ConversationInput, ha_id: str, turn: _Turn
    ) -> AsyncGenerator[Delta]:
        """Yield the chat log deltas of one turn; a failure becomes a spoken sentence.

        The answer's sentences are assistant text; each code block is an external
        tool call and its result. When the turn fails, even mid-answer, the error
        sentence is streamed too, so a TTS that already started speaks it.
        """
        in_text = False
        try:
            events = self.client.async_converse_stream(
                user_input.text,
                conversation_id=self.o1_conversation_id(ha_id),
                profile=self.profile,
                language=user_input.language,
                home=turn.home,
                instructions=render_instructions(self.hass, self.subentry),
                model=self.subentry.data.get(CONF_MODEL),
            )
            async with aclosing(events):
                async for event in events:
                    if isinstance(event, O1DeltaEvent):
                        if event.text:
                            yield self._text_delta(turn, event.text, in_text)
                            in_text = True
                    elif isinstance(event, O1CodeEvent):
                        in_text = False
                        for delta in self._code_deltas(user_input, ha_id, event.block):
                            yield delta
                    elif isinstance(event, O1ToolCallEvent):
                        await self._async_run_tool(turn, event)
                    elif isinstance(event, O1HomeCallEvent):
                        in_text = False
                        for delta in _home_call_deltas(event.call):
                            yield delta
                    else:
                        turn.reply = event.reply
                        if not turn.spoken and event.reply.answer:
                            # A server that did not stream its answer: say it at once.
                            yield self._text_delta(turn, event.reply.answer, in_text)
        except O1Error as err:
            # The user's words are never logged above debug.
            LOGGER.warning("o1 could not answer a turn of %s: %s", self.entity_id, err)
            LOGGER.debug("The turn o1 could not answer: %r", user_input.text)
            if isinstance(err, O1AuthError):
                self.entry.async_start_reauth(self.hass)
            elif isinstance(err, O1ConnectionError):
                # Check the server now: its agents turn unavailable if it is gone.
                await self.coordinator.async_request_refresh()
            message = await async_error_message(self.hass, err, user_input.language)
            if turn.spoken and not turn.text[-1].isspace():
                message = f" {message}"
            yield self._text_delta(turn, message, in_text)

    async def _async_run_tool(self, turn: _Turn, event: O1ToolCallEvent) -> None:
        """Run a tool call relayed by the server and send it the result."""
        if turn.tools is None:
            answer = {"error": "denied", "message": "This agent sent no Home Assistant context."}
        else:
            answer = await turn.tools.async_run(event.name, event.args)
        if not await self.client.async_send_tool_result(event, answer):
            LOGGER.debug("o1 no longer waited for tool call %s", event.name)

    @staticmethod
    def _text_delta(turn: _Turn, text: str, in_text: bool) -> AssistantContentDeltaDict:
        """Return the delta of a piece of the answer (a new assistant message unless one is open)."""
        turn.spoken.append(text)
        if in_text:
            return {"content": text}
        return {"role": "assistant", "content": text}

    def _code_deltas(
        self, user_input: conversation.ConversationInput, ha_id: str, block: O1CodeBlock
    ) -> list[Delta]:
        """Return the deltas of a code block (tool call, then result) and fire its event."""
        tool_input = llm.ToolInput(
            tool_name=CODE_TOOL_NAME,
            tool_args={"language": block.language, "code": block.code},
            external=True,
        )
        async_fire_code_block(
            self.hass,
            code_block_event_data(
                block,
                entry_id=self.entry.entry_id,
                subentry_id=self.subentry.subentry_id,
                entity_id=self.entity_id,
                conversation_id=ha_id,
                profile=self.profile,
            ),
            user_input.context,
        )
        return [
            {"role": "assistant", "tool_calls": [tool_input]},
            {
                "role": "tool_result",
                "tool_call_id": tool_input.id,
                "tool_name": CODE_TOOL_NAME,
                "result": _code_block_result(block),
            },
        ]


def _home_call_deltas(call: dict[str, Any]) -> list[Delta]:
    """Return the chat log deltas of one Home Assistant call of the agent's code (call, then result)."""
    tool_input = llm.ToolInput(
        tool_name=f"{HOME_TOOL_PREFIX}{call.get('op')}",
        tool_args=args if isinstance(args := call.get("args"), dict) else {},
        external=True,
    )
    ok = call.get("outcome") == "ok"
    data: dict[str, Any] = {"outcome": call.get("outcome")}
    if ok:
        data["result"] = call.get("result")
    else:
        data["error"] = call.get("error")
        data["message"] = call.get("message")
    return [
        {"role": "assistant", "tool_calls": [tool_input]},
        {
            "role": "tool_result",
            "tool_call_id": tool_input.id,
            "tool_name": tool_input.tool_name,
            "result": llm.ToolResult(data=data, error=not ok),
        },
    ]
