"""Tests of the o1 config flow and of its conversation subentry flow."""

from __future__ import annotations

from unittest.mock import patch

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.o1.const import CONF_ADDON, CONF_PROFILE, DOMAIN, SUBENTRY_CONVERSATION
from homeassistant.config_entries import SOURCE_HASSIO, SOURCE_USER, ConfigEntryState
from homeassistant.const import CONF_LLM_HASS_API, CONF_TOKEN, CONF_URL
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import device_registry as dr, translation
from homeassistant.helpers.service_info.hassio import HassioServiceInfo

from .stub_server import TOKEN, Failure, StubO1Server


def _suggested_apis(result: dict) -> object:
    """Return the LLM APIs a subentry form shows ticked (its suggested value)."""
    key = next(k for k in result["data_schema"].schema if k == CONF_LLM_HASS_API)
    return (key.description or {}).get("suggested_value")


async def _start_user_flow(hass: HomeAssistant) -> str:
    """Start the user step and return the flow id (checks the form)."""
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_USER}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "user"
    assert result["errors"] == {}
    return result["flow_id"]


async def test_user_flow_creates_entry_with_default_agent(
    hass: HomeAssistant, setup_ha: None, o1_server: StubO1Server
) -> None:
    """A valid URL and token create the entry and the default profile's agent."""
    flow_id = await _start_user_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        flow_id, {CONF_URL: f"  {o1_server.url}/ ", CONF_TOKEN: f" {TOKEN} "}
    )
    await hass.async_block_till_done()

    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["title"] == f"o1 (127.0.0.1:{o1_server.port})"
    assert result["data"] == {CONF_URL: o1_server.url, CONF_TOKEN: TOKEN}
    entry = result["result"]
    # The server's own id, not its address: the entry follows the server to a new URL.
    assert entry.unique_id == o1_server.server_id
    assert entry.state is ConfigEntryState.LOADED
    subentries = list(entry.subentries.values())
    assert len(subentries) == 1
    assert subentries[0].subentry_type == SUBENTRY_CONVERSATION
    assert subentries[0].data == {CONF_PROFILE: "default"}
    assert subentries[0].title == "o1 default"
    assert subentries[0].unique_id == "default"
    # The token went to the server as a bearer token.
    info_requests = o1_server.requests_to("GET", "/api/info")
    assert info_requests
    assert info_requests[0].headers["Authorization"] == f"Bearer {TOKEN}"


async def test_user_flow_without_profiles_creates_no_agent(
    hass: HomeAssistant, setup_ha: None, o1_server: StubO1Server
) -> None:
    """A server that offers no profile gives an entry without subentries."""
    o1_server.info = {"version": "0.1.0", "api_version": 1, "profiles": []}
    flow_id = await _start_user_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        flow_id, {CONF_URL: o1_server.url, CONF_TOKEN: TOKEN}
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["result"].subentries == {}


@pytest.mark.parametrize(
    ("token", "failure", "error"),
    [
        ("wrong-token", None, "invalid_auth"),
        (TOKEN, Failure(status=500, body={"error": "boom", "message": "Boom."}), "unknown"),
        (TOKEN, Failure(status=200, raw=b"<html>not the o1 API</html>"), "cannot_connect"),
        (TOKEN, Failure(status=200, body={"unexpected": True}), "cannot_connect"),
    ],
)
async def test_user_flow_server_errors_then_recover(
    hass: HomeAssistant,
    setup_ha: None,
    o1_server: StubO1Server,
    token: str,
    failure: Failure | None,
    error: str,
) -> None:
    """Server-side failures show an error; fixing them creates the entry."""
    if failure is not None:
        o1_server.failures["info"] = failure
    flow_id = await _start_user_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        flow_id, {CONF_URL: o1_server.url, CONF_TOKEN: token}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": error}

    o1_server.failures.clear()
    result = await hass.config_entries.flow.async_configure(
        flow_id, {CONF_URL: o1_server.url, CONF_TOKEN: TOKEN}
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY


async def test_user_flow_cannot_connect(
    hass: HomeAssistant, setup_ha: None, closed_port_url: str
) -> None:
    """Nobody listening at the URL shows cannot_connect."""
    flow_id = await _start_user_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        flow_id, {CONF_URL: closed_port_url, CONF_TOKEN: TOKEN}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "cannot_connect"}


