"""The agent backend: one small interface over Open Interpreter 0.4.3.

open-interpreter's Python line is frozen at 0.4.3, so everything else (policy, sandbox, audit, sessions)
talks to ``AgentBackend`` only: send a message, stream text, gate every code block, stop. Code never runs
through Open Interpreter's own Jupyter kernels: the backend registers our sandboxed languages in
``computer.terminal.languages`` (Open Interpreter's documented extension point for custom languages), and
decides at the ``confirmation`` chunk whether the block may run at all (``auto_run=False`` alone does not
stop execution when used as a library; closing the generator at that chunk does).
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import re
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, cast

from .types import TokenUsage

_LOGGER = logging.getLogger(__name__)

# gate(language, code) -> True to run the block now, False to stop the turn before it runs.
Gate = Callable[[str, str], bool]
# execute(language, code) -> the output text the LLM will see.
Execute = Callable[[str, str], str]
# stop_after_code: True (or a callable asked once each block's output is in, returning True) ends the turn's
# request there, before the LLM is asked again.
StopAfterCode = bool | Callable[[], bool]

# The opening fence of a Python block, in the two pieces Open Interpreter reads it in (see _completions).
CODE_PREFIX = ("```", "python\n")
LANGUAGE_ALIASES = {"python": ("py", "python3"), "shell": ("bash", "sh", "zsh")}


class BackendError(Exception):
    """The LLM could not be reached or failed; the message is fit to log, not to speak."""


@dataclass(frozen=True)
class LLMConfig:
    """How to reach the LLM: a LiteLLM model name, optional api_base/api_key, sampling and size limits.

    timeout is seconds per LLM request (connect and between streamed chunks). tokenize_url, when set, is the
    model server's own token counter (llama_cpp.server's ``/extras/tokenize/count``); without it tokens are
    counted with LiteLLM's tokenizer for the model (tiktoken for unknown models). prefill says the model server
    continues a request's last message when it is the assistant's text (o1's embedded model servers do, see
    :mod:`o1_server.chat_handler`; OpenAI-compatible servers in general do not).
    """

    model: str
    api_base: str | None = None
    api_key: str | None = None
    temperature: float = 0.01
    context_window: int = 8192
    max_tokens: int = 256
    timeout: float = 120.0
    tokenize_url: str | None = None
    prefill: bool = False


class TokenCounter:
    """Counts tokens of texts with the model's own tokenizer, remembering recent answers.

    ``count(text)`` returns an int. With a ``tokenize_url`` it asks the model server (one HTTP POST per new
    text); when that fails, or without one, it falls back to LiteLLM's ``token_counter`` for ``model`` and
    then to len(text)/3 (rounded up), so counting never fails.
    """

    def __init__(
        self, model: str, tokenize_url: str | None = None, timeout: float = 10.0, api_key: str | None = None
    ) -> None:
        self.model = model
        self.url = tokenize_url
        self.api_key = api_key
        self.timeout = timeout
        self._known: dict[str, int] = {}

    def count(self, text: str) -> int:
        """Tokens in ``text``."""
        if not text:
            return 0
        if text in self._known:
            return self._known[text]
        n = self._ask_server(text) if self.url else None
        if n is None:
            try:
                import litellm

                n = int(litellm.token_counter(model=self.model, text=text))
            except Exception:  # noqa: BLE001 - an unknown model or tokenizer: a safe over-estimate
                n = -(-len(text) // 3)
        if len(self._known) > 4096:
            self._known.clear()
        self._known[text] = n
        return n

    def _ask_server(self, text: str) -> int | None:
        if self.url is None:
            return None
        body = json.dumps({"input": text}).encode()
        headers = {"Content-Type": "application/json"}
        if self.api_key and self.api_key != "none":
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(self.url, body, headers)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as r:
                return int(json.loads(r.read())["count"])
        except (OSError, ValueError, KeyError, TypeError, urllib.error.URLError) as err:
            _LOGGER.debug("Token count from %s failed: %s", self.url, err)
            return None


# Tokens a message costs beyond its text in a chat template (role markers, separators): ChatML's
# "<|im_start|>role\n ... <|im_end|>\n" is 5, code fences add a few.
_MESSAGE_OVERHEAD = 8


def message_text(message: dict[str, Any]) -> str:
    """The text an LMC message puts in the prompt (code is sent as a fenced block)."""
    content = message.get("content")
    text = content if isinstance(content, str) else json.dumps(content, default=str)
    if message.get("type") == "code":
        return f"```{message.get('format', '')}\n{text}\n```"
    return text


def turn_starts(messages: list[dict[str, Any]], first: int = 0) -> list[int]:
    """Indexes (>= ``first``) of the user messages that start a turn."""
    return [i for i in range(first, len(messages)) if messages[i].get("role") == "user"]


def fit_history(
    messages: list[dict[str, Any]], budget: int, count: Callable[[str], int], pinned: int = 0, fixed: int = 0
) -> list[dict[str, Any]]:
    """Return the newest whole turns of ``messages`` that fit in ``budget`` tokens, after ``pinned`` leading
    messages (worked examples) that are always kept. ``fixed`` is what the prompt costs besides (system message,
    the new user text).

    Turns are dropped oldest first, whole (a user message and everything up to the next one), so the model
    never sees an answer without its question or code without its output. When even the newest turn does not
    fit, the long outputs and texts in it are shortened (marked with "[...]"); the result may exceed the
    budget only when the pinned messages alone do.
    """

    def cost(message: dict[str, Any]) -> int:
        return count(message_text(message)) + _MESSAGE_OVERHEAD

    head = messages[:pinned]
    rest = messages[pinned:]
    total = fixed + sum(cost(m) for m in head)
    starts = turn_starts(rest)
    if starts and starts[0] != 0:
        rest = rest[starts[0] :]  # a headless fragment (from an older, broken save): drop it
        starts = turn_starts(rest)
    kept_from = len(rest)
    used = total
    for start in reversed(starts):
        turn_cost = sum(cost(m) for m in rest[start:kept_from])
        if used + turn_cost > budget:
            break
        used += turn_cost
        kept_from = start
    kept = rest[kept_from:]
    if not kept and starts:
        # Not even the newest turn fits: keep its question and shorten the rest of it.
        last = [dict(m) for m in rest[starts[-1] :]]
        room = max(budget - total, 0)
        per = max(room // max(len(last), 1), 16)
        for m in last:
            text = message_text(m)
            if count(text) + _MESSAGE_OVERHEAD > per and isinstance(m.get("content"), str):
                keep_chars = max(per * 3, 40)
                m["content"] = m["content"][:keep_chars] + " [...]"
        kept = last
    return head + kept


class AgentBackend(Protocol):
    """What the sessions need from an agent backend."""

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The conversation in Open Interpreter's LMC format, changed in place by the sessions."""
        ...

    def send(self, text: str, gate: Gate, stop_after_code: StopAfterCode = False) -> Iterator[str]:
        """Send one user message; yield the assistant's text deltas; call ``gate`` before each code block;
        end after a block's output when ``stop_after_code`` is (or returns) True."""
        ...

    def stop(self) -> None:
        """Ask a running ``send`` to stop at the next chunk (thread-safe)."""
        ...


