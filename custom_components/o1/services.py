"""Services of the o1 integration: ask the server directly, forget a conversation."""

from __future__ import annotations

from typing import TYPE_CHECKING

import probatio

from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import (
    HomeAssistant,
    ServiceCall,
    ServiceResponse,
    SupportsResponse,
    callback,
)
from homeassistant.exceptions import HomeAssistantError, ServiceValidationError
from homeassistant.helpers import config_validation as cv

from .client import O1AuthError, O1Error
from .const import (
    ATTR_CONFIG_ENTRY_ID,
    ATTR_CONVERSATION_ID,
    ATTR_LANGUAGE,
    ATTR_PROFILE,
    ATTR_TEXT,
    DOMAIN,
    SERVICE_ASK,
    SERVICE_RESET_CONVERSATION,
)
from .events import async_fire_code_block, code_block_event_data

if TYPE_CHECKING:
    from . import O1ConfigEntry

ASK_SCHEMA = probatio.Schema(
    {
        probatio.Optional(ATTR_CONFIG_ENTRY_ID): cv.string,
        probatio.Required(ATTR_TEXT): cv.string,
        probatio.Optional(ATTR_CONVERSATION_ID): cv.string,
        probatio.Optional(ATTR_PROFILE): cv.string,
        probatio.Optional(ATTR_LANGUAGE): cv.string,
    }
)
RESET_SCHEMA = probatio.Schema(
    {
        probatio.Optional(ATTR_CONFIG_ENTRY_ID): cv.string,
        probatio.Required(ATTR_CONVERSATION_ID): cv.string,
    }
)


def _get_entry(hass: HomeAssistant, call: ServiceCall) -> O1ConfigEntry:
    """Return the loaded o1 config entry a service call is meant for.

    Without `config_entry_id`, the only loaded o1 entry is used.
    """
    if entry_id := call.data.get(ATTR_CONFIG_ENTRY_ID):
        entry = hass.config_entries.async_get_entry(entry_id)
        if entry is None or entry.domain != DOMAIN:
            raise ServiceValidationError(
                translation_domain=DOMAIN,
                translation_key="entry_not_found",
                translation_placeholders={"entry_id": entry_id},
            )
        if entry.state is not ConfigEntryState.LOADED:
            raise ServiceValidationError(
                translation_domain=DOMAIN,
                translation_key="entry_not_loaded",
                translation_placeholders={"title": entry.title},
            )
        return entry

    loaded = hass.config_entries.async_loaded_entries(DOMAIN)
    if len(loaded) != 1:
        raise ServiceValidationError(
            translation_domain=DOMAIN,
            translation_key="entry_required",
            translation_placeholders={"count": str(len(loaded))},
        )
    return loaded[0]


def _raise_request_failed(
    hass: HomeAssistant, entry: O1ConfigEntry, err: O1Error
) -> None:
    """Raise the service error for a failed request (and ask for reauth on 401)."""
    if isinstance(err, O1AuthError):
        entry.async_start_reauth(hass)
    raise HomeAssistantError(
        translation_domain=DOMAIN,
        translation_key="request_failed",
        translation_placeholders={"error": str(err)},
    ) from err


@callback
def async_setup_services(hass: HomeAssistant) -> None:
    """Register the o1 services."""

    async def async_ask(call: ServiceCall) -> ServiceResponse:
        """Send one turn to the o1 server and return its reply."""
        entry = _get_entry(hass, call)
        try:
            reply = await entry.runtime_data.client.async_converse(
                call.data[ATTR_TEXT],
                conversation_id=call.data.get(ATTR_CONVERSATION_ID),
                profile=call.data.get(ATTR_PROFILE),
                language=call.data.get(ATTR_LANGUAGE),
            )
        except O1Error as err:
            _raise_request_failed(hass, entry, err)
        for block in reply.code_blocks:
            async_fire_code_block(
                hass,
                code_block_event_data(
                    block,
                    entry_id=entry.entry_id,
                    subentry_id=None,
                    entity_id=None,
                    conversation_id=reply.conversation_id,
                    profile=reply.profile,
                ),
                call.context,
            )
        return reply.as_dict()

    async def async_reset_conversation(call: ServiceCall) -> None:
        """Make the o1 server forget a conversation."""
        entry = _get_entry(hass, call)
        try:
            await entry.runtime_data.client.async_reset(call.data[ATTR_CONVERSATION_ID])
        except O1Error as err:
            _raise_request_failed(hass, entry, err)

    hass.services.async_register(
        DOMAIN,
        SERVICE_ASK,
        async_ask,
        schema=ASK_SCHEMA,
        supports_response=SupportsResponse.ONLY,
    )
    hass.services.async_register(
        DOMAIN,
        SERVICE_RESET_CONVERSATION,
        async_reset_conversation,
        schema=RESET_SCHEMA,
    )
