"""Config flow for the o1 integration.

The config entry is one o1 server (URL + access token). Each conversation
agent is a config subentry of type ``conversation`` bound to one of the
server's profiles (several agents may share a profile, each with its own
instructions); each AI Task entity is a subentry of type ``ai_task_data``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, override

import probatio
from yarl import URL

from homeassistant.config_entries import (
    ConfigEntry,
    ConfigEntryState,
    ConfigFlow,
    ConfigFlowResult,
    ConfigSubentryData,
    ConfigSubentryFlow,
    SubentryFlowResult,
)
from homeassistant.const import CONF_LLM_HASS_API, CONF_TOKEN, CONF_URL
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import llm
from homeassistant.helpers.service_info.hassio import HassioServiceInfo
from homeassistant.helpers.selector import (
    SelectOptionDict,
    SelectSelector,
    SelectSelectorConfig,
    SelectSelectorMode,
    TemplateSelector,
    TextSelector,
    TextSelectorConfig,
    TextSelectorType,
)

from . import O1ConfigEntry, async_create_client
from .client import (
    O1AuthError,
    O1ConnectionError,
    O1Error,
    O1Model,
    O1Profile,
    O1ServerInfo,
    normalize_url,
)
from .const import (
    CONF_MODEL,
    CONF_ADDON,
    CONF_PROFILE,
    CONF_PROMPT,
    DEFAULT_NAME,
    DEFAULT_URL,
    DOMAIN,
    LOGGER,
    SUBENTRY_AI_TASK,
    SUBENTRY_CONVERSATION,
)
from .issues import is_compatible


URL_SELECTOR = TextSelector(TextSelectorConfig(type=TextSelectorType.URL))
TOKEN_SELECTOR = TextSelector(TextSelectorConfig(type=TextSelectorType.PASSWORD))

STEP_USER_DATA_SCHEMA = probatio.Schema(
    {
        probatio.Required(CONF_URL): URL_SELECTOR,
        probatio.Required(CONF_TOKEN): TOKEN_SELECTOR,
    }
)
STEP_REAUTH_DATA_SCHEMA = probatio.Schema(
    {probatio.Required(CONF_TOKEN): TOKEN_SELECTOR}
)


def entry_title(url: str) -> str:
    """Return the title of the config entry of the server at `url`."""
    parsed = URL(url)
    location = parsed.host or url
    if parsed.explicit_port:
        location = f"{location}:{parsed.explicit_port}"
    return f"{DEFAULT_NAME} ({location})"


def profile_title(profile: str) -> str:
    """Return the title of the conversation subentry (and agent) of a profile."""
    return f"{DEFAULT_NAME} {profile}"


def ai_task_title(profile: str) -> str:
    """Return the title of an AI Task subentry (and entity) of a profile."""
    return f"{DEFAULT_NAME} AI Task {profile}"


def subentry_data(user_input: dict[str, Any]) -> dict[str, Any]:
    """Return a conversation subentry's data: its profile, its HA LLM APIs (a list of API ids) and
    its instructions (``prompt``, kept only when not blank).

    As in core's LLM agents, no API ticked (the field left out or empty) means no API: the agent
    gets no Home Assistant access, whatever its profile asks for.
    """
    data: dict[str, Any] = {
        CONF_PROFILE: user_input[CONF_PROFILE],
        CONF_LLM_HASS_API: list(user_input.get(CONF_LLM_HASS_API) or []),
    }
    if prompt := str(user_input.get(CONF_PROMPT) or "").strip():
        data[CONF_PROMPT] = prompt
    if model := user_input.get(CONF_MODEL):
        data[CONF_MODEL] = str(model)
    return data


def conversation_subentry(profile: str) -> ConfigSubentryData:
    """Return the subentry description of the conversation agent of a profile."""
    return {
        "subentry_type": SUBENTRY_CONVERSATION,
        "data": {CONF_PROFILE: profile},
        "title": profile_title(profile),
        "unique_id": profile,
    }


async def async_validate_server(
    hass: HomeAssistant, url: str, token: str
) -> tuple[O1ServerInfo | None, dict[str, str]]:
    """Check that the o1 server at `url` answers and accepts `token`.

    Returns the server's info and the form errors (empty on success).
    """
    client = async_create_client(hass, url, token)
    try:
        info = await client.async_get_info()
    except O1AuthError:
        return None, {"base": "invalid_auth"}
    except O1ConnectionError:
        return None, {"base": "cannot_connect"}
    except O1Error:
        LOGGER.warning("The o1 server at %s answered /api/info with an error", url)
        return None, {"base": "unknown"}
    except Exception:  # noqa: BLE001 - the form must show an error, not crash
        LOGGER.exception("Unexpected exception while validating the o1 server")
        return None, {"base": "unknown"}
    if not is_compatible(info.version, info.api_version):
        LOGGER.warning(
            "The o1 server at %s is version %s with API version %s: not supported",
            url,
            info.version,
            info.api_version,
        )
        return None, {"base": "incompatible_server"}
    return info, {}


def server_unique_id(info: O1ServerInfo, url: str) -> str:
    """Return the unique id of a server's config entry: its server id, or its URL for an older server."""
    return info.server_id or url