def prepare_offline_environment() -> None:
    """Set what Open Interpreter/LiteLLM need to stay offline; call before importing ``interpreter``.

    Source: measured on this project's machines (see README "Offline"): LiteLLM fetches its cost map and
    tiktoken fetches encodings from the internet unless told to use the copies bundled with LiteLLM.
    """
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    spec = importlib.util.find_spec("litellm")
    if spec and spec.submodule_search_locations:
        tokenizers = Path(next(iter(spec.submodule_search_locations))) / "litellm_core_utils" / "tokenizers"
        if tokenizers.is_dir():
            os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(tokenizers))


def preload(model: str) -> None:
    """Import Open Interpreter and build LiteLLM's token counter for ``model``: blocking, for start-up, after
    :func:`prepare_offline_environment`.

    Otherwise the first turn builds the counter on its worker thread, and for most models that is tiktoken's
    ``cl100k_base``, whose ``CoreBPE`` is built in one native call that held the GIL for about 0.3 s (half of it
    a full garbage collection its allocations triggered; py-spy on a 2-CPU VM under benchmarks/load.py): the event
    loop, and ``/api/health`` with it, stood still meanwhile.
    """
    __import__("interpreter")
    TokenCounter(model).count("warm up")


def _sandbox_language(name: str, execute: Execute) -> type:
    """Return an Open Interpreter language class that runs code through ``execute``."""
    language = name  # the class body defines its own ``name``, which hides the argument there

    class SandboxLanguage:
        """A custom Open Interpreter language backed by the o1 sandbox."""

        name = language
        aliases = LANGUAGE_ALIASES.get(language, ())

        def __init__(self) -> None:
            """Open Interpreter inspects __init__'s arguments: take none."""

        def run(self, code: str) -> Iterator[dict[str, Any]]:
            """Run ``code``; yield one LMC console output chunk."""
            yield {"type": "console", "format": "output", "content": execute(language, code)}

        def stop(self) -> None:
            """Nothing to stop: each block is its own bounded process."""

        def terminate(self) -> None:
            """Nothing to terminate: no kernel is kept between blocks."""

    return SandboxLanguage


