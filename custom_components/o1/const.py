"""Constants for the o1 integration."""

from __future__ import annotations

from datetime import timedelta
import logging
from typing import Final

DOMAIN: Final = "o1"
LOGGER = logging.getLogger(__package__)

# Config entry data (the server) -- CONF_URL and CONF_TOKEN come from homeassistant.const.
# The slug of the add-on that announced the server (Supervisor discovery); absent for a server added by hand.
CONF_ADDON: Final = "addon"
# Config subentry data (one conversation agent per o1 profile).
CONF_PROFILE: Final = "profile"
# The agent's own instructions (a template), added to its profile's system message for its turns.
CONF_PROMPT: Final = "prompt"
# The model the agent's turns ask the server for (one of GET /api/models); absent: the server's default.
CONF_MODEL: Final = "model"

SUBENTRY_CONVERSATION: Final = "conversation"
# One AI Task entity (ai_task.generate_data) per subentry of this type, as core's LLM integrations have.
SUBENTRY_AI_TASK: Final = "ai_task_data"

DEFAULT_NAME: Final = "o1"
# The o1 server's HTTP API port when nobody changed it (a suggestion in the form, nothing more).
DEFAULT_URL: Final = "http://localhost:10800"

# Seconds. A conversation turn may run a slow local LLM and code: be generous, never unbounded.
# A little above the server's own default turn limit (180 s), so its spoken "took too long" comes first.
CONVERSATION_TIMEOUT: Final = 190
# Seconds for quick calls: /api/info, /api/health, DELETE and GET of a conversation.
REQUEST_TIMEOUT: Final = 15

# Bytes: the longest NDJSON line accepted from the streaming endpoint (code and output are capped server-side).
MAX_STREAM_LINE: Final = 1 << 20

# How often the server's /api/info is checked (availability, profiles, version).
UPDATE_INTERVAL: Final = timedelta(seconds=60)
# A repair issue is raised once the server has been unreachable for this long.
UNREACHABLE_ISSUE_AFTER: Final = timedelta(minutes=5)

# What this integration speaks: the o1 HTTP API v1, from this server version on.
SUPPORTED_API_VERSION: Final = 1
MIN_SERVER_VERSION: Final = "0.1.0"

# Repair issue ids (suffixed with the config entry id) and translation keys.
ISSUE_UNREACHABLE: Final = "server_unreachable"
ISSUE_INCOMPATIBLE: Final = "incompatible_server"
# Suffixed with the config entry id and the subentry id of the agent whose profile is gone.
ISSUE_PROFILE_REMOVED: Final = "profile_removed"

# Fired on HA's bus for each code block the agent wrote (ran, refused, held for confirmation...).
EVENT_CODE_BLOCK: Final = "o1_code_block"
# Characters of code and of output kept in an event (events are recorded).
EVENT_MAX_CODE: Final = 2000
EVENT_MAX_OUTPUT: Final = 1000

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