async def test_user_flow_timeout(
    hass: HomeAssistant, setup_ha: None, o1_server: StubO1Server
) -> None:
    """A server that does not answer in time shows cannot_connect."""
    o1_server.failures["info"] = Failure(status=200, body={}, delay=5)
    flow_id = await _start_user_flow(hass)
    with patch("custom_components.o1.client.REQUEST_TIMEOUT", 0.2):
        result = await hass.config_entries.flow.async_configure(
            flow_id, {CONF_URL: o1_server.url, CONF_TOKEN: TOKEN}
        )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "cannot_connect"}


async def test_user_flow_unexpected_exception(
    hass: HomeAssistant, setup_ha: None, o1_server: StubO1Server
) -> None:
    """An unexpected exception shows unknown instead of crashing the flow."""
    flow_id = await _start_user_flow(hass)
    with patch(
        "custom_components.o1.client.O1Client.async_get_info",
        side_effect=RuntimeError("bug"),
    ):
        result = await hass.config_entries.flow.async_configure(
            flow_id, {CONF_URL: o1_server.url, CONF_TOKEN: TOKEN}
        )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "unknown"}


@pytest.mark.parametrize("url", ["not a url", "ftp://127.0.0.1/", "http://"])
async def test_user_flow_invalid_url(
    hass: HomeAssistant, setup_ha: None, o1_server: StubO1Server, url: str
) -> None:
    """A text that is not an http(s) URL is refused before any request."""
    flow_id = await _start_user_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        flow_id, {CONF_URL: url, CONF_TOKEN: TOKEN}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {CONF_URL: "invalid_url"}
    assert o1_server.requests == []


async def test_user_flow_already_configured(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """The same server (same server id, whatever the URL's spelling) cannot be added twice."""
    flow_id = await _start_user_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        flow_id, {CONF_URL: o1_server.url.upper() + "/", CONF_TOKEN: TOKEN}
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "already_configured"


async def test_reauth_flow(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """Re-authentication checks the new token and stores it."""
    entry = init_integration
    o1_server.token = "new-token"
    result = await entry.start_reauth_flow(hass)
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "reauth_confirm"
    assert result["description_placeholders"]["url"] == o1_server.url

    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_TOKEN: "still-wrong"}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "invalid_auth"}

    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_TOKEN: "new-token"}
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "reauth_successful"
    assert entry.data[CONF_TOKEN] == "new-token"
    assert entry.data[CONF_URL] == o1_server.url
    assert entry.state is ConfigEntryState.LOADED