class _RefusedLanguage:
    """Any fence language we don't run (```javascript, ```r, ```html ...).

    Open Interpreter answers an unknown language with "`x` disabled or not supported." and no confirmation
    chunk, so such a block would bypass the gate and the audit. Registered behind a catch-all lookup, it makes
    every fenced block reach the gate, which refuses and audits it; ``run`` is never reached, and if it were it
    runs nothing.
    """

    name = "refused"
    aliases: tuple[str, ...] = ()

    def __init__(self) -> None:
        """Open Interpreter inspects __init__'s arguments: take none."""

    def run(self, code: str) -> Iterator[dict[str, Any]]:
        """Run nothing."""
        yield {"type": "console", "format": "output", "content": "(not run: this language is not supported)"}

    def stop(self) -> None:
        """Nothing to stop."""

    def terminate(self) -> None:
        """Nothing to terminate."""


def _route_every_language(terminal: Any) -> None:
    """Make Open Interpreter's terminal send every block to our language classes, never to its own paths.

    * ``get_language`` falls back to :class:`_RefusedLanguage`, so unknown fence languages reach the gate;
    * ``run`` goes straight to the language class: Open Interpreter 0.4.3's own ``Terminal.run`` runs a shell
      block starting with ``apt install`` itself, as the server's user and outside the sandbox (read in
      interpreter/core/computer/terminal/terminal.py).
    """
    lookup = terminal.get_language

    def get_language(language: str) -> type:
        return lookup(language) or _RefusedLanguage

    def run(language: str, code: str, stream: bool = False, display: bool = False) -> Any:
        chunks = terminal._streaming_run(language, code, display=display)
        return chunks if stream else list(chunks)

    terminal.get_language = get_language
    terminal.run = run


def _fence_language(text: str) -> str | None:
    """The info string of the first markdown fence in ``text`` ('' for a bare fence), None when there is none
    yet (or its first line is not complete)."""
    start = text.find("```")
    if start < 0:
        return None
    end = text.find("\n", start + 3)
    return None if end < 0 else text[start + 3 : end].strip()


_SENTENCE = re.compile(r"[^\W\d_][^()=\[\]{}#`<>]*[.!?]")


def _is_prose(text: str) -> bool:
    """Whether a reply that was to be Python is a sentence instead ("Sorry, I can't help with that."): its first
    line reads as one and the reply does not compile."""
    first = text.strip().splitlines()[0].strip()
    if not _SENTENCE.fullmatch(first) or len(first.split()) < 3:
        return False
    try:
        compile(text, "<reply>", "exec")
    except (SyntaxError, ValueError):
        return True
    return False


