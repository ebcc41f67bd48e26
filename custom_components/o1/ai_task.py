"""AI Task platform of the o1 integration: ``ai_task.generate_data`` answered by an o1 profile.

One entity per ``ai_task_data`` subentry. A task is one turn of the o1 agent (``POST
/api/conversation``, so the profile's sandbox and policy apply), in the task's own conversation:
its attachments are first stored in that conversation's folder (``POST
/api/conversation/{id}/files``) and named in the turn, so the agent's code can read them. With a
``structure`` the agent is told to print one JSON object of that schema; the output of its last
code block that ran (else its answer) is parsed and checked against the structure, the agent is
asked once more when it does not fit, then the task fails with a HomeAssistantError.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, override

import probatio

from homeassistant.components import ai_task, conversation
from homeassistant.config_entries import ConfigSubentry
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import llm
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from . import O1ConfigEntry
from .client import O1AuthError, O1Error, O1Reply
from .const import CONF_MODEL, DOMAIN, LOGGER, SUBENTRY_AI_TASK
from .conversation import render_instructions
from .entity import O1Entity
from .usage import record_usage

PARALLEL_UPDATES = 0

# Characters of a task's instructions sent as the turn's text (the server takes 4000 at most).
MAX_TASK_CHARS = 3500
# Characters of a failed answer quoted in the request for valid JSON and in the error.
MAX_QUOTED_CHARS = 300

STRUCTURED_INSTRUCTIONS = (
    "This is a data task, not a spoken question. Write one ```python code block that prints "
    "exactly one JSON object (json.dumps) and nothing else, with this JSON schema: {schema}"
)
RETRY_TEXT = (
    "That was not valid for the task ({error}). Write one ```python code block that prints only "
    "one JSON object, with json.dumps, matching this JSON schema: {schema}"
)


async def async_setup_entry(
    hass: HomeAssistant,
    config_entry: O1ConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Set up one AI Task entity per ``ai_task_data`` subentry."""
    for subentry in config_entry.subentries.values():
        if subentry.subentry_type != SUBENTRY_AI_TASK:
            continue
        async_add_entities(
            [O1TaskEntity(config_entry, subentry)],
            config_subentry_id=subentry.subentry_id,
        )


def schema_text(structure: probatio.Schema) -> str:
    """Return a task's structure as compact JSON schema text (what the model is shown)."""
    schema = probatio.to_openapi(
        structure, custom_serializer=llm.selector_serializer, openapi_version="3.1.0"
    )
    return json.dumps(schema, separators=(",", ":"), ensure_ascii=False)


def result_text(reply: O1Reply) -> str:
    """Return what a task's turn produced: the output of its last code block that ran without an
    error, else its answer."""
    for block in reversed(reply.code_blocks):
        if block.decision == "allow" and block.exit_status == 0 and block.output.strip():
            return block.output.strip()
    return reply.answer.strip()


def parse_structured(text: str, structure: probatio.Schema) -> tuple[Any, str | None]:
    """Return (data, None) when ``text`` holds one JSON value that ``structure`` accepts (the data
    as the schema returns it), else (None, why not: one short English phrase)."""
    candidates = [text]
    if (start := text.find("{")) >= 0 and (end := text.rfind("}")) > start:
        candidates.append(text[start : end + 1])  # printed with words around it
    data: Any = None
    for candidate in candidates:
        try:
            data = json.loads(candidate)
        except ValueError:
            continue
        break
    else:
        return None, "the output was not JSON"
    try:
        return structure(data), None
    except probatio.Invalid as err:
        return None, f"the JSON does not match the schema: {err}"


