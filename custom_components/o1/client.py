"""HTTP client of the o1 server API (v1).

This is the only module that knows the wire format. Everything else in the
integration works with the typed results and errors defined here.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Awaitable
from dataclasses import asdict, dataclass, field
from http import HTTPStatus
import json
from typing import Any

import aiohttp
from yarl import URL

from .const import CONVERSATION_TIMEOUT, MAX_STREAM_LINE, REQUEST_TIMEOUT

NDJSON = "application/x-ndjson"


class O1Error(Exception):
    """Base class of every error raised by the o1 client."""


class O1ConnectionError(O1Error):
    """The server could not be reached or did not answer in HTTP/JSON."""


class O1TimeoutError(O1ConnectionError):
    """The server did not answer in time."""


class O1StreamError(O1ConnectionError):
    """The server's streamed answer broke off before its end (no ``done`` event)."""


class O1AuthError(O1Error):
    """The server rejected the access token (HTTP 401/403)."""


class O1ResponseError(O1Error):
    """The server answered with an error of its API.

    `code` is the machine-readable reason (for example ``unknown_profile``),
    `message` one short sentence that can be spoken to the user.
    """

    def __init__(self, code: str, message: str, status: int | None = None) -> None:
        """Keep the error's code, message and HTTP status."""
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


@dataclass(frozen=True, slots=True)
class O1Profile:
    """A profile offered by the server (an agent configuration)."""

    name: str
    description: str = ""
    ha_access: str = "none"
    languages: list[str] = field(default_factory=list)
    llm_hass_api: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class O1ServerInfo:
    """What `GET /api/info` tells about the server."""

    version: str
    api_version: int
    default_profile: str
    profiles: list[O1Profile]
    # The server's stable identity (32 hex digits from its data directory): the config entry's unique id.
    # Empty from a server older than 0.1.0's server id, which is then known by its URL.
    server_id: str = ""

    def profile_names(self) -> list[str]:
        """Return the names of the profiles, in the server's order."""
        return [profile.name for profile in self.profiles]

    def profile(self, name: str) -> O1Profile | None:
        """Return the profile called `name`, if the server offers it."""
        return next((profile for profile in self.profiles if profile.name == name), None)


@dataclass(frozen=True, slots=True)
class O1CodeBlock:
    """One code block the agent wrote during a turn, and what became of it."""

    language: str
    code: str
    decision: str = ""
    category: list[str] = field(default_factory=list)
    reason: str = ""
    exit_status: int | None = None
    output: str = ""
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """Return the code block as a JSON-serialisable dict."""
        return asdict(self)


@dataclass(frozen=True, slots=True)
class O1Model:
    """A model the server offers for a turn (``GET /api/models``).

    ``default`` marks the server's own LLM; ``embedded`` models run on the server
    (``memory_mb``: its resident memory, ``context``: tokens).
    """

    name: str
    default: bool = False
    embedded: bool = False
    memory_mb: int | None = None
    context: int | None = None


@dataclass(frozen=True, slots=True)
class O1Usage:
    """The tokens of one turn's LLM requests, summed by the server.

    ``requests`` is how many LLM requests were counted.
    """

    prompt_tokens: int
    completion_tokens: int
    requests: int = 1

    @property
    def total_tokens(self) -> int:
        """Return prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens

    def as_dict(self) -> dict[str, int]:
        """Return the usage in the server's JSON shape."""
        return {
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "total_tokens": self.total_tokens,
            "requests": self.requests,
        }


@dataclass(frozen=True, slots=True)
class O1Reply:
    """The server's answer to one conversation turn (``usage``: None when the server counted none)."""

    conversation_id: str
    profile: str
    answer: str
    continue_conversation: bool = False
    code_blocks: list[O1CodeBlock] = field(default_factory=list)
    usage: O1Usage | None = None

    def as_dict(self) -> dict[str, Any]:
        """Return the reply as a JSON-serialisable dict."""
        return {
            "conversation_id": self.conversation_id,
            "profile": self.profile,
            "answer": self.answer,
            "continue_conversation": self.continue_conversation,
            "code_blocks": [block.as_dict() for block in self.code_blocks],
            "usage": None if self.usage is None else self.usage.as_dict(),
        }


@dataclass(frozen=True, slots=True)
class O1DeltaEvent:
    """Streamed: the next piece of the spoken answer (the pieces, joined, are the answer)."""

    text: str


