"""Tests of the o1 HTTP client (the only module that knows the wire format)."""

from __future__ import annotations

from collections.abc import AsyncGenerator

import aiohttp
import pytest

from custom_components.o1.client import (
    O1AuthError,
    O1Client,
    O1ConnectionError,
    O1ResponseError,
    O1TimeoutError,
    O1ToolCallEvent,
    normalize_url,
)
from homeassistant.core import HomeAssistant

from .stub_server import TOKEN, Failure, StubO1Server


@pytest.fixture
async def session(hass: HomeAssistant) -> AsyncGenerator[aiohttp.ClientSession]:
    """Return a plain aiohttp session, closed after the test."""
    async with aiohttp.ClientSession() as client_session:
        yield client_session


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("http://127.0.0.1:10800", "http://127.0.0.1:10800"),
        (" http://Host.Example:10800/ ", "http://host.example:10800"),
        ("https://o1.example/base/", "https://o1.example/base"),
        ("http://o1.example:80", "http://o1.example"),
        ("https://o1.example:8443", "https://o1.example:8443"),
    ],
)
def test_normalize_url(url: str, expected: str) -> None:
    """URLs are reduced to one canonical form."""
    assert normalize_url(url) == expected


@pytest.mark.parametrize("url", ["", "o1.example", "ftp://o1.example", "http://"])
def test_normalize_url_rejects(url: str) -> None:
    """Texts that are not http(s) URLs with a host are refused."""
    with pytest.raises(ValueError):
        normalize_url(url)


async def test_health_needs_no_token(
    session: aiohttp.ClientSession, o1_server: StubO1Server
) -> None:
    """GET /api/health is sent without the token."""
    client = O1Client(session, o1_server.url, "wrong")
    assert await client.async_get_health() == {
        "status": "ok", "version": "0.1.0", "server_id": o1_server.server_id
    }
    assert "Authorization" not in o1_server.requests[-1].headers


async def test_info_parses_profiles(
    session: aiohttp.ClientSession, o1_server: StubO1Server
) -> None:
    """GET /api/info is parsed into typed profiles."""
    info = await O1Client(session, o1_server.url, TOKEN).async_get_info()
    assert info.version == "0.1.0"
    assert info.api_version == 1
    assert info.default_profile == "default"
    assert info.profiles[0].ha_access == "read"
    assert info.profiles[0].languages == ["python", "shell"]
    assert info.profile_names() == ["default", "coder"]


async def test_info_without_default_uses_first_profile(
    session: aiohttp.ClientSession, o1_server: StubO1Server
) -> None:
    """A server that names no default profile gets its first one."""
    o1_server.info = {"version": "0.1.0", "profiles": [{"name": "only"}]}
    info = await O1Client(session, o1_server.url, TOKEN).async_get_info()
    assert info.default_profile == "only"
    assert info.api_version == 1
    assert info.profiles[0].ha_access == "none"


@pytest.mark.parametrize("status", [401, 403])
async def test_auth_errors(
    session: aiohttp.ClientSession, o1_server: StubO1Server, status: int
) -> None:
    """401 and 403 are authentication errors."""
    o1_server.failures["info"] = Failure(status=status, body={"error": "invalid_auth", "message": "No."})
    with pytest.raises(O1AuthError, match="No."):
        await O1Client(session, o1_server.url, TOKEN).async_get_info()


async def test_response_error_carries_code(
    session: aiohttp.ClientSession, o1_server: StubO1Server
) -> None:
    """An API error keeps its code, message and status."""
    o1_server.failures["conversation"] = Failure(
        status=404, body={"error": "unknown_profile", "message": "No such profile."}
    )
    with pytest.raises(O1ResponseError) as err:
        await O1Client(session, o1_server.url, TOKEN).async_converse("hi", profile="x")
    assert (err.value.code, err.value.message, err.value.status) == (
        "unknown_profile",
        "No such profile.",
        404,
    )


