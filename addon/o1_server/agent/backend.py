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
import logging
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

_LOGGER = logging.getLogger(__name__)

# gate(language, code) -> True to run the block now, False to stop the turn before it runs.
Gate = Callable[[str, str], bool]
# execute(language, code) -> the output text the LLM will see.
Execute = Callable[[str, str], str]

LANGUAGE_ALIASES = {"python": ("py", "python3"), "shell": ("bash", "sh", "zsh")}


class BackendError(Exception):
    """The LLM could not be reached or failed; the message is fit to log, not to speak."""


@dataclass(frozen=True)
class LLMConfig:
    """How to reach the LLM: a LiteLLM model name, optional api_base/api_key, sampling and size limits.

    timeout is seconds per LLM request (connect and between streamed chunks).
    """

    model: str
    api_base: str | None = None
    api_key: str | None = None
    temperature: float = 0.01
    context_window: int = 8192
    max_tokens: int = 256
    timeout: float = 120.0


class AgentBackend(Protocol):
    """What the sessions need from an agent backend."""

    messages: list[dict[str, Any]]

    def send(self, text: str, gate: Gate, stop_after_code: bool = False) -> Iterator[str]:
        """Send one user message; yield the assistant's text deltas; call ``gate`` before each code block."""
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
        tokenizers = Path(list(spec.submodule_search_locations)[0]) / "litellm_core_utils" / "tokenizers"
        if tokenizers.is_dir():
            os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(tokenizers))


def _sandbox_language(name: str, execute: Execute) -> type:
    """Return an Open Interpreter language class that runs code through ``execute``."""

    class SandboxLanguage:
        """A custom Open Interpreter language backed by the o1 sandbox."""

        aliases = LANGUAGE_ALIASES.get(name, ())

        def __init__(self) -> None:
            """Open Interpreter inspects __init__'s arguments: take none."""

        def run(self, code: str) -> Iterator[dict[str, Any]]:
            """Run ``code``; yield one LMC console output chunk."""
            yield {"type": "console", "format": "output", "content": execute(name, code)}

        def stop(self) -> None:
            """Nothing to stop: each block is its own bounded process."""

        def terminate(self) -> None:
            """Nothing to terminate: no kernel is kept between blocks."""

    SandboxLanguage.name = name
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
    ) -> None:
        from interpreter import OpenInterpreter  # heavy import (~7 s): done once by the server at start-up
        import litellm

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
        self._system_message = system_message
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
        self._stop = cancel or threading.Event()  # set by stop(); whoever owns it clears it between turns
        oi.messages = list(messages or [])
        self._timeout = llm.timeout

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The conversation in Open Interpreter's LMC format (JSON-serialisable)."""
        return self._oi.messages

    def _completions(self, **params: Any) -> Iterator[Any]:
        """One LiteLLM streaming call with a timeout and no retries (Open Interpreter's own retries 4x).

        Open Interpreter stops reading a reply at the end of its first code block and leaves the HTTP stream
        half-read for the garbage collector, which may close it while this same thread holds the HTTP
        connection pool's lock: a deadlock seen after tens of turns. So an abandoned stream is kept here and
        closed explicitly at a safe point (before the next request and at the end of the turn).
        """
        self._close_abandoned()
        params["timeout"] = self._timeout
        params["num_retries"] = 0
        self._litellm.drop_params = True
        response = self._litellm.completion(**params)
        self._abandoned.append(response)
        self._reply_text = ""
        try:
            for chunk in response:
                try:
                    self._reply_text += chunk["choices"][0]["delta"].get("content") or ""
                except (KeyError, IndexError, TypeError, AttributeError):
                    pass
                yield chunk
        except GeneratorExit:
            return  # abandoned mid-stream: _close_abandoned closes it later, outside any lock
        self._abandoned.remove(response)

    def _close_abandoned(self) -> None:
        """Close the HTTP streams of replies that were not read to the end."""
        while self._abandoned:
            response = self._abandoned.pop()
            stream = getattr(response, "completion_stream", None)
            try:
                if hasattr(stream, "close"):
                    stream.close()
                elif hasattr(response, "close"):
                    response.close()
            except Exception as err:  # closing is best effort: the connection is dropped either way
                _LOGGER.debug("Closing an abandoned LLM stream failed: %s", err)

    def set_turn_context(self, text: str) -> None:
        """Add ``text`` (this turn's Home Assistant context) to the system message, replacing the last one's."""
        self._oi.system_message = self._system_message + ("\n" + text if text else "")

    def stop(self) -> None:
        """Ask the running turn to stop at the next chunk (the generator is closed: no more code runs)."""
        self._stop.set()

    def send(self, text: str, gate: Gate, stop_after_code: bool = False) -> Iterator[str]:
        """Send ``text``; yield assistant text deltas. ``gate`` decides before any code block runs.

        With ``stop_after_code`` the turn ends as soon as the LLM starts its next reply after a code block
        ran (small models answer better from the code's output than in their own words).
        """
        stream = self._oi.chat(text, display=False, stream=True)
        ran = False
        try:
            for chunk in stream:
                if self._stop.is_set():
                    break
                kind = chunk.get("type")
                if kind == "console" and chunk.get("format") == "output":
                    ran = True
                elif stop_after_code and ran and chunk.get("role") == "assistant":
                    break
                if kind == "confirmation":
                    block = chunk["content"]
                    # Open Interpreter runs a bare ``` fence as Python; a block must name its language.
                    language = "unlabeled" if _fence_language(self._reply_text) == "" else block.get("format", "")
                    if not gate(language, block.get("content", "")):
                        break  # closing the generator here ends the turn before the code runs
                elif chunk.get("role") == "assistant" and kind == "message" and chunk.get("content"):
                    if not (chunk.get("start") or chunk.get("end")):
                        yield chunk["content"]
        except Exception as err:  # LiteLLM and Open Interpreter raise plain Exceptions
            raise BackendError(str(err).strip().splitlines()[-1] if str(err).strip() else repr(err)) from err
        finally:
            try:
                stream.close()
            except RuntimeError:
                pass  # Open Interpreter's generator yields once more after GeneratorExit; it is closed anyway
            self._close_abandoned()
            self._drop_dangling_code()

    def _drop_dangling_code(self) -> None:
        """A stopped turn leaves an assistant code message with no output: record that it did not run."""
        msgs = self._oi.messages
        if msgs and msgs[-1].get("type") == "code":
            msgs.append(
                {"role": "computer", "type": "console", "format": "output", "content": "(not run)"}
            )
