"""A scripted OpenAI-compatible chat-completions server for deterministic tests.

Each request to ``POST /v1/chat/completions`` pops the next reply from a queue and streams it back as
Server-Sent Events token by token (words, punctuation runs, whitespace), the way real servers do; with an empty queue it answers
``"I have nothing more to say."``. ``requests`` keeps every request body so tests can check what the agent
sent. A reply given as a list of strings is streamed as exactly those pieces. Replies can also be
``ScriptedLLM.HANG`` (accept the request, never answer) or an int HTTP status
(answer with that error), or an OpenAI tool call: ``ScriptedLLM.tool_call("name", {"arg": 1})`` (a dict
``{"content": str | None, "tool_calls": [{"name", "arguments"}]}``), answered as a ``tool_calls`` message
(streamed as tool-call deltas). A request whose last message is the assistant's text is a prefill, continued
the way o1's embedded model server continues one: a reply that starts with that text is sent without it, and
a text reply ends before the first of the request's ``stop`` strings. Runs in its own thread and event loop, so sync and async tests can use it.
A streamed request with ``stream_options: {"include_usage": true}`` ends, as OpenAI's do, with a chunk without
choices holding ``usage``: ``prompt_tokens`` are the tokens (as streamed) of the request's message texts,
``completion_tokens`` the pieces streamed (see ``usage_of``); ``send_usage = False`` makes it a server that
ignores the option.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections import deque
from typing import Any

from aiohttp import web

# Stream roughly the way a tokenizer splits text: words, runs of punctuation, whitespace.
_TOKENS = re.compile(r"\s+|\w+|[^\w\s]+")


class ScriptedLLM:
    """Start with ``start()``; ``api_base`` is ``http://127.0.0.1:<port>/v1``; stop with ``stop()``."""

    HANG = object()

    def __init__(self) -> None:
        self.replies: deque[Any] = deque()
        self.requests: list[dict[str, Any]] = []
        self.send_usage = True
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._runner: web.AppRunner | None = None

    @property
    def api_base(self) -> str:
        """OpenAI-compatible base URL."""
        return f"http://127.0.0.1:{self.port}/v1"

    @staticmethod
    def tool_call(name: str, arguments: dict[str, Any], content: str | None = None) -> dict[str, Any]:
        """A reply that calls one tool (``arguments`` is sent JSON-encoded, as OpenAI does)."""
        return {"content": content, "tool_calls": [{"name": name, "arguments": arguments}]}

    @staticmethod
    def handed(body: dict[str, Any]) -> str:
        """A reply (for :meth:`script`) that writes the last ```python block of the request's last message as
        it is: a model handed a corrected block runs it."""
        blocks = re.findall(r"```python\n.*?\n```", str(body["messages"][-1]["content"]), re.DOTALL)
        assert blocks, "the request hands over no block"
        return blocks[-1]

    def script(self, *replies: Any) -> None:
        """Replace the queue with ``replies`` (strings, HANG, HTTP status ints, or a function of the request's
        body that returns one: :meth:`handed`); usage is sent again."""
        self.replies.clear()
        self.replies.extend(replies)
        self.requests.clear()
        self.send_usage = True

    @staticmethod
    def usage_of(body: dict[str, Any], pieces: int) -> dict[str, int]:
        """The usage this server reports for a request ``body`` whose reply streamed ``pieces`` pieces."""
        texts = [m["content"] for m in body.get("messages", []) if isinstance(m.get("content"), str)]
        prompt = sum(len(_TOKENS.findall(text)) for text in texts)
        return {"prompt_tokens": prompt, "completion_tokens": pieces, "total_tokens": prompt + pieces}

    def start(self) -> "ScriptedLLM":
        """Start serving on 127.0.0.1 (a free port)."""
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(10)
        return self

    def stop(self) -> None:
        """Stop serving and end the thread."""
        if self._runner is not None:
            self._loop.call_soon_threadsafe(self._stopping.set)
            asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    async def _start(self) -> None:
        self._stopping = asyncio.Event()
        app = web.Application()
        app.router.add_get("/v1/models", self._models)
        app.router.add_post("/v1/chat/completions", self._chat)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def _models(self, request: web.Request) -> web.Response:
        return web.json_response({"object": "list", "data": [{"id": "scripted", "object": "model"}]})

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append(body)
        reply = self.replies.popleft() if self.replies else "I have nothing more to say."
        if callable(reply):  # written from the request, e.g. :meth:`handed`
            reply = reply(body)
        if reply is self.HANG:
            await self._stopping.wait()  # until stop(): never answers
        if isinstance(reply, int):
            return web.json_response({"error": {"message": "scripted failure", "type": "server_error"}}, status=reply)
        model = body.get("model", "scripted")
        if isinstance(reply, dict):
            return await self._tool_reply(request, body, model, reply)
        if isinstance(reply, str):
            reply = self._continued(body, reply)
        if not body.get("stream"):
            return web.json_response({
                "id": "scripted", "object": "chat.completion", "model": model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": reply}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            })
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        # A list is streamed as exactly those pieces (a tokenizer's own splits, e.g. " `" as one token).
        pieces = list(reply) if isinstance(reply, list) else (_TOKENS.findall(reply) or [""])
        for n, piece in enumerate(pieces):
            delta = {"role": "assistant", "content": piece} if n == 0 else {"content": piece}
            await self._send(response, model, delta, None)
        await self._send(response, model, {}, "stop")
        await self._send_usage(response, body, model, len(pieces))
        await response.write(b"data: [DONE]\n\n")
        await response.write_eof()
        return response

    @staticmethod
    def _continued(body: dict[str, Any], reply: str) -> str:
        """``reply`` as a server continuing ``body``'s prefilled assistant text sends it, cut at its stops."""
        last = (body.get("messages") or [{}])[-1]
        prefill = last.get("content") if last.get("role") == "assistant" and not last.get("tool_calls") else None
        if isinstance(prefill, str) and prefill and reply.startswith(prefill):
            reply = reply[len(prefill) :]
        stops = body.get("stop") or []
        for stop in [stops] if isinstance(stops, str) else stops:
            reply = reply.split(stop, 1)[0] if stop else reply
        return reply

    async def _tool_reply(self, request: web.Request, body: dict, model: str, reply: dict) -> web.StreamResponse:
        """Answer with the tool calls of a dict reply, whole or streamed."""
        calls = [
            {"id": f"call_{len(self.requests)}_{n}", "type": "function",
             "function": {"name": call["name"], "arguments": json.dumps(call["arguments"])}}
            for n, call in enumerate(reply["tool_calls"])
        ]
        message = {"role": "assistant", "content": reply.get("content"), "tool_calls": calls}
        if not body.get("stream"):
            return web.json_response({
                "id": "scripted", "object": "chat.completion", "model": model,
                "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            })
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        await self._send(response, model, {"role": "assistant", "content": reply.get("content")}, None)
        for n, call in enumerate(calls):
            await self._send(response, model, {"tool_calls": [{"index": n, **call}]}, None)
        await self._send(response, model, {}, "tool_calls")
        await self._send_usage(response, body, model, 1 + len(calls))
        await response.write(b"data: [DONE]\n\n")
        await response.write_eof()
        return response

    async def _send_usage(self, response: web.StreamResponse, body: dict, model: str, pieces: int) -> None:
        if self.send_usage and (body.get("stream_options") or {}).get("include_usage") is True:
            chunk = {"id": "scripted", "object": "chat.completion.chunk", "created": 0, "model": model,
                     "choices": [], "usage": self.usage_of(body, pieces)}
            await response.write(f"data: {json.dumps(chunk)}\n\n".encode())

    @staticmethod
    async def _send(response: web.StreamResponse, model: str, delta: dict, finish: str | None) -> None:
        chunk = {"id": "scripted", "object": "chat.completion.chunk", "created": 0, "model": model,
                 "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
        await response.write(f"data: {json.dumps(chunk)}\n\n".encode())