def _chunk_usage(chunk: Any) -> Any:
    """The ``usage`` a streamed chunk carries (a dict or LiteLLM's ``Usage``), or None."""
    usage = chunk.get("usage") if isinstance(chunk, dict) else getattr(chunk, "usage", None)
    return usage or None


def _split_backticks(chunk: Any) -> Iterator[Any]:
    """Yield ``chunk``, first splitting off text that precedes a trailing run of backticks.

    Open Interpreter 0.4.3 (``run_text_llm``) holds back a streamed piece that ends with "`" (it may be the start
    of a code fence) and never yields that piece's text: with a tokenizer that makes " `" one token, the space
    before inline code was lost and words were glued ("the `o1_ha` helper" -> "theo1_ha helper"). Sending the
    text before the backticks as its own piece keeps it.
    """
    try:
        content = chunk["choices"][0]["delta"].get("content") or ""
    except (KeyError, IndexError, TypeError, AttributeError):
        content = ""
    head = content.rstrip("`")
    if head and head != content:
        yield {"choices": [{"index": 0, "delta": {"role": "assistant", "content": head}, "finish_reason": None}]}
        yield {"choices": [{"index": 0, "delta": {"content": content[len(head) :]}, "finish_reason": None}]}
        return
    yield chunk


class OpenInterpreterBackend:
    """One Open Interpreter conversation (one ``OpenInterpreter`` instance, never shared between sessions).

    Raises BackendError from ``send`` when the LLM fails.
    """

    def __init__(
        self,
        llm: LLMConfig,
        system_message: str,
        languages: tuple[str, ...],
        execute: Execute,
        max_output: int,
        messages: list[dict[str, Any]] | None = None,
        cancel: threading.Event | None = None,
        code_first: bool = False,
    ) -> None:
        import litellm
        from interpreter import OpenInterpreter  # heavy import (~7 s): done once by the server at start-up

        self._litellm = litellm
        self._oi = oi = OpenInterpreter()
        oi.offline = True
        oi.disable_telemetry = True
        oi.auto_run = False  # makes Open Interpreter yield a confirmation chunk before each block
        oi.loop = False
        oi.safe_mode = "off"
        oi.in_terminal_interface = False
        oi.conversation_history = False
        oi.sync_computer = False
        oi.max_output = max_output
        oi.system_message = system_message
        self._turn_context = ""  # this turn's context: a system message after the worked examples (see _completions)
        self._examples: tuple[int, int] | None = None  # (pinned, their converted OpenAI messages), computed once
        oi.custom_instructions = ""
        oi.computer.import_computer_api = False
        oi.computer.import_skills = False
        oi.computer.terminal.languages = [_sandbox_language(name, execute) for name in languages]
        _route_every_language(oi.computer.terminal)
        self._reply_text = ""  # the current LLM reply, to see its fence's language as written
        oi.llm.model = llm.model
        oi.llm.api_base = llm.api_base
        oi.llm.api_key = llm.api_key or "none"
        oi.llm.temperature = max(llm.temperature, 0.01)  # 0 is falsy and would never be sent
        oi.llm.context_window = llm.context_window
        oi.llm.max_tokens = llm.max_tokens
        oi.llm.supports_functions = False  # markdown code blocks work with every model, small ones included
        oi.llm.supports_vision = False
        oi.llm.execution_instructions = ""
        oi.llm.completions = self._completions
        self._abandoned: list[Any] = []
        self._usage = TokenUsage()  # the requests' token counts since the last take_usage()
        self._stop = cancel or threading.Event()  # set by stop(); whoever owns it clears it between turns
        oi.messages = list(messages or [])
        self._timeout = llm.timeout
        self._context_window = llm.context_window
        self._max_tokens = llm.max_tokens
        self._counter = TokenCounter(llm.model, llm.tokenize_url, api_key=llm.api_key)
        # Every reply starts with a Python block: its opening fence is given (a prefill), not generated.
        self._prefix = "".join(CODE_PREFIX) if code_first and llm.prefill else ""
        self.pinned = 0  # leading messages (worked examples) never trimmed; set by the session
        self._warming = False  # warm() is asking for one token

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The conversation in Open Interpreter's LMC format (JSON-serialisable)."""
        return cast("list[dict[str, Any]]", self._oi.messages)  # Open Interpreter is untyped

    def _completions(self, **params: Any) -> Iterator[Any]:
        """One LiteLLM streaming call with a timeout and no retries (Open Interpreter's own retries 4x).

        Open Interpreter stops reading a reply at the end of its first code block and leaves the HTTP stream
        half-read for the garbage collector, which may close it while this same thread holds the HTTP
        connection pool's lock: a deadlock seen after tens of turns. So an abandoned stream is kept here and
        closed explicitly at a safe point (before the next request and at the end of the turn).
        """
        self._close_abandoned()
        if self._warming:
            params["max_tokens"] = 1
        if self._turn_context:
            params["messages"] = self._with_context(params["messages"])
        if self._prefix:
            # The fence costs no generated tokens (4 of a short block's ~25: about 0.3 s here), and the reply
            # ends at the block's closing fence, which Open Interpreter reads as the block's end either way.
            params["messages"] = [*params["messages"], {"role": "assistant", "content": self._prefix}]
            stop = params.get("stop") or []
            params["stop"] = [*([stop] if isinstance(stop, str) else stop), "```"]
        params["timeout"] = self._timeout
        params["num_retries"] = 0
        # The reply's token counts come as a last chunk without choices (OpenAI's shape). For a server that sends
        # none (llama_cpp.server 0.3 when streaming) LiteLLM counts them itself; a reply left unread has none.
        params["stream_options"] = {"include_usage": True}
        self._litellm.drop_params = True
        response = self._litellm.completion(**params)
        self._abandoned.append(response)
        self._reply_text = ""
        # A prefilled reply's chunks are held until its first line is known (nothing is said before the code
        # runs, so holding costs nothing): code gets the fence before it, a sentence (the model refusing or
        # asking, inside the fence it was given) is the model's words, and an empty reply stays empty.
        held: list[Any] | None = [] if self._prefix else None
        held_text = ""
        try:
            for chunk in response:
                usage = _chunk_usage(chunk)
                if usage is not None:
                    self._usage.add(usage)
                try:
                    content = chunk["choices"][0]["delta"].get("content") or ""
                except (KeyError, IndexError, TypeError, AttributeError):
                    if usage is not None:
                        continue  # the usage chunk holds no text: Open Interpreter reads choices[0]
                    content = ""
                if held is not None:
                    held.append(chunk)
                    held_text += content
                    if "\n" in held_text.lstrip("\n"):
                        yield from self._released(held, held_text)
                        held = None
                    continue
                self._reply_text += content
                yield from _split_backticks(chunk)
            if held:
                yield from self._released(held, held_text)
        except GeneratorExit:
            return  # abandoned mid-stream: _close_abandoned closes it later, outside any lock
        self._abandoned.remove(response)

    def _released(self, held: list[Any], text: str) -> Iterator[Any]:
        """The held chunks of a prefilled reply (their ``text``), after the fence when they are code."""
        if not text.strip():
            return  # nothing but the fence: an empty reply, as without the prefill
        if not _is_prose(text):
            self._reply_text = self._prefix
            for piece in CODE_PREFIX:
                # Open Interpreter finds a fence in text it reads piece by piece, holding back a piece that
                # ends with a backtick: the fence, then its language line.
                delta = {"role": "assistant", "content": piece}
                yield {"choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
        self._reply_text += text
        for chunk in held:
            yield from _split_backticks(chunk)

    def take_usage(self) -> TokenUsage | None:
        """The tokens of the LLM requests since the last call, summed (None when none reported usage); starts
        counting anew."""
        usage, self._usage = self._usage, TokenUsage()
        return usage if usage.requests else None

    def _close_abandoned(self) -> None:
        """Close the HTTP streams of replies that were not read to the end."""
        while self._abandoned:
            response = self._abandoned.pop()
            stream: Any = getattr(response, "completion_stream", None)
            try:
                if hasattr(stream, "close"):
                    stream.close()
                elif hasattr(response, "close"):
                    response.close()
            except Exception as err:  # noqa: BLE001 - closing is best effort: the connection is dropped either way
                _LOGGER.debug("Closing an abandoned LLM stream failed: %s", err)

    def set_turn_context(self, text: str) -> None:
        """Give ``text`` (this turn's context: the date, the home, the folder, instructions) to the LLM, replacing
        the last turn's; never stored in the history."""
        self._turn_context = text

    def _with_context(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """``messages`` (OpenAI format: the system message first) with the turn context as a system message
        right after the worked examples.

        The system message and the examples are the same for every conversation of a profile, and the history
        only grows: a model server that reuses the longest prompt prefix it already evaluated (llama.cpp, and
        providers that cache prompts) then evaluates only the context and what follows, where a context inside
        the system message made it evaluate the examples and the whole history again whenever the context
        changed. When the examples cannot be found where expected (a trimmed history), the context ends the
        system message as before.
        """
        pinned = self.pinned
        if self._examples is None or self._examples[0] != pinned:
            from interpreter.core.llm.utils.convert_to_openai_messages import convert_to_openai_messages

            converted = convert_to_openai_messages(
                self._oi.messages[:pinned],
                function_calling=False,
                vision=False,
                shrink_images=False,
                interpreter=self._oi,
            )
            self._examples = (pinned, len(converted))
        at = 1 + self._examples[1]
        context = {"role": "system", "content": self._turn_context}
        if messages and messages[0].get("role") == "system" and len(messages) > at and messages[at]["role"] == "user":
            return [*messages[:at], context, *messages[at:]]
        first = dict(messages[0]) if messages and messages[0].get("role") == "system" else None
        if first is None:
            return [context, *messages]
        first["content"] = f"{first['content']}\n{self._turn_context}"
        return [first, *messages[1:]]

    def warm(self, probe: str = "Hi") -> bool:
        """Have the model server evaluate the prompt this backend's conversations start with (the system message,
        the worked examples, the turn context), asking for one token after a user message ``probe``. Blocking;
        returns False, doing nothing, for a system message Open Interpreter would render by running code in it
        (``{{ ... }}``). Raises BackendError when the LLM fails.

        A model server that reuses the longest prompt prefix it already evaluated (llama.cpp) then evaluates only
        a first question's own tokens: without it, the first question after a start also evaluated about 830
        tokens of system message and examples, 19.5 s of a 22.6 s turn here (2 cores, qwen2.5-coder-1.5b,
        benchmarks/README.md "Eleventh round"). The messages go through Open Interpreter's own rendering
        (``llm.run``), so they are the tokens a real turn sends; nothing is kept in the history and no code runs.
        """
        if "{{" in self._oi.system_message:
            return False
        # What Open Interpreter's respond() sends for a system message without code in it: the text, stripped.
        system = {"role": "system", "type": "message", "content": self._oi.system_message.strip()}
        user = {"role": "user", "type": "message", "content": probe}
        self._warming = True
        try:
            for _ in self._oi.llm.run([system, *self._oi.messages[: self.pinned], user]):
                pass
        except Exception as err:  # LiteLLM and Open Interpreter raise plain Exceptions
            raise BackendError(str(err).strip().splitlines()[-1] if str(err).strip() else repr(err)) from err
        finally:
            self._warming = False
            self._close_abandoned()
        return True

    def stop(self) -> None:
        """Ask the running turn to stop at the next chunk (the generator is closed: no more code runs)."""
        self._stop.set()

    def send(self, text: str, gate: Gate, stop_after_code: StopAfterCode = False) -> Iterator[str]:
        """Send ``text``; yield assistant text deltas. ``gate`` decides before any code block runs.

        With ``stop_after_code`` True the turn ends as soon as a code block's output is in, before the LLM is
        asked again (the answer is then said from that output: one LLM request per turn). A callable is asked
        once per block, when its output is in (the block has run): True ends the request there.
        """
        self._fit(text)
        stream = self._oi.chat(text, display=False, stream=True)
        stop = False  # a block's output is in and the request ends at the next chunk
        produced = False  # any text or code from the LLM this turn
        try:
            for chunk in stream:
                if self._stop.is_set():
                    break
                kind = chunk.get("type")
                if chunk.get("role") == "assistant" and chunk.get("content"):
                    produced = True
                if kind == "console" and chunk.get("format") == "output":
                    stop = stop_after_code() if callable(stop_after_code) else stop_after_code
                elif stop:
                    # The code ran and its output is in the history: end the turn before Open Interpreter asks
                    # the LLM again (an abandoned reply would keep the model server busy generating).
                    break
                if kind == "confirmation":
                    block = chunk["content"]
                    # Open Interpreter runs a bare ``` fence as Python; a block must name its language.
                    language = "unlabeled" if _fence_language(self._reply_text) == "" else block.get("format", "")
                    if not gate(language, block.get("content", "")):
                        break  # closing the generator here ends the turn before the code runs
                elif (
                    chunk.get("role") == "assistant"
                    and kind == "message"
                    and chunk.get("content")
                    and not (chunk.get("start") or chunk.get("end"))
                ):
                    yield chunk["content"]
            if not produced and not self._stop.is_set():
                # An HTTP 200 with nothing in it (a model server that ran out of context, a proxy...) is a
                # failure, not an answer: the caller must not save it as one.
                raise BackendError("the LLM returned an empty reply")
        except BackendError:
            raise
        except Exception as err:  # LiteLLM and Open Interpreter raise plain Exceptions
            raise BackendError(str(err).strip().splitlines()[-1] if str(err).strip() else repr(err)) from err
        finally:
            try:
                stream.close()
            except RuntimeError:
                pass  # Open Interpreter's generator yields once more after GeneratorExit; it is closed anyway
            self._close_abandoned()
            self._drop_dangling_code()

    def _fit(self, text: str) -> None:
        """Drop (or shorten) old turns so that the next request fits the context window with room to answer.

        Room is kept for two replies (before and after a code block) and one block's output. Lone surrogates in
        the history (a model's reply may hold "\\ud800" as a JSON escape) become "?" first: the request could not
        be encoded otherwise, and every later turn of the conversation would fail.
        """
        for message in self._oi.messages:
            content = message.get("content")
            if isinstance(content, str):
                message["content"] = content.encode("utf-8", "replace").decode("utf-8")
        budget = self._context_window - 2 * self._max_tokens - self._oi.max_output // 2 - 64
        fixed = (
            self._counter.count(self._oi.system_message)
            + self._counter.count(self._turn_context)
            + self._counter.count(text)
            + 3 * _MESSAGE_OVERHEAD
        )
        before = len(self._oi.messages)
        self._oi.messages = fit_history(self._oi.messages, budget, self._counter.count, self.pinned, fixed)
        if len(self._oi.messages) != before:
            _LOGGER.info(
                "Conversation trimmed from %d to %d messages to fit %d tokens",
                before,
                len(self._oi.messages),
                self._context_window,
            )

    def _drop_dangling_code(self) -> None:
        """A stopped turn leaves an assistant code message with no output: record that it did not run."""
        msgs = self._oi.messages
        if msgs and msgs[-1].get("type") == "code":
            msgs.append({"role": "computer", "type": "console", "format": "output", "content": "(not run)"})