@dataclass(frozen=True, slots=True)
class O1CodeEvent:
    """Streamed: a code block whose fate is known (ran, refused, held for confirmation...)."""

    block: O1CodeBlock


@dataclass(frozen=True, slots=True)
class O1DoneEvent:
    """Streamed last: the whole reply of the turn."""

    reply: O1Reply


@dataclass(frozen=True, slots=True)
class O1ToolCallEvent:
    """Streamed: the agent's code asks Home Assistant for something; run it, then `async_send_tool_result`."""

    turn_id: str
    call_id: str
    name: str
    args: dict[str, Any]


@dataclass(frozen=True, slots=True)
class O1HomeCallEvent:
    """Streamed: a Home Assistant call of the agent's code and what the server's broker made of it.

    ``call`` holds ``op``, ``args``, ``access``, ``outcome`` (ok / denied / error) and ``result`` or
    ``error`` + ``message``.
    """

    call: dict[str, Any]


type O1StreamEvent = O1DeltaEvent | O1CodeEvent | O1ToolCallEvent | O1HomeCallEvent | O1DoneEvent


def normalize_url(url: str) -> str:
    """Return the canonical form of a server URL (scheme, host, port, path).

    Raises ValueError when the text is not an http(s) URL with a host.
    """
    parsed = URL(url.strip())
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise ValueError(f"Not an http(s) URL: {url!r}")
    path = parsed.path.rstrip("/")
    return str(URL.build(scheme=parsed.scheme, host=parsed.host.lower(), port=parsed.explicit_port, path=path))


def _parse_profile(data: dict[str, Any]) -> O1Profile:
    """Build a profile from its JSON object."""
    return O1Profile(
        name=str(data["name"]),
        description=str(data.get("description") or ""),
        ha_access=str(data.get("ha_access") or "none"),
        languages=[str(lang) for lang in data.get("languages") or []],
        llm_hass_api=[str(api) for api in data.get("llm_hass_api") or []],
    )


def _parse_code_block(data: dict[str, Any]) -> O1CodeBlock:
    """Build a code block from its JSON object."""
    exit_status = data.get("exit_status")
    return O1CodeBlock(
        language=str(data.get("language") or ""),
        code=str(data.get("code") or ""),
        decision=str(data.get("decision") or ""),
        category=[str(item) for item in data.get("category") or []],
        reason=str(data.get("reason") or ""),
        exit_status=None if exit_status is None else int(exit_status),
        output=str(data.get("output") or ""),
        seconds=float(data.get("seconds") or 0.0),
    )


def _count(value: Any) -> int:
    """Return a token count of the server's JSON; ValueError for anything else."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"not a token count: {value!r}")
    return value


def _parse_usage(data: Any) -> O1Usage | None:
    """Build a turn's usage from its JSON object; None when there is none or it is malformed."""
    if not isinstance(data, dict):
        return None
    try:
        return O1Usage(
            prompt_tokens=_count(data.get("prompt_tokens")),
            completion_tokens=_count(data.get("completion_tokens")),
            requests=_count(data.get("requests", 1)),
        )
    except ValueError:
        return None


def _parse_model(data: dict[str, Any]) -> O1Model:
    """Build an offered model from its JSON object."""
    memory, context = data.get("memory_mb"), data.get("context")
    return O1Model(
        name=str(data["name"]),
        default=bool(data.get("default", False)),
        embedded=bool(data.get("embedded", False)),
        memory_mb=None if memory is None else int(memory),
        context=None if context is None else int(context),
    )