async def test_non_json_success_is_a_connection_error(
    session: aiohttp.ClientSession, o1_server: StubO1Server
) -> None:
    """A 200 that is not JSON means it is not an o1 server."""
    o1_server.failures["conversation"] = Failure(status=200, raw=b"\xff not json")
    with pytest.raises(O1ConnectionError):
        await O1Client(session, o1_server.url, TOKEN).async_converse("hi")


async def test_timeout(session: aiohttp.ClientSession, o1_server: StubO1Server) -> None:
    """A slow server raises a timeout error instead of hanging."""
    o1_server.failures["conversation"] = Failure(status=200, body={}, delay=10)
    client = O1Client(session, o1_server.url, TOKEN, conversation_timeout=0.2)
    assert client.conversation_timeout == 0.2
    with pytest.raises(O1TimeoutError):
        await client.async_converse("hi")


def test_default_timeouts_are_generous_but_bounded() -> None:
    """Without arguments the client uses the module's bounded timeouts."""
    client = O1Client(None, "http://127.0.0.1:1", TOKEN)  # type: ignore[arg-type]
    assert 60 <= client.conversation_timeout <= 600
    assert 0 < client.request_timeout <= 60
    client = O1Client(None, "http://127.0.0.1:1", TOKEN, request_timeout=3)  # type: ignore[arg-type]
    assert client.request_timeout == 3


async def test_get_and_reset_conversation(
    session: aiohttp.ClientSession, o1_server: StubO1Server
) -> None:
    """A conversation can be read back and forgotten."""
    client = O1Client(session, o1_server.url + "/", TOKEN)
    reply = await client.async_converse("hello", conversation_id="abc")
    assert reply.conversation_id == "abc"
    history = await client.async_get_conversation("abc")
    assert history["turns"][0]["answer"] == "You said: hello"
    await client.async_reset("abc")
    with pytest.raises(O1ResponseError) as err:
        await client.async_get_conversation("abc")
    assert err.value.status == 404


async def test_unexpected_shapes(
    session: aiohttp.ClientSession, o1_server: StubO1Server
) -> None:
    """Replies of the wrong shape are connection errors, never crashes."""
    client = O1Client(session, o1_server.url, TOKEN)
    o1_server.failures["get"] = Failure(status=200, body=["a", "list"])
    with pytest.raises(O1ConnectionError):
        await client.async_get_conversation("abc")
    o1_server.failures["info"] = Failure(status=200, body={"version": "1", "profiles": [{}]})
    with pytest.raises(O1ConnectionError):
        await client.async_get_info()


async def test_health_of_something_else(
    session: aiohttp.ClientSession, o1_server: StubO1Server
) -> None:
    """A health reply that is not an object is a connection error."""
    o1_server.failures["health"] = Failure(status=200, body=["ok"])
    with pytest.raises(O1ConnectionError):
        await O1Client(session, o1_server.url, TOKEN).async_get_health()


async def test_tool_result_posted_gone_and_failed(
    session: aiohttp.ClientSession, o1_server: StubO1Server
) -> None:
    """A tool call's result is posted to its turn; 404 is "no longer waited for"; other errors raise."""
    client = O1Client(session, o1_server.url, TOKEN)
    call = O1ToolCallEvent("turn-1", "call-1", "o1.get_states", {})
    assert await client.async_send_tool_result(call, {"result": [1]}) is True
    assert o1_server.tool_results == {("turn-1", "call-1"): {"result": [1]}}

    o1_server.gone_calls.add("call-2")
    gone = O1ToolCallEvent("turn-1", "call-2", "o1.get_states", {})
    assert await client.async_send_tool_result(gone, {"result": []}) is False

    o1_server.failures["tool_result"] = Failure(status=500, body={"error": "boom", "message": "Boom."})
    with pytest.raises(O1ResponseError) as err:
        await client.async_send_tool_result(call, {"result": []})
    assert (err.value.code, err.value.status) == ("boom", 500)