class O1TaskEntity(ai_task.AITaskEntity, O1Entity):
    """An AI Task entity answered by one o1 profile."""

    _attr_supported_features = (
        ai_task.AITaskEntityFeature.GENERATE_DATA
        | ai_task.AITaskEntityFeature.SUPPORT_ATTACHMENTS
    )

    def __init__(self, entry: O1ConfigEntry, subentry: ConfigSubentry) -> None:
        """Initialise the task entity."""
        super().__init__(entry, subentry)

    @override
    async def _async_generate_data(
        self,
        task: ai_task.GenDataTask,
        chat_log: conversation.ChatLog,
    ) -> ai_task.GenDataTaskResult:
        """Run the task as one o1 turn; raises HomeAssistantError when it fails or its data does
        not fit the task's structure after one more try."""
        conversation_id = chat_log.conversation_id
        files = await self._async_put_attachments(conversation_id, task.attachments or [])
        text = task.instructions.strip()[:MAX_TASK_CHARS]
        if files:
            text += "\nFiles for this task, in the current folder: " + ", ".join(files) + "."
        extra = [render_instructions(self.hass, self.subentry)]
        schema = schema_text(task.structure) if task.structure else ""
        if schema:
            extra.append(STRUCTURED_INSTRUCTIONS.format(schema=schema))
        instructions = "\n".join(part for part in extra if part) or None
        reply = await self._async_ask(text, conversation_id, instructions, chat_log)
        if task.structure is None:
            data: Any = reply.answer
        else:
            data, error = parse_structured(result_text(reply), task.structure)
            if error is not None:
                LOGGER.debug("o1 task %s: %s; asking again", task.name, error)
                retry = RETRY_TEXT.format(error=error, schema=schema)
                reply = await self._async_ask(retry, conversation_id, instructions, chat_log)
                data, error = parse_structured(result_text(reply), task.structure)
            if error is not None:
                raise HomeAssistantError(
                    translation_domain=DOMAIN,
                    translation_key="structured_output_invalid",
                    translation_placeholders={
                        "task": task.name,
                        "error": error[:MAX_QUOTED_CHARS],
                    },
                )
        chat_log.async_add_assistant_content_without_tools(
            conversation.AssistantContent(
                agent_id=self.entity_id,
                content=data if isinstance(data, str) else json.dumps(data),
            )
        )
        return ai_task.GenDataTaskResult(conversation_id=conversation_id, data=data)

    async def _async_ask(
        self,
        text: str,
        conversation_id: str,
        instructions: str | None,
        chat_log: conversation.ChatLog,
    ) -> O1Reply:
        """One turn of the task's conversation with the task's model; its usage goes into the
        chat log's trace and the entity's stats. An O1Error becomes a HomeAssistantError."""
        try:
            reply = await self.client.async_converse(
                text,
                conversation_id=conversation_id,
                profile=self.profile,
                instructions=instructions,
                model=self.subentry.data.get(CONF_MODEL),
            )
        except O1Error as err:
            self._handle_error(err)
            raise HomeAssistantError(
                translation_domain=DOMAIN,
                translation_key="task_failed",
                translation_placeholders={"error": str(err)},
            ) from err
        record_usage(self.entry.runtime_data.usage, self.subentry.subentry_id, reply.usage, chat_log)
        return reply

    async def _async_put_attachments(
        self, conversation_id: str, attachments: list[conversation.Attachment]
    ) -> list[str]:
        """Store the task's attachments in its conversation's folder; return their names there."""
        if not attachments:
            return []
        files = await self.hass.async_add_executor_job(_read_attachments, attachments)
        try:
            return await self.client.async_put_files(
                conversation_id, files, profile=self.profile
            )
        except O1Error as err:
            self._handle_error(err)
            raise HomeAssistantError(
                translation_domain=DOMAIN,
                translation_key="attachments_failed",
                translation_placeholders={"error": str(err)},
            ) from err

    def _handle_error(self, err: O1Error) -> None:
        """Start reauthentication when the server refused the token."""
        LOGGER.warning("o1 AI task failed: %s", err)
        if isinstance(err, O1AuthError):
            self.entry.async_start_reauth(self.hass)


def _read_attachments(
    attachments: list[conversation.Attachment],
) -> list[tuple[str, bytes, str]]:
    """Return the (file name, content, MIME type) of each attachment (blocking: reads files)."""
    return [
        (Path(a.path).name, Path(a.path).read_bytes(), a.mime_type) for a in attachments
    ]
