"""Constants for the o1 integration."""

from __future__ import annotations

import logging
from typing import Final

DOMAIN: Final = "o1"
LOGGER = logging.getLogger(__package__)

# Config entry data (the server) -- CONF_URL and CONF_TOKEN come from homeassistant.const.
# Config subentry data (one conversation agent per o1 profile).
CONF_PROFILE: Final = "profile"

SUBENTRY_CONVERSATION: Final = "conversation"

DEFAULT_NAME: Final = "o1"
# The o1 server's HTTP API port when nobody changed it (a suggestion in the form, nothing more).
DEFAULT_URL: Final = "http://localhost:10800"

# Seconds. A conversation turn may run a slow local LLM and code: be generous, never unbounded.
CONVERSATION_TIMEOUT: Final = 180
# Seconds for quick calls: /api/info, /api/health, DELETE and GET of a conversation.
REQUEST_TIMEOUT: Final = 15

# Most recent HA conversation ids whose o1 id differs, kept per agent entity.
MAX_CONVERSATION_ID_ALIASES: Final = 256

# Services.
SERVICE_ASK: Final = "ask"
SERVICE_RESET_CONVERSATION: Final = "reset_conversation"

ATTR_CONFIG_ENTRY_ID: Final = "config_entry_id"
ATTR_TEXT: Final = "text"
ATTR_CONVERSATION_ID: Final = "conversation_id"
ATTR_PROFILE: Final = "profile"
ATTR_LANGUAGE: Final = "language"
