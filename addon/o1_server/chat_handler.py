"""OpenAI tool calls and prefills for the embedded Qwen2.5 models: a llama_cpp chat handler, ``o1-qwen-tools``.

llama_cpp.server renders Qwen's prompt with the GGUF's own template but returns ``<tool_call>`` replies as
``content``, refuses an assistant message whose ``content`` is null (sent beside ``tool_calls``) and has no
prefill. The handler wraps the GGUF template's handler: with ``tools`` (unless ``tool_choice`` is "none" or names
a function), the reply's ``<tool_call>`` blocks become ``tool_calls``; a last message that is the assistant's own
text is continued (only the continuation is returned); other requests go to the GGUF template unchanged.
``python -m o1_server.chat_handler ARGS`` runs llama_cpp.server with the handler registered (select it with
``--chat_format o1-qwen-tools``) behind `NullContentMiddleware`. Details: docs/server.md.
"""

from __future__ import annotations

import importlib
import json
import re
import time
import uuid
from collections.abc import Iterator
from typing import Any, cast

CHAT_FORMAT = "o1-qwen-tools"
# The key under which llama_cpp.Llama keeps the handler of the GGUF's own chat template.
GGUF_TEMPLATE = "chat_template.default"
# The key under which the handler that continues a prefilled assistant message is kept beside it.
CONTINUE_TEMPLATE = "o1.continue"
_TOOL_CALL = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.DOTALL)
_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)


def normalize_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return OpenAI chat messages as Qwen's template reads them: a null ``content`` is "", and an assistant
    message's ``tool_calls[].function.arguments`` JSON string is its object (the template JSON-encodes it)."""
    out: list[dict[str, Any]] = []
    for message in messages:
        message = dict(message)
        if message.get("content") is None:
            message["content"] = ""
        calls = []
        for call in message.get("tool_calls") or []:
            function = dict(call.get("function") or {})
            if isinstance(function.get("arguments"), str):
                try:
                    function["arguments"] = json.loads(function["arguments"])
                except ValueError:
                    pass  # the template shows it as the string it is
            calls.append({**call, "function": function})
        if calls:
            message["tool_calls"] = calls
        out.append(message)
    return out


def parse_tool_calls(text: str, names: set[str]) -> tuple[str | None, list[dict[str, Any]]]:
    """Split a Qwen reply into its text and its OpenAI ``tool_calls`` (``id``, ``type``, ``function``: ``name``,
    ``arguments`` as a JSON string). Calls are ``<tool_call>{json}</tool_call>`` blocks (the last may be left
    open by the stop token) or, as small models also answer, a reply that is only such a JSON object (perhaps in
    a code fence). Only calls of a tool in ``names`` with object arguments count; the rest stays text."""
    calls: list[dict[str, Any]] = []
    kept = text
    blocks = list(_TOOL_CALL.finditer(text))
    if blocks:
        for match in blocks:
            if (call := _call(match.group(1), names)) is not None:
                calls.append(call)
                kept = kept.replace(match.group(0), "", 1)
    elif (call := _call(_unfence(text.strip()), names)) is not None:
        calls.append(call)
        kept = ""
    content = kept.strip() or None
    return (content if calls else text), calls


def _unfence(text: str) -> str:
    match = _FENCE.match(text)
    return match.group(1) if match else text


def _call(raw: str, names: set[str]) -> dict[str, Any] | None:
    """The OpenAI tool call of one ``{"name", "arguments"}`` JSON object, or None when it is not one."""
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("name") not in names:
        return None
    arguments = data.get("arguments", data.get("parameters", {}))
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return None
    if not isinstance(arguments, dict):
        return None
    return {
        "id": f"call_{uuid.uuid4().hex[:24]}",
        "type": "function",
        "function": {"name": data["name"], "arguments": json.dumps(arguments, ensure_ascii=False)},
    }


def prefill_of(messages: list[dict[str, Any]]) -> str | None:
    """The text a request asks the reply to continue: the content of a last message, after at least one other,
    that is the assistant's text (not empty, no tool calls), else None."""
    last = messages[-1] if len(messages) > 1 else {}
    content = last.get("content")
    if last.get("role") == "assistant" and isinstance(content, str) and content and not last.get("tool_calls"):
        return content
    return None


def _continuing_handler(llama: Any) -> Any:
    """The chat handler that renders every message but the last with the GGUF's chat template (with its
    generation prompt) and appends the last one's text, so the model goes on from it; made once per model."""
    handler = llama._chat_handlers.get(CONTINUE_TEMPLATE)
    if handler is not None:
        return handler
    formats: Any = importlib.import_module("llama_cpp.llama_chat_format")

    def text(token: int) -> str:
        return "" if token < 0 else llama.detokenize([token], special=True).decode("utf-8", "replace")

    eos = llama.token_eos()
    formatter = formats.Jinja2ChatFormatter(
        template=llama.metadata["tokenizer.chat_template"],
        eos_token=text(eos),
        bos_token=text(llama.token_bos()),
        stop_token_ids=[eos],
    )

    def continued(*, messages: list[dict[str, Any]], **kwargs: Any) -> Any:
        response = formatter(messages=messages[:-1], **kwargs)
        response.prompt += messages[-1]["content"]
        return response

    handler = formats.chat_formatter_to_chat_completion_handler(continued)
    llama._chat_handlers[CONTINUE_TEMPLATE] = handler
    return handler