def is_server_id(unique_id: str | None) -> bool:
    """Return whether an entry's unique id is a server id (not the URL of an older server or entry)."""
    return bool(unique_id) and not str(unique_id).startswith(("http://", "https://"))


def discovery_abort_reason(errors: dict[str, str]) -> str:
    """Return the abort reason of a discovered server that failed its check."""
    if errors.get("base") == "invalid_auth":
        return "invalid_auth"
    if errors.get("base") == "incompatible_server":
        return "incompatible_server"
    return "cannot_connect"


class O1ConfigFlow(ConfigFlow, domain=DOMAIN):
    """Handle a config flow for an o1 server."""

    VERSION = 1
    MINOR_VERSION = 1

    # The discovered add-on: its name, its slug, the server's URL and token, and the server's info.
    _discovered: tuple[str, str, str, str, O1ServerInfo]

    def _create_server_entry(
        self, url: str, token: str, info: O1ServerInfo, addon: str | None = None
    ) -> ConfigFlowResult:
        """Create the server's entry, with an agent for its default profile (`addon`: the announcing add-on's slug)."""
        subentries = (
            [conversation_subentry(info.default_profile)] if info.default_profile else []
        )
        data = {CONF_URL: url, CONF_TOKEN: token}
        if addon:
            data[CONF_ADDON] = addon
        return self.async_create_entry(
            title=entry_title(url),
            data=data,
            subentries=subentries,
        )

    async def async_step_hassio(
        self, discovery_info: HassioServiceInfo
    ) -> ConfigFlowResult:
        """Handle the o1 add-on announcing its server (URL, token and server id) through the Supervisor.

        The entry of a server already configured (same server id, whatever its URL) takes the
        announced URL and token (and the add-on's slug) and reloads; a new server is checked, then offered
        to the user.
        """
        try:
            url = normalize_url(str(discovery_info.config["url"]))
            token = str(discovery_info.config["token"])
        except (KeyError, ValueError):
            return self.async_abort(reason="invalid_discovery_info")
        updates = {CONF_URL: url, CONF_TOKEN: token, CONF_ADDON: discovery_info.slug}
        announced_id = str(discovery_info.config.get("server_id") or "")
        if announced_id:
            await self.async_set_unique_id(announced_id)
            self._abort_if_unique_id_configured(updates=updates)
        info, errors = await async_validate_server(self.hass, url, token)
        if info is None:
            return self.async_abort(reason=discovery_abort_reason(errors))
        await self.async_set_unique_id(server_unique_id(info, url))
        self._abort_if_unique_id_configured(updates=updates)
        self._discovered = (discovery_info.name, discovery_info.slug, url, token, info)
        self.context["title_placeholders"] = {"name": discovery_info.name}
        return await self.async_step_hassio_confirm()

    async def async_step_hassio_confirm(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Ask the user to add the discovered add-on's server."""
        name, slug, url, token, info = self._discovered
        if user_input is not None:
            return self._create_server_entry(url, token, info, addon=slug)
        self._set_confirm_only()
        return self.async_show_form(
            step_id="hassio_confirm", description_placeholders={"addon": name}
        )

    @override
    async def async_step_user(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Ask for the server's URL and access token."""
        errors: dict[str, str] = {}
        if user_input is not None:
            token = user_input[CONF_TOKEN].strip()
            try:
                url = normalize_url(user_input[CONF_URL])
            except ValueError:
                errors[CONF_URL] = "invalid_url"
            else:
                info, errors = await async_validate_server(self.hass, url, token)
                if info is not None:
                    await self.async_set_unique_id(server_unique_id(info, url))
                    self._abort_if_unique_id_configured()
                    return self._create_server_entry(url, token, info)

        return self.async_show_form(
            step_id="user",
            data_schema=self.add_suggested_values_to_schema(
                STEP_USER_DATA_SCHEMA, user_input or {CONF_URL: DEFAULT_URL}
            ),
            errors=errors,
        )

    async def async_step_reauth(
        self, entry_data: Mapping[str, Any]
    ) -> ConfigFlowResult:
        """Start re-authentication when the server rejected the access token."""
        return await self.async_step_reauth_confirm()

    async def async_step_reauth_confirm(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Ask for a new access token and check it.

        Aborts with ``wrong_server`` when the server at the entry's address is another o1 server (its server
        id is not the entry's unique id).
        """
        entry = self._get_reauth_entry()
        errors: dict[str, str] = {}
        if user_input is not None:
            token = user_input[CONF_TOKEN].strip()
            info, errors = await async_validate_server(
                self.hass, entry.data[CONF_URL], token
            )
            if info is not None:
                unique_id = server_unique_id(info, entry.data[CONF_URL])
                if is_server_id(entry.unique_id) and unique_id != entry.unique_id:
                    return self.async_abort(reason="wrong_server")
                return self.async_update_reload_and_abort(
                    entry, data_updates={CONF_TOKEN: token}
                )

        return self.async_show_form(
            step_id="reauth_confirm",
            data_schema=STEP_REAUTH_DATA_SCHEMA,
            errors=errors,
            description_placeholders={"url": entry.data[CONF_URL]},
        )

    async def async_step_reconfigure(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Change the server's URL or access token (of the same server: its server id must match)."""
        entry = self._get_reconfigure_entry()
        errors: dict[str, str] = {}
        if user_input is not None:
            token = user_input[CONF_TOKEN].strip()
            try:
                url = normalize_url(user_input[CONF_URL])
            except ValueError:
                errors[CONF_URL] = "invalid_url"
            else:
                info, errors = await async_validate_server(self.hass, url, token)
                if info is not None:
                    unique_id = server_unique_id(info, url)
                    if is_server_id(entry.unique_id) and unique_id != entry.unique_id:
                        # Another server: that is a new entry, not a new address of this one.
                        return self.async_abort(reason="wrong_server")
                    if any(
                        other.unique_id == unique_id and other.entry_id != entry.entry_id
                        for other in self._async_current_entries(include_ignore=False)
                    ):
                        return self.async_abort(reason="already_configured")
                    return self.async_update_reload_and_abort(
                        entry,
                        unique_id=unique_id,
                        title=entry_title(url),
                        data_updates={CONF_URL: url, CONF_TOKEN: token},
                    )

        return self.async_show_form(
            step_id="reconfigure",
            data_schema=self.add_suggested_values_to_schema(
                STEP_USER_DATA_SCHEMA, user_input or dict(entry.data)
            ),
            errors=errors,
        )

    @classmethod
    @callback
    @override
    def async_get_supported_subentry_types(
        cls, config_entry: ConfigEntry
    ) -> dict[str, type[ConfigSubentryFlow]]:
        """Return the subentry types of an o1 server: its conversation agents."""
        return {
            SUBENTRY_CONVERSATION: O1ConversationSubentryFlow,
            SUBENTRY_AI_TASK: O1AITaskSubentryFlow,
        }


def _model_options(models: list[O1Model]) -> list[SelectOptionDict]:
    """Return the select options of the server's models ("name (server default)", "name (700 MB)")."""
    options = []
    for model in models:
        label = model.name
        if model.default:
            label = f"{model.name} (server default)"
        elif model.memory_mb:
            label = f"{model.name} ({model.memory_mb} MB)"
        options.append(SelectOptionDict(value=model.name, label=label))
    return options


def _model_field(
    models: list[SelectOptionDict], current: str | None
) -> dict[probatio.Optional, SelectSelector]:
    """Return the form's model field, or none when the server offers no choice of model.

    Left empty, the agent follows the server's default model.
    """
    if not models:
        return {}
    return {
        probatio.Optional(CONF_MODEL, description={"suggested_value": current}): SelectSelector(
            SelectSelectorConfig(options=models, mode=SelectSelectorMode.DROPDOWN)
        )
    }


def _profile_options(choices: list[O1Profile]) -> list[SelectOptionDict]:
    """Return the select options of the server's profiles ("name: description")."""
    return [
        SelectOptionDict(
            value=profile.name,
            label=(
                f"{profile.name}: {profile.description}"
                if profile.description
                else profile.name
            ),
        )
        for profile in choices
    ]


class _O1ProfileSubentryFlow(ConfigSubentryFlow):
    """What the subentry flows share: the server's profiles, and unique ids that allow several
    subentries of one profile."""

    async def _async_profile_choices(self) -> list[O1Profile] | SubentryFlowResult:
        """Return the server's profiles, or an abort result."""
        entry: O1ConfigEntry = self._get_entry()
        if entry.state is not ConfigEntryState.LOADED:
            return self.async_abort(reason="entry_not_loaded")
        try:
            info = await entry.runtime_data.client.async_get_info()
        except O1Error as err:
            LOGGER.warning("Cannot list the profiles of the o1 server: %s", err)
            return self.async_abort(reason="cannot_connect")
        if not info.profiles:
            return self.async_abort(reason="no_profiles_left")
        return info.profiles

    async def _async_model_options(self) -> list[SelectOptionDict]:
        """Return the models the server offers as select options (none when it offers no choice)."""
        entry: O1ConfigEntry = self._get_entry()
        try:
            models = await entry.runtime_data.client.async_get_models()
        except O1Error as err:
            LOGGER.warning("Cannot list the models of the o1 server: %s", err)
            return []
        return _model_options(models) if len(models) > 1 else []

    def _unique_id(self, profile: str, own_id: str | None = None) -> str | None:
        """Return the profile as unique id while no other subentry of this type holds it, else None
        (a second agent of the same profile)."""
        taken = any(
            subentry.unique_id == profile and subentry.subentry_id != own_id
            for subentry in self._get_entry().subentries.values()
            if subentry.subentry_type == self._subentry_type
        )
        return None if taken else profile


class O1AITaskSubentryFlow(_O1ProfileSubentryFlow):
    """Add or change an AI Task entity answered by one o1 profile (with its own instructions).

    AI Task subentries have no unique id: HA keeps subentry unique ids distinct across types, and
    the agents' unique ids are their profiles.
    """

    def _form(
        self,
        step_id: str,
        choices: list[O1Profile],
        current: dict[str, Any],
        models: list[SelectOptionDict],
    ) -> SubentryFlowResult:
        """Show the form to pick a profile and a model and write the task entity's instructions."""
        schema = probatio.Schema(
            {
                probatio.Required(
                    CONF_PROFILE, default=current.get(CONF_PROFILE) or choices[0].name
                ): SelectSelector(
                    SelectSelectorConfig(
                        options=_profile_options(choices), mode=SelectSelectorMode.DROPDOWN
                    )
                ),
                probatio.Optional(
                    CONF_PROMPT, description={"suggested_value": current.get(CONF_PROMPT)}
                ): TemplateSelector(),
                **_model_field(models, current.get(CONF_MODEL)),
            }
        )
        return self.async_show_form(step_id=step_id, data_schema=schema)

    @staticmethod
    def _data(user_input: dict[str, Any]) -> dict[str, Any]:
        data = {CONF_PROFILE: user_input[CONF_PROFILE]}
        if prompt := str(user_input.get(CONF_PROMPT) or "").strip():
            data[CONF_PROMPT] = prompt
        if model := user_input.get(CONF_MODEL):
            data[CONF_MODEL] = str(model)
        return data

    async def async_step_user(
        self, user_input: dict[str, Any] | None = None
    ) -> SubentryFlowResult:
        """Add an AI Task entity for a profile of the server."""
        choices = await self._async_profile_choices()
        if not isinstance(choices, list):
            return choices
        if user_input is None:
            return self._form("user", choices, {}, await self._async_model_options())
        profile = user_input[CONF_PROFILE]
        return self.async_create_entry(
            title=ai_task_title(profile),
            data=self._data(user_input),
        )

    async def async_step_reconfigure(
        self, user_input: dict[str, Any] | None = None
    ) -> SubentryFlowResult:
        """Change an AI Task entity's profile or instructions."""
        subentry = self._get_reconfigure_subentry()
        choices = await self._async_profile_choices()
        if not isinstance(choices, list):
            return choices
        if user_input is None:
            return self._form(
                "reconfigure", choices, dict(subentry.data), await self._async_model_options()
            )
        profile = user_input[CONF_PROFILE]
        return self.async_update_and_abort(
            self._get_entry(),
            subentry,
            title=ai_task_title(profile),
            data=self._data(user_input),
        )


class O1ConversationSubentryFlow(_O1ProfileSubentryFlow):
    """Add or change a conversation agent bound to one o1 profile.

    Several agents may use one profile: each has its own instructions and HA LLM APIs.
    """

    def _profile_form(
        self,
        step_id: str,
        choices: list[O1Profile],
        current: str | None,
        current_apis: list[str] | None = None,
        current_prompt: str | None = None,
        models: list[SelectOptionDict] | None = None,
        current_model: str | None = None,
    ) -> SubentryFlowResult:
        """Show the form to pick a profile among `choices`, the HA LLM APIs it uses and its
        instructions.

        The LLM APIs (``llm_hass_api``, as in core's LLM agents) are the Home Assistant
        tools the agent's code may call through the o1 server (within the profile's
        access level); none ticked, the agent has no Home Assistant access. The
        instructions (``prompt``, a template) join the profile's system message for the
        agent's turns. The model (``model``, one the server offers; empty: the server's
        default) answers the agent's turns.
        """
        options = _profile_options(choices)
        schema = probatio.Schema(
            {
                probatio.Required(
                    CONF_PROFILE, default=current or choices[0].name
                ): SelectSelector(
                    SelectSelectorConfig(
                        options=options, mode=SelectSelectorMode.DROPDOWN
                    )
                ),
                probatio.Optional(
                    CONF_LLM_HASS_API,
                    description={"suggested_value": current_apis},
                ): SelectSelector(
                    SelectSelectorConfig(
                        options=[
                            SelectOptionDict(value=api.id, label=api.name)
                            for api in llm.async_get_apis(self.hass)
                        ],
                        multiple=True,
                    )
                ),
                probatio.Optional(
                    CONF_PROMPT, description={"suggested_value": current_prompt}
                ): TemplateSelector(),
                **_model_field(models or [], current_model),
            }
        )
        return self.async_show_form(step_id=step_id, data_schema=schema)

    async def async_step_user(
        self, user_input: dict[str, Any] | None = None
    ) -> SubentryFlowResult:
        """Add a conversation agent for a profile of the server."""
        choices = await self._async_profile_choices()
        if not isinstance(choices, list):
            return choices
        if user_input is not None:
            profile = user_input[CONF_PROFILE]
            return self.async_create_entry(
                title=profile_title(profile),
                data=subentry_data(user_input),
                unique_id=self._unique_id(profile),
            )
        # As core's LLM agents: a new agent starts with Assist ticked (when HA offers it).
        assist = [api.id for api in llm.async_get_apis(self.hass) if api.id == llm.LLM_API_ASSIST]
        return self._profile_form(
            "user", choices, None, assist, models=await self._async_model_options()
        )

    async def async_step_reconfigure(
        self, user_input: dict[str, Any] | None = None
    ) -> SubentryFlowResult:
        """Bind an existing conversation agent to another profile, or change its APIs or instructions."""
        subentry = self._get_reconfigure_subentry()
        current = subentry.data.get(CONF_PROFILE)
        current_apis = subentry.data.get(CONF_LLM_HASS_API)
        choices = await self._async_profile_choices()
        if not isinstance(choices, list):
            return choices
        if current_apis is None:
            # An agent made by the config flow follows its profile: show what that profile uses.
            current_apis = next(
                (list(c.llm_hass_api) for c in choices if c.name == current), []
            )
        if user_input is not None:
            profile = user_input[CONF_PROFILE]
            return self.async_update_and_abort(
                self._get_entry(),
                subentry,
                unique_id=self._unique_id(profile, subentry.subentry_id),
                title=profile_title(profile),
                data=subentry_data(user_input),
            )
        return self._profile_form(
            "reconfigure",
            choices,
            current,
            current_apis,
            subentry.data.get(CONF_PROMPT),
            await self._async_model_options(),
            subentry.data.get(CONF_MODEL),
        )