async def test_reauth_of_another_server_at_the_address_aborts(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """The entry's address now answers as another o1 server (another server id): its token is not taken."""
    entry = init_integration
    o1_server.server_id = "f" * 32
    o1_server.token = "other-servers-token"
    result = await entry.start_reauth_flow(hass)
    result = await hass.config_entries.flow.async_configure(result["flow_id"], {CONF_TOKEN: "other-servers-token"})
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "wrong_server"
    assert entry.data[CONF_TOKEN] == TOKEN
    assert entry.unique_id != o1_server.server_id
    shown = await translation.async_get_translations(hass, "en", "config", {DOMAIN})
    assert "another o1 server" in shown[f"component.{DOMAIN}.config.abort.wrong_server"]


async def test_reconfigure_flow(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    o1_server: StubO1Server,
) -> None:
    """Reconfigure moves the entry to the server's new URL and token (the same server: same id)."""
    entry = init_integration
    other = StubO1Server(token="other-token", server_id=o1_server.server_id)
    await other.start()
    try:
        result = await entry.start_reconfigure_flow(hass)
        assert result["type"] is FlowResultType.FORM
        assert result["step_id"] == "reconfigure"

        result = await hass.config_entries.flow.async_configure(
            result["flow_id"], {CONF_URL: "nonsense", CONF_TOKEN: "x"}
        )
        assert result["errors"] == {CONF_URL: "invalid_url"}

        result = await hass.config_entries.flow.async_configure(
            result["flow_id"], {CONF_URL: other.url, CONF_TOKEN: TOKEN}
        )
        assert result["type"] is FlowResultType.FORM
        assert result["errors"] == {"base": "invalid_auth"}

        result = await hass.config_entries.flow.async_configure(
            result["flow_id"], {CONF_URL: other.url, CONF_TOKEN: "other-token"}
        )
        await hass.async_block_till_done()
        assert result["type"] is FlowResultType.ABORT
        assert result["reason"] == "reconfigure_successful"
        assert entry.data == {CONF_URL: other.url, CONF_TOKEN: "other-token"}
        assert entry.unique_id == other.server_id
        assert entry.title == f"o1 (127.0.0.1:{other.port})"
        assert entry.state is ConfigEntryState.LOADED
        assert other.requests_to("GET", "/api/info")
    finally:
        await hass.config_entries.async_unload(entry.entry_id)
        await other.stop()


async def test_reconfigure_flow_same_url(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """Reconfigure may keep the URL and only change the token."""
    entry = init_integration
    o1_server.token = "rotated"
    result = await entry.start_reconfigure_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_URL: o1_server.url, CONF_TOKEN: "rotated"}
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "reconfigure_successful"
    assert entry.data[CONF_TOKEN] == "rotated"


async def test_reconfigure_flow_to_another_configured_server(
    hass: HomeAssistant, setup_ha: None, o1_server: StubO1Server
) -> None:
    """Reconfigure refuses a URL whose server another entry already holds."""
    taken = MockConfigEntry(
        domain=DOMAIN, unique_id=o1_server.server_id, data={CONF_URL: o1_server.url, CONF_TOKEN: TOKEN}
    )
    taken.add_to_hass(hass)
    # An entry from before server ids (its unique id is its URL) may take any server's id, but not one
    # another entry holds.
    legacy_url = "http://127.0.0.1:9"
    legacy = MockConfigEntry(
        domain=DOMAIN, unique_id=legacy_url, data={CONF_URL: legacy_url, CONF_TOKEN: TOKEN}
    )
    legacy.add_to_hass(hass)
    # The same server at a second address (another port).
    again = StubO1Server(server_id=o1_server.server_id)
    await again.start()
    try:
        result = await legacy.start_reconfigure_flow(hass)
        result = await hass.config_entries.flow.async_configure(
            result["flow_id"], {CONF_URL: again.url, CONF_TOKEN: TOKEN}
        )
    finally:
        await again.stop()
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "already_configured"
    assert legacy.data[CONF_URL] == legacy_url and legacy.unique_id == legacy_url


async def test_reconfigure_flow_to_a_different_server(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """Reconfigure cannot turn the entry into another server's (that is a new entry)."""
    other = StubO1Server()
    await other.start()
    try:
        result = await init_integration.start_reconfigure_flow(hass)
        result = await hass.config_entries.flow.async_configure(
            result["flow_id"], {CONF_URL: other.url, CONF_TOKEN: TOKEN}
        )
        assert result["type"] is FlowResultType.ABORT
        assert result["reason"] == "wrong_server"
        assert init_integration.data[CONF_URL] == o1_server.url
        assert init_integration.unique_id == o1_server.server_id
    finally:
        await other.stop()


async def test_user_flow_same_server_at_another_url(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """The server is known by its id: another address of it is no second entry."""
    again = StubO1Server(server_id=o1_server.server_id)
    await again.start()
    try:
        flow_id = await _start_user_flow(hass)
        result = await hass.config_entries.flow.async_configure(
            flow_id, {CONF_URL: again.url, CONF_TOKEN: TOKEN}
        )
    finally:
        await again.stop()
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "already_configured"
    assert len(hass.config_entries.async_entries(DOMAIN)) == 1


async def test_server_without_an_id_is_known_by_its_url(
    hass: HomeAssistant, setup_ha: None, o1_server: StubO1Server
) -> None:
    """A server older than server ids gives its URL as the entry's unique id."""
    o1_server.server_id = None
    flow_id = await _start_user_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        flow_id, {CONF_URL: o1_server.url, CONF_TOKEN: TOKEN}
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["result"].unique_id == o1_server.url


async def test_setup_keeps_the_url_when_another_entry_holds_the_server_id(
    hass: HomeAssistant, setup_ha: None, o1_server: StubO1Server, caplog: pytest.LogCaptureFixture
) -> None:
    """Two entries of one server (one from before server ids): the second keeps its URL id and says why."""
    holder = MockConfigEntry(
        domain=DOMAIN, unique_id=o1_server.server_id, data={CONF_URL: "http://127.0.0.1:9", CONF_TOKEN: TOKEN}
    )
    holder.add_to_hass(hass)
    legacy = MockConfigEntry(
        domain=DOMAIN, unique_id=o1_server.url, data={CONF_URL: o1_server.url, CONF_TOKEN: TOKEN}
    )
    legacy.add_to_hass(hass)
    assert await hass.config_entries.async_setup(legacy.entry_id)
    await hass.async_block_till_done()
    assert legacy.state is ConfigEntryState.LOADED
    assert legacy.unique_id == o1_server.url and holder.unique_id == o1_server.server_id
    assert f"configured twice (server id {o1_server.server_id})" in caplog.text


async def test_setup_adopts_the_server_id(
    hass: HomeAssistant, setup_ha: None, o1_server: StubO1Server
) -> None:
    """An entry made before server ids (unique id = URL) takes the server's id when it loads."""
    entry = MockConfigEntry(
        domain=DOMAIN, unique_id=o1_server.url, data={CONF_URL: o1_server.url, CONF_TOKEN: TOKEN}
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert entry.state is ConfigEntryState.LOADED
    assert entry.unique_id == o1_server.server_id


# --- Conversation subentries -------------------------------------------------


async def test_subentry_add_profile(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """A second profile can be added as a conversation agent."""
    entry = init_integration
    result = await hass.config_entries.subentries.async_init(
        (entry.entry_id, SUBENTRY_CONVERSATION), context={"source": SOURCE_USER}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "user"
    # Every profile is offered (several agents may share one), with the agent's own instructions.
    schema = result["data_schema"].schema
    assert list(schema) == [CONF_PROFILE, CONF_LLM_HASS_API, "prompt"]
    options = schema[CONF_PROFILE].config["options"]
    assert [option["value"] for option in options] == ["default", "coder"]
    # HA's LLM APIs (Assist at least) can be picked for the agent's home control.
    apis = schema[CONF_LLM_HASS_API].config["options"]
    assert "assist" in [option["value"] for option in apis]
    assert schema[CONF_LLM_HASS_API].config["multiple"] is True

    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_PROFILE: "coder", CONF_LLM_HASS_API: ["assist"]}
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["title"] == "o1 coder"
    assert result["data"] == {CONF_PROFILE: "coder", CONF_LLM_HASS_API: ["assist"]}
    profiles = sorted(s.data[CONF_PROFILE] for s in entry.subentries.values())
    assert profiles == ["coder", "default"]
    assert hass.states.get("conversation.o1_coder") is not None


async def test_subentry_profile_taken_meanwhile(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """A profile another agent took between form and submit gets a second agent (no unique id)."""
    entry = init_integration
    o1_server.info["profiles"].append({"name": "third"})
    result = await hass.config_entries.subentries.async_init(
        (entry.entry_id, SUBENTRY_CONVERSATION), context={"source": SOURCE_USER}
    )
    other = await hass.config_entries.subentries.async_init(
        (entry.entry_id, SUBENTRY_CONVERSATION), context={"source": SOURCE_USER}
    )
    await hass.config_entries.subentries.async_configure(
        other["flow_id"], {CONF_PROFILE: "coder"}
    )
    await hass.async_block_till_done()
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_PROFILE: "coder"}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    coders = [s for s in entry.subentries.values() if s.data[CONF_PROFILE] == "coder"]
    assert sorted(str(s.unique_id) for s in coders) == ["None", "coder"]


async def test_subentry_no_profiles_left(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """When the server offers no profile, the subentry flow aborts."""
    o1_server.info["profiles"] = []
    result = await hass.config_entries.subentries.async_init(
        (init_integration.entry_id, SUBENTRY_CONVERSATION),
        context={"source": SOURCE_USER},
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "no_profiles_left"


async def test_subentry_entry_not_loaded(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """Adding an agent to an unloaded server aborts."""
    await hass.config_entries.async_unload(init_integration.entry_id)
    result = await hass.config_entries.subentries.async_init(
        (init_integration.entry_id, SUBENTRY_CONVERSATION),
        context={"source": SOURCE_USER},
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "entry_not_loaded"


async def test_subentry_cannot_connect(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """A server that fails while listing profiles aborts the subentry flow."""
    o1_server.failures["info"] = Failure(status=502, body={"error": "x", "message": "X."})
    result = await hass.config_entries.subentries.async_init(
        (init_integration.entry_id, SUBENTRY_CONVERSATION),
        context={"source": SOURCE_USER},
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "cannot_connect"


async def test_subentry_reconfigure(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """An agent can be bound to another profile."""
    entry = init_integration
    subentry = next(iter(entry.subentries.values()))
    result = await entry.start_subentry_reconfigure_flow(hass, subentry.subentry_id)
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "reconfigure"
    options = result["data_schema"].schema[CONF_PROFILE].config["options"]
    assert [option["value"] for option in options] == ["default", "coder"]
    assert options[0]["label"] == "default: Answers questions, runs safe code"
    assert options[1]["label"] == "coder"
    # The agent the config flow made follows its profile: the form shows the profile's APIs (none here).
    assert _suggested_apis(result) == []

    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_PROFILE: "coder"}
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "reconfigure_successful"
    subentry = entry.subentries[subentry.subentry_id]
    # Saved by the form: nothing ticked is no API (the profile's choice no longer applies).
    assert subentry.data == {CONF_PROFILE: "coder", CONF_LLM_HASS_API: []}
    assert subentry.title == "o1 coder"
    assert subentry.unique_id == "coder"


async def test_subentry_reconfigure_profile_taken_meanwhile(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """Reconfiguring to a profile that another agent took meanwhile makes a second agent of it."""
    entry = init_integration
    o1_server.info["profiles"].append({"name": "third"})
    subentry = next(iter(entry.subentries.values()))
    result = await entry.start_subentry_reconfigure_flow(hass, subentry.subentry_id)
    add = await hass.config_entries.subentries.async_init(
        (entry.entry_id, SUBENTRY_CONVERSATION), context={"source": SOURCE_USER}
    )
    await hass.config_entries.subentries.async_configure(
        add["flow_id"], {CONF_PROFILE: "coder"}
    )
    await hass.async_block_till_done()
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_PROFILE: "coder"}
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "reconfigure_successful"
    assert entry.subentries[subentry.subentry_id].data[CONF_PROFILE] == "coder"
    assert entry.subentries[subentry.subentry_id].unique_id is None


async def test_subentry_reconfigure_cannot_connect(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """Reconfiguring an agent while the server fails aborts."""
    subentry = next(iter(init_integration.subentries.values()))
    o1_server.failures["info"] = Failure(status=500)
    result = await init_integration.start_subentry_reconfigure_flow(
        hass, subentry.subentry_id
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "cannot_connect"


@pytest.mark.parametrize(("version", "api_version"), [("0.1.0", 2), ("0.0.1", 1)])
async def test_user_flow_incompatible_server(
    hass: HomeAssistant, setup_ha: None, o1_server: StubO1Server, version: str, api_version: int
) -> None:
    """A server of another API version (or too old) is refused until it is updated."""
    o1_server.info.update(version=version, api_version=api_version)
    flow_id = await _start_user_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        flow_id, {CONF_URL: o1_server.url, CONF_TOKEN: TOKEN}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "incompatible_server"}

    o1_server.info.update(version="0.1.0", api_version=1)
    result = await hass.config_entries.flow.async_configure(
        flow_id, {CONF_URL: o1_server.url, CONF_TOKEN: TOKEN}
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY


def _discovery(url: str, token: str = TOKEN, **config: object) -> HassioServiceInfo:
    """Return what the Supervisor hands over when the o1 add-on announces its server."""
    return HassioServiceInfo(
        config={"url": url, "token": token, **config}, name="o1", slug="local_o1", uuid="1234"
    )


async def test_hassio_discovery_creates_entry(
    hass: HomeAssistant, setup_ha: None, o1_server: StubO1Server
) -> None:
    """The add-on's announcement is checked, confirmed by the user, and creates the server entry."""
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_HASSIO}, data=_discovery(o1_server.url + "/")
    )
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "hassio_confirm"
    assert result["description_placeholders"] == {"addon": "o1"}
    assert o1_server.requests_to("GET", "/api/info")  # checked before asking
    # A confirmation only (the frontend shows no form fields; a discovery card confirms in one click).
    assert hass.config_entries.flow.async_get(result["flow_id"])["context"]["confirm_only"] is True

    result = await hass.config_entries.flow.async_configure(result["flow_id"], {})
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    entry = result["result"]
    assert entry.unique_id == o1_server.server_id
    assert entry.data == {CONF_URL: o1_server.url, CONF_TOKEN: TOKEN, CONF_ADDON: "local_o1"}
    assert [s.data for s in entry.subentries.values()] == [{"profile": "default"}]
    # The agent's device links to the add-on's page (which a user can open), not to the token-protected API.
    (device,) = dr.async_entries_for_config_entry(dr.async_get(hass), entry.entry_id)
    assert device.configuration_url == "homeassistant://hassio/addon/local_o1/info"


async def test_hassio_discovery_updates_known_server(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """A server already configured takes the token the add-on announces (and reloads)."""
    o1_server.token = "new-token"
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_HASSIO}, data=_discovery(o1_server.url, "new-token")
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "already_configured"
    assert init_integration.data[CONF_TOKEN] == "new-token"
    assert init_integration.state is ConfigEntryState.LOADED


@pytest.mark.parametrize("announce_id", [True, False])
async def test_hassio_discovery_of_a_moved_server_updates_its_url(
    hass: HomeAssistant, setup_ha: None, o1_server: StubO1Server, announce_id: bool
) -> None:
    """A configured server announced at a new address (same server id) moves its entry there.

    Announced without its id (an older add-on), the server's own /api/info gives it.
    """
    old_url = "http://127.0.0.1:9"
    entry = MockConfigEntry(
        domain=DOMAIN,
        unique_id=o1_server.server_id,
        data={CONF_URL: old_url, CONF_TOKEN: "old-token"},
    )
    entry.add_to_hass(hass)
    await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert entry.state is ConfigEntryState.SETUP_RETRY

    extra = {"server_id": o1_server.server_id} if announce_id else {}
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_HASSIO}, data=_discovery(o1_server.url, TOKEN, **extra)
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "already_configured"
    assert entry.data == {CONF_URL: o1_server.url, CONF_TOKEN: TOKEN, CONF_ADDON: "local_o1"}
    assert entry.state is ConfigEntryState.LOADED
    assert len(hass.config_entries.async_entries(DOMAIN)) == 1


@pytest.mark.parametrize(
    ("token", "info", "reason"),
    [
        ("wrong", None, "invalid_auth"),
        (TOKEN, {"version": "0.1.0", "api_version": 9, "profiles": []}, "incompatible_server"),
        (TOKEN, {"not": "info"}, "cannot_connect"),
    ],
)
async def test_hassio_discovery_of_a_server_that_fails_its_check(
    hass: HomeAssistant,
    setup_ha: None,
    o1_server: StubO1Server,
    token: str,
    info: dict | None,
    reason: str,
) -> None:
    """An announced server that cannot be used is not offered."""
    if info is not None:
        o1_server.info = info
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_HASSIO}, data=_discovery(o1_server.url, token)
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == reason


@pytest.mark.parametrize("config", [{"url": "not a url", "token": "t"}, {"url": "http://o1:10800"}])
async def test_hassio_discovery_with_bad_info(
    hass: HomeAssistant, setup_ha: None, config: dict
) -> None:
    """An announcement without a usable URL or token is refused."""
    result = await hass.config_entries.flow.async_init(
        DOMAIN,
        context={"source": SOURCE_HASSIO},
        data=HassioServiceInfo(config=config, name="o1", slug="local_o1", uuid="1234"),
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "invalid_discovery_info"


async def test_user_flow_while_the_discovery_card_is_pending(
    hass: HomeAssistant, setup_ha: None, o1_server: StubO1Server
) -> None:
    """Adding the add-on's server by hand while its discovery card waits aborts, in the user's words."""
    discovered = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_HASSIO}, data=_discovery(o1_server.url)
    )
    assert discovered["step_id"] == "hassio_confirm"
    flow_id = await _start_user_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        flow_id, {CONF_URL: o1_server.url, CONF_TOKEN: TOKEN}
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "already_in_progress"
    # What the frontend shows for the abort: HA's own translation lookup, in English and in German.
    for language, words in (("en", "already being set up"), ("de", "bereits eingerichtet")):
        shown = await translation.async_get_translations(hass, language, "config", {DOMAIN})
        assert words in shown[f"component.{DOMAIN}.config.abort.already_in_progress"], language
    # The discovery card is still there and still works.
    result = await hass.config_entries.flow.async_configure(discovered["flow_id"], {})
    assert result["type"] is FlowResultType.CREATE_ENTRY


async def test_subentry_with_every_api_unticked_has_no_api(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """A new agent starts with Assist ticked; unticking it gives the agent no HA LLM API at all."""
    result = await hass.config_entries.subentries.async_init(
        (init_integration.entry_id, SUBENTRY_CONVERSATION), context={"source": SOURCE_USER}
    )
    assert _suggested_apis(result) == ["assist"]
    # The frontend leaves an emptied multi-select out of the submitted data.
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_PROFILE: "coder"}
    )
    await hass.async_block_till_done()
    assert result["data"] == {CONF_PROFILE: "coder", CONF_LLM_HASS_API: []}
    # The coder profile asks for Assist, but the agent's own choice wins: its turns carry no home context.
    await conversation.async_converse(
        hass, "turn on the light", None, Context(), language="en", agent_id="conversation.o1_coder"
    )
    (request,) = o1_server.requests_to("POST", "/api/conversation/stream")
    assert request.json["profile"] == "coder" and "home" not in request.json

    # Reconfigured, the form shows the saved choice (none), not the profile's.
    subentry = next(s for s in init_integration.subentries.values() if s.unique_id == "coder")
    result = await init_integration.start_subentry_reconfigure_flow(hass, subentry.subentry_id)
    assert _suggested_apis(result) == []
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_PROFILE: "coder", CONF_LLM_HASS_API: ["assist"]}
    )
    assert init_integration.subentries[subentry.subentry_id].data[CONF_LLM_HASS_API] == ["assist"]
