"""Conversation agent platform of the o1 integration."""

from __future__ import annotations

from collections import OrderedDict
from typing import Literal, override

from homeassistant.components import conversation
from homeassistant.config_entries import ConfigSubentry
from homeassistant.const import MATCH_ALL
from homeassistant.core import HomeAssistant
from homeassistant.helpers import intent, llm
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from . import O1ConfigEntry
from .client import (
    O1AuthError,
    O1ConnectionError,
    O1Error,
    O1Reply,
    O1ResponseError,
    O1TimeoutError,
)
from .const import LOGGER, MAX_CONVERSATION_ID_ALIASES, SUBENTRY_CONVERSATION
from .entity import O1Entity

# Entities only talk to the server; the server serialises its own work.
PARALLEL_UPDATES = 0

# Name of the (external) tool under which code run by o1 shows in the chat log.
CODE_TOOL_NAME = "o1_code"

# Sentences spoken when the server cannot give its own.
MESSAGE_AUTH = "The o1 server rejected Home Assistant's access token. Please re-authenticate the o1 integration."
MESSAGE_TIMEOUT = "The o1 server took too long to answer."
MESSAGE_CONNECTION = "I could not reach the o1 server."
MESSAGE_UNKNOWN = "Something went wrong while talking to the o1 server."


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


def error_message(err: O1Error) -> str:
    """Return the sentence to speak for a failed turn."""
    if isinstance(err, O1ResponseError):
        return err.message
    if isinstance(err, O1AuthError):
        return MESSAGE_AUTH
    if isinstance(err, O1TimeoutError):
        return MESSAGE_TIMEOUT
    if isinstance(err, O1ConnectionError):
        return MESSAGE_CONNECTION
    return MESSAGE_UNKNOWN


class O1ConversationEntity(
    conversation.ConversationEntity,
    conversation.AbstractConversationAgent,
    O1Entity,
):
    """A Home Assistant conversation agent answered by one o1 profile."""

    _attr_supports_streaming = False
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
        """Send the user's sentence to the o1 server and speak its answer."""
        ha_id = chat_log.conversation_id
        try:
            reply = await self.client.async_converse(
                user_input.text,
                conversation_id=self.o1_conversation_id(ha_id),
                profile=self.profile,
                language=user_input.language,
            )
        except O1Error as err:
            LOGGER.warning("o1 could not answer %r: %s", user_input.text, err)
            if isinstance(err, O1AuthError):
                self.entry.async_start_reauth(self.hass)
            return self._error_result(user_input, ha_id, error_message(err))

        self._remember_o1_id(ha_id, reply.conversation_id)
        self._add_reply_to_chat_log(user_input, chat_log, reply)

        response = intent.IntentResponse(language=user_input.language)
        response.async_set_speech(reply.answer)
        return conversation.ConversationResult(
            response=response,
            conversation_id=ha_id,
            continue_conversation=reply.continue_conversation,
        )

    @staticmethod
    def _error_result(
        user_input: conversation.ConversationInput, conversation_id: str, message: str
    ) -> conversation.ConversationResult:
        """Return a result that tells the user, in one sentence, what went wrong."""
        response = intent.IntentResponse(language=user_input.language)
        response.async_set_error(intent.IntentResponseErrorCode.UNKNOWN, message)
        return conversation.ConversationResult(
            response=response, conversation_id=conversation_id
        )

    @staticmethod
    def _add_reply_to_chat_log(
        user_input: conversation.ConversationInput,
        chat_log: conversation.ChatLog,
        reply: O1Reply,
    ) -> None:
        """Record the reply in HA's chat log: code run by o1 as external tool calls, then the answer."""
        agent_id = user_input.agent_id
        for block in reply.code_blocks:
            tool_input = llm.ToolInput(
                tool_name=CODE_TOOL_NAME,
                tool_args={"language": block.language, "code": block.code},
                external=True,
            )
            chat_log.async_add_assistant_content_without_tools(
                conversation.AssistantContent(
                    agent_id=agent_id, tool_calls=[tool_input]
                )
            )
            result = block.as_dict()
            del result["language"], result["code"]
            chat_log.async_add_assistant_content_without_tools(
                conversation.ToolResultContent(
                    agent_id=agent_id,
                    tool_call_id=tool_input.id,
                    tool_name=CODE_TOOL_NAME,
                    result=llm.ToolResult(
                        data=result,
                        error=block.exit_status not in (None, 0),
                    ),
                )
            )
        chat_log.async_add_assistant_content_without_tools(
            conversation.AssistantContent(agent_id=agent_id, content=reply.answer)
        )