def _parse_reply(data: Any, profile: str | None) -> O1Reply:
    """Build a reply from its JSON object; O1ConnectionError when it is not one."""
    try:
        return O1Reply(
            conversation_id=str(data["conversation_id"]),
            profile=str(data.get("profile") or profile or ""),
            answer=str(data.get("answer") or ""),
            continue_conversation=bool(data.get("continue_conversation", False)),
            code_blocks=[_parse_code_block(item) for item in data.get("code_blocks") or []],
            usage=_parse_usage(data.get("usage")),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise O1ConnectionError("Unexpected conversation reply from the o1 server") from err


def _parse_stream_event(line: bytes, profile: str | None) -> O1StreamEvent | None:
    """Turn one NDJSON line into an event (None for blank lines and unknown types).

    An ``error`` event raises O1ResponseError; a line that is not an event raises O1ConnectionError.
    """
    if not line.strip():
        return None
    try:
        data = json.loads(line)
        kind = data["type"]
    except (ValueError, TypeError, KeyError) as err:
        raise O1ConnectionError("The o1 server streamed a line that is not an event") from err
    try:
        if kind == "delta":
            return O1DeltaEvent(str(data.get("text") or ""))
        if kind == "code":
            return O1CodeEvent(_parse_code_block(data["block"]))
        if kind == "tool_call":
            args = data.get("args")
            if not isinstance(args, dict):
                raise TypeError("args")
            return O1ToolCallEvent(str(data["turn_id"]), str(data["id"]), str(data["name"]), args)
        if kind == "home":
            if not isinstance(data["call"], dict):
                raise TypeError("call")
            return O1HomeCallEvent(data["call"])
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise O1ConnectionError(f"The o1 server streamed a malformed {kind} event") from err
    if kind == "done":
        return O1DoneEvent(_parse_reply(data.get("reply"), profile))
    if kind == "error":
        raise O1ResponseError(
            str(data.get("error") or "error"),
            _error_message(data) or "The o1 server could not answer",
        )
    return None  # an event type of a newer server: not for us


def _raise_for_status(status: int, data: Any) -> None:
    """Raise the O1Error of an HTTP error status (401/403 and >= 400); nothing otherwise."""
    if status in (HTTPStatus.UNAUTHORIZED, HTTPStatus.FORBIDDEN):
        raise O1AuthError(_error_message(data) or "The access token was rejected")
    if status >= 400:
        code = "http_error"
        if isinstance(data, dict) and isinstance(data.get("error"), str):
            code = data["error"]
        message = _error_message(data) or f"The o1 server answered HTTP {status}"
        raise O1ResponseError(code, message, status)


def _decode_json(body: bytes) -> Any:
    """Return the decoded JSON of a body; None when it is empty or not JSON."""
    if not body:
        return None
    try:
        return json.loads(body)
    except ValueError:
        return None


class O1Client:
    """Talk to one o1 server over its HTTP API."""

    def __init__(
        self,
        session: aiohttp.ClientSession,
        url: str,
        token: str,
        *,
        conversation_timeout: float | None = None,
        request_timeout: float | None = None,
    ) -> None:
        """Keep the HTTP session, the server's base URL and the access token.

        Timeouts (seconds) default to CONVERSATION_TIMEOUT and REQUEST_TIMEOUT.
        """
        self._session = session
        self._base = URL(normalize_url(url))
        self._token = token
        self._conversation_timeout = conversation_timeout
        self._request_timeout = request_timeout

    @property
    def conversation_timeout(self) -> float:
        """Return the timeout of a conversation turn, in seconds."""
        if self._conversation_timeout is None:
            return CONVERSATION_TIMEOUT
        return self._conversation_timeout

    @property
    def request_timeout(self) -> float:
        """Return the timeout of the quick requests, in seconds."""
        if self._request_timeout is None:
            return REQUEST_TIMEOUT
        return self._request_timeout

    @property
    def url(self) -> str:
        """Return the server's base URL."""
        return str(self._base)

    def _url(self, *parts: str) -> URL:
        """Return the URL of an API path below the base URL."""
        url = self._base
        for part in parts:
            url = url / part
        return url

    async def _request(
        self,
        method: str,
        parts: tuple[str, ...],
        *,
        timeout: float,
        payload: dict[str, Any] | None = None,
        auth: bool = True,
        form: aiohttp.FormData | None = None,
        query: dict[str, str] | None = None,
    ) -> Any:
        """Send one request and return its decoded JSON body (None when empty).

        ``payload`` is sent as JSON, ``form`` as multipart form data; ``query`` is the URL's query.
        Turns every failure into an O1Error subclass.
        """
        headers = {"Accept": "application/json"}
        if auth:
            headers["Authorization"] = f"Bearer {self._token}"
        try:
            async with asyncio.timeout(timeout):
                async with self._session.request(
                    method,
                    self._url(*parts).with_query(query or {}),
                    json=payload,
                    data=form,
                    headers=headers,
                ) as response:
                    body = await response.read()
                    status = response.status
                    content_type = response.content_type
        except TimeoutError as err:
            raise O1TimeoutError(
                f"The o1 server did not answer within {timeout:g} seconds"
            ) from err
        except aiohttp.ClientError as err:
            raise O1ConnectionError(f"Cannot reach the o1 server: {err}") from err

        data = _decode_json(body)
        if data is None and body and status < 400:
            raise O1ConnectionError(
                f"The o1 server sent a reply that is not JSON ({content_type})"
            )
        _raise_for_status(status, data)
        return data

    async def async_get_health(self) -> dict[str, Any]:
        """Return the server's health (no authentication needed)."""
        data = await self._request(
            "GET", ("api", "health"), timeout=self.request_timeout, auth=False
        )
        if not isinstance(data, dict):
            raise O1ConnectionError("Unexpected health reply from the o1 server")
        return data

    async def async_get_info(self) -> O1ServerInfo:
        """Return the server's version and profiles; checks the token too."""
        data = await self._request("GET", ("api", "info"), timeout=self.request_timeout)
        try:
            profiles = [_parse_profile(item) for item in data["profiles"]]
            return O1ServerInfo(
                version=str(data["version"]),
                api_version=int(data.get("api_version", 1)),
                default_profile=str(
                    data.get("default_profile") or (profiles[0].name if profiles else "")
                ),
                profiles=profiles,
                server_id=str(data.get("server_id") or ""),
            )
        except (KeyError, TypeError, ValueError, IndexError) as err:
            raise O1ConnectionError("Unexpected info reply from the o1 server") from err

    async def async_get_models(self) -> list[O1Model]:
        """Return the models the server offers for a turn, its default first.

        A server without ``GET /api/models`` (older than 0.2.0) offers none: its own LLM only.
        """
        try:
            data = await self._request("GET", ("api", "models"), timeout=self.request_timeout)
        except O1ResponseError as err:
            if err.status == HTTPStatus.NOT_FOUND:
                return []
            raise
        try:
            return [_parse_model(item) for item in data["models"]]
        except (KeyError, TypeError, ValueError) as err:
            raise O1ConnectionError("Unexpected models reply from the o1 server") from err

    async def async_converse(
        self,
        text: str,
        *,
        conversation_id: str | None = None,
        profile: str | None = None,
        language: str | None = None,
        instructions: str | None = None,
        model: str | None = None,
    ) -> O1Reply:
        """Send one user turn and return the agent's reply.

        ``instructions`` (the agent's own) join the profile's system message for this turn only.
        ``model`` (one of `async_get_models`; None: the server's default) answers the turn; one the
        server does not offer is an O1ResponseError ``unknown_model``.
        """
        payload: dict[str, Any] = {
            "text": text,
            "conversation_id": conversation_id,
            "profile": profile,
            "language": language,
        }
        if instructions:
            payload["instructions"] = instructions
        if model:
            payload["model"] = model
        data = await self._request(
            "POST",
            ("api", "conversation"),
            timeout=self.conversation_timeout,
            payload=payload,
        )
        return _parse_reply(data, profile)

    async def async_converse_stream(
        self,
        text: str,
        *,
        conversation_id: str | None = None,
        profile: str | None = None,
        language: str | None = None,
        home: dict[str, Any] | None = None,
        instructions: str | None = None,
        model: str | None = None,
    ) -> AsyncGenerator[O1StreamEvent]:
        """Send one user turn and yield the agent's answer as it comes.

        Yields O1DeltaEvent (answer pieces) and O1CodeEvent (code blocks) in the
        server's order, and O1DoneEvent last. The whole turn is bounded by the
        conversation timeout (O1TimeoutError). A stream that ends before ``done``
        raises O1StreamError, a streamed ``error`` O1ResponseError, and an HTTP
        error before the stream the same errors as `async_converse`.

        With ``home`` (the turn's Home Assistant context) the stream may also yield
        O1ToolCallEvent, which the caller must answer with `async_send_tool_result`
        before it reads on, and O1HomeCallEvent. ``instructions`` and ``model`` as in
        `async_converse`.
        """
        payload: dict[str, Any] = {
            "text": text,
            "conversation_id": conversation_id,
            "profile": profile,
            "language": language,
        }
        if home is not None:
            payload["home"] = home
        if instructions:
            payload["instructions"] = instructions
        if model:
            payload["model"] = model
        headers = {"Accept": NDJSON, "Authorization": f"Bearer {self._token}"}
        timeout = self.conversation_timeout
        deadline = asyncio.get_running_loop().time() + timeout
        url = self._url("api", "conversation", "stream")
        try:
            async with asyncio.timeout_at(deadline):
                response = await self._session.post(url, json=payload, headers=headers)
        except TimeoutError as err:
            raise O1TimeoutError(
                f"The o1 server did not answer within {timeout:g} seconds"
            ) from err
        except aiohttp.ClientError as err:
            raise O1ConnectionError(f"Cannot reach the o1 server: {err}") from err

        try:
            if response.status >= 400 or response.content_type != NDJSON:
                body = await self._read_until(deadline, timeout, response.read())
                _raise_for_status(response.status, _decode_json(body))
                raise O1ConnectionError(
                    f"The o1 server did not stream its answer ({response.content_type})"
                )
            buffer = b""
            while True:
                chunk = await self._read_until(deadline, timeout, response.content.readany())
                if not chunk:  # the server closed the stream
                    break
                buffer += chunk
                *lines, buffer = buffer.split(b"\n")
                for line in lines:
                    if (event := _parse_stream_event(line, profile)) is not None:
                        yield event
                        if isinstance(event, O1DoneEvent):
                            return
                if len(buffer) > MAX_STREAM_LINE:
                    raise O1ConnectionError("The o1 server streamed a line that is too long")
            if isinstance(event := _parse_stream_event(buffer, profile), O1DoneEvent):
                yield event  # a last line without its newline
                return
            raise O1StreamError("The o1 server stopped answering before the end of its answer")
        finally:
            response.release()

    @staticmethod
    async def _read_until[T](deadline: float, timeout: float, read: Awaitable[T]) -> T:
        """Await one read of a response before the turn's deadline, as an O1Error on failure."""
        try:
            async with asyncio.timeout_at(deadline):
                return await read
        except TimeoutError as err:
            raise O1TimeoutError(
                f"The o1 server did not finish answering within {timeout:g} seconds"
            ) from err
        except aiohttp.ClientError as err:
            raise O1StreamError(f"The o1 server's answer broke off: {err}") from err

    async def async_send_tool_result(
        self, event: O1ToolCallEvent, answer: dict[str, Any]
    ) -> bool:
        """Post the answer to a tool call (``{"result": ...}`` or ``{"error", "message"}``).

        Returns False when the server no longer waits for it (HTTP 404: the call
        timed out or the turn ended); raises O1Error for other failures.
        """
        try:
            await self._request(
                "POST",
                ("api", "turns", event.turn_id, "tool_results", event.call_id),
                timeout=self.request_timeout,
                payload=answer,
            )
        except O1ResponseError as err:
            if err.status == HTTPStatus.NOT_FOUND:
                return False
            raise
        return True

    async def async_put_files(
        self,
        conversation_id: str,
        files: list[tuple[str, bytes, str]],
        *,
        profile: str | None = None,
    ) -> list[str]:
        """Store files (name, content, MIME type) in a conversation's folder for its code to read.

        Returns the names the server stored them under (made safe, made distinct). Raises O1Error
        (O1ResponseError ``request_too_large`` beyond the server's bounds).
        """
        form = aiohttp.FormData()
        for name, content, mime_type in files:
            form.add_field("file", content, filename=name, content_type=mime_type)
        data = await self._request(
            "POST",
            ("api", "conversation", conversation_id, "files"),
            timeout=self.conversation_timeout,
            form=form,
            query={"profile": profile} if profile else None,
        )
        names = data.get("files") if isinstance(data, dict) else None
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise O1ConnectionError("Unexpected files reply from the o1 server")
        return names

    async def async_get_conversation(self, conversation_id: str) -> dict[str, Any]:
        """Return what the server remembers of a conversation (raises on 404)."""
        data = await self._request(
            "GET",
            ("api", "conversation", conversation_id),
            timeout=self.request_timeout,
        )
        if not isinstance(data, dict):
            raise O1ConnectionError("Unexpected conversation reply from the o1 server")
        return data

    async def async_reset(self, conversation_id: str) -> None:
        """Make the server forget a conversation. An unknown id is not an error."""
        try:
            await self._request(
                "DELETE",
                ("api", "conversation", conversation_id),
                timeout=self.request_timeout,
            )
        except O1ResponseError as err:
            if err.status != HTTPStatus.NOT_FOUND:
                raise


def _error_message(data: Any) -> str | None:
    """Return the server's spoken-friendly message from an error body, if any."""
    message = data.get("message") if isinstance(data, dict) else None
    if isinstance(message, str) and message:
        return message
    return None