def _chunks(response: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """A whole chat completion as stream chunks: the text, each tool call, then the finish reason."""
    choice = response["choices"][0]
    message = choice["message"]

    def chunk(delta: dict[str, Any], finish: str | None) -> dict[str, Any]:
        return {
            "id": response["id"],
            "object": "chat.completion.chunk",
            "created": response["created"],
            "model": response["model"],
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}],
        }

    yield chunk({"role": "assistant", "content": message.get("content")}, None)
    for n, call in enumerate(message.get("tool_calls") or []):
        yield chunk({"tool_calls": [{"index": n, **call}]}, None)
    yield chunk({}, choice["finish_reason"])


def qwen_tools_handler(*, llama: Any, messages: list[dict[str, Any]], **kwargs: Any) -> Any:
    """The ``o1-qwen-tools`` chat completion handler (llama_cpp's ``LlamaChatCompletionHandler`` protocol:
    keyword arguments as ``Llama.create_chat_completion`` passes them; returns a chat completion dict, or an
    iterator of chunk dicts when ``stream``). Raises KeyError when the model has no chat template of its own."""
    base = llama._chat_handlers[GGUF_TEMPLATE]
    messages = normalize_messages(messages)
    tools = kwargs.get("tools") or []
    tool_choice = kwargs.get("tool_choice")
    if not tools and prefill_of(messages) is not None:
        return _continuing_handler(llama)(llama=llama, messages=messages, **kwargs)
    if tool_choice == "none":
        kwargs["tools"] = None
    if not tools or tool_choice == "none" or isinstance(tool_choice, dict):
        return base(llama=llama, messages=messages, **kwargs)
    stream = bool(kwargs.pop("stream", False))
    response: dict[str, Any] = base(llama=llama, messages=messages, stream=False, **kwargs)
    choice = response["choices"][0]
    names = {tool["function"]["name"] for tool in tools if tool.get("type") == "function"}
    content, calls = parse_tool_calls(choice["message"].get("content") or "", names)
    if calls:
        choice["message"] = {"role": "assistant", "content": content, "tool_calls": calls}
        choice["finish_reason"] = "tool_calls"
    response.setdefault("created", int(time.time()))
    return _chunks(response) if stream else response


def register() -> None:
    """Register the handler under ``CHAT_FORMAT`` with llama_cpp (again is fine)."""
    formats: Any = importlib.import_module("llama_cpp.llama_chat_format")
    formats.LlamaChatCompletionHandlerRegistry().register_chat_completion_handler(
        CHAT_FORMAT, cast(Any, qwen_tools_handler), overwrite=True
    )


def drop_null_contents(body: bytes) -> bytes:
    """Return a chat request body without the ``"content": null`` of its assistant messages (llama_cpp.server's
    request schema takes an assistant message without content, not one whose content is null); any other
    body (not JSON, no messages) unchanged."""
    try:
        data = json.loads(body)
    except ValueError:
        return body
    messages = data.get("messages") if isinstance(data, dict) else None
    if not isinstance(messages, list):
        return body
    changed = False
    for message in messages:
        if isinstance(message, dict) and message.get("role") == "assistant" and message.get("content", "") is None:
            del message["content"]
            changed = True
    return json.dumps(data).encode() if changed else body


class NullContentMiddleware:
    """ASGI middleware: chat completion requests go through `drop_null_contents` before the server reads them."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if (
            scope.get("type") != "http"
            or scope.get("method") != "POST"
            or not scope["path"].endswith("/chat/completions")
        ):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client left: pass that on
                await self.app(scope, _replay([message]), send)
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        body = drop_null_contents(b"".join(chunks))
        headers = [(k, v) for k, v in scope.get("headers", []) if k.lower() != b"content-length"]
        headers.append((b"content-length", str(len(body)).encode()))
        replay = _replay([{"type": "http.request", "body": body, "more_body": False}], receive)
        await self.app({**scope, "headers": headers}, replay, send)


def _replay(messages: list[dict[str, Any]], then: Any = None) -> Any:
    """An ASGI ``receive`` that gives ``messages`` first, then waits on ``then`` (the client's disconnect)."""
    queue = list(messages)

    async def receive() -> dict[str, Any]:
        if queue:
            return queue.pop(0)
        if then is None:
            return {"type": "http.disconnect"}
        message: dict[str, Any] = await then()
        return message

    return receive


def main() -> None:
    """Run ``llama_cpp.server`` (its command line, from sys.argv) with the handler registered and its app
    behind `NullContentMiddleware`."""
    register()
    server: Any = importlib.import_module("llama_cpp.server.__main__")
    create_app = server.create_app
    server.create_app = lambda **settings: NullContentMiddleware(create_app(**settings))
    server.main()


if __name__ == "__main__":
    main()
