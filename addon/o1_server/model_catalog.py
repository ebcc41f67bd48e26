"""The LLMs a turn may name: the server's configured default and the embedded models it can run.

``GET /api/models`` lists them (:meth:`ModelCatalog.offered`); a turn's ``model`` picks one
(:meth:`ModelCatalog.resolve`): the default is the LLM the server started with, another embedded model gets its own
``llama_cpp.server`` child the first time a turn asks for it (kept until the server stops; each costs its
``memory_mb``). A child that does not come up within ``start_seconds`` is an error (:class:`ModelUnavailable`), and
is not started again for ``retry_seconds``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from .agent.backend import LLMConfig
from .llm import EMBEDDED_MODELS, EmbeddedLLM, EmbeddedModel, embedded_model, embedded_model_path

_LOGGER = logging.getLogger(__name__)


class UnknownModel(ValueError):
    """A turn named a model the server does not offer; the message names the offered ones."""


class ModelUnavailable(RuntimeError):
    """An offered model could not be started; the message says why, in one sentence."""


class Launcher(Protocol):
    """What :class:`ModelCatalog` needs of a model server it starts (:class:`o1_server.llm.EmbeddedLLM`)."""

    @property
    def model(self) -> str:
        """The LiteLLM model name."""

    @property
    def api_base(self) -> str:
        """Its OpenAI-compatible base URL."""

    @property
    def api_key(self) -> str:
        """The key its requests need."""

    @property
    def context(self) -> int:
        """Its context window, tokens."""

    @property
    def tokenize_url(self) -> str:
        """Its token counter."""

    async def start(self, timeout: float = 120.0) -> None:
        """Start and wait until it answers; RuntimeError when it does not."""

    async def stop(self) -> None:
        """Stop it."""


@dataclass(frozen=True)
class OfferedModel:
    """One model a turn may name: ``name`` is what the turn sends; ``default`` marks the server's own LLM;
    ``embedded`` models run on this server (``memory_mb``: resident memory, ``context``: tokens)."""

    name: str
    default: bool
    embedded: bool
    memory_mb: int | None = None
    context: int | None = None

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape of ``GET /api/models``' ``models`` items."""
        return {
            "name": self.name,
            "default": self.default,
            "embedded": self.embedded,
            "memory_mb": self.memory_mb,
            "context": self.context,
        }


def runnable_models(models_dirs: tuple[Path, ...] = ()) -> tuple[EmbeddedModel, ...]:
    """The embedded models whose GGUF file (or package) is on this machine (blocking: a file search)."""
    found = []
    for spec in EMBEDDED_MODELS.values():
        try:
            embedded_model_path(spec, models_dirs)
        except FileNotFoundError:
            continue
        found.append(spec)
    return tuple(found)


class ModelCatalog:
    """The models the server offers: ``default_llm`` under ``default_name`` (default: its LiteLLM name) and the
    ``embedded`` models (those it can run, see :func:`runnable_models`).

    ``launch(spec)`` makes the server of an embedded model that is not the default (default: an
    :class:`EmbeddedLLM` with ``threads`` and ``models_dirs``). Turns use ``default_llm``'s request timeout.
    """

    def __init__(
        self,
        default_llm: LLMConfig,
        default_name: str | None = None,
        embedded: Iterable[EmbeddedModel] = (),
        *,
        threads: int = 2,
        models_dirs: tuple[Path, ...] = (),
        start_seconds: float = 120.0,
        retry_seconds: float = 60.0,
        launch: Callable[[EmbeddedModel], Launcher] | None = None,
    ) -> None:
        spec = embedded_model(default_name) if default_name else None
        self.default_llm = default_llm
        self.default_name = spec.name if spec is not None else (default_name or default_llm.model)
        self._embedded = {m.name: m for m in embedded}
        self.start_seconds = start_seconds
        self.retry_seconds = retry_seconds
        self._launch = launch or (lambda m: EmbeddedLLM(m, threads=threads, models_dirs=models_dirs))
        self._running: dict[str, Launcher] = {}
        self._failed: dict[str, tuple[float, str]] = {}  # name -> (monotonic time, why)
        self._lock = asyncio.Lock()

    def offered(self) -> list[OfferedModel]:
        """The default first, then the embedded models in their table's order."""
        first = self._embedded.get(self.default_name)
        models = [
            OfferedModel(
                self.default_name,
                True,
                first is not None,
                first.memory_mb if first else None,
                min(first.context, self.default_llm.context_window) if first else None,
            )
        ]
        models += [
            OfferedModel(m.name, False, True, m.memory_mb, m.context)
            for m in self._embedded.values()
            if m.name != self.default_name
        ]
        return models

    def check(self, name: str) -> str:
        """The offered model called ``name`` (an alias such as ``embedded`` resolved). Raises UnknownModel."""
        spec = embedded_model(name)
        canonical = spec.name if spec is not None else name
        if canonical == self.default_name or canonical in self._embedded:
            return canonical
        offered = ", ".join(m.name for m in self.offered())
        raise UnknownModel(f"The server offers no model called {name!r}; it offers: {offered}.")

    def is_default(self, name: str) -> bool:
        """Whether ``name`` (checked with :meth:`check`) is the server's own LLM."""
        return self.check(name) == self.default_name

    async def resolve(self, name: str) -> LLMConfig:
        """The LLM of the offered model ``name``, its server started if it was not running.

        Raises UnknownModel, or ModelUnavailable when its server does not come up within ``start_seconds``
        (or failed to less than ``retry_seconds`` ago).
        """
        canonical = self.check(name)
        if canonical == self.default_name:
            return self.default_llm
        async with self._lock:  # one start at a time: a second turn waits for the first one's child
            server = self._running.get(canonical)
            if server is None:
                server = await self._start(self._embedded[canonical])
        return LLMConfig(
            server.model,
            server.api_base,
            server.api_key,
            timeout=self.default_llm.timeout,
            context_window=server.context,
            tokenize_url=server.tokenize_url,
            prefill=True,  # o1_server.chat_handler continues a prefilled assistant message
        )

    async def _start(self, spec: EmbeddedModel) -> Launcher:
        failed = self._failed.get(spec.name)
        if failed is not None and time.monotonic() - failed[0] < self.retry_seconds:
            raise ModelUnavailable(failed[1])
        server = self._launch(spec)
        try:
            async with asyncio.timeout(self.start_seconds + 5):  # start() bounds itself; this bounds a stuck one
                await server.start(timeout=self.start_seconds)
        except (RuntimeError, OSError, TimeoutError) as err:
            with_reason = str(err).strip().splitlines()[-1] if str(err).strip() else type(err).__name__
            why = f"The model {spec.name} could not be started: {with_reason[:200]}."
            _LOGGER.warning("%s", why)
            self._failed[spec.name] = (time.monotonic(), why)
            await server.stop()
            raise ModelUnavailable(why) from None
        self._failed.pop(spec.name, None)
        self._running[spec.name] = server
        return server

    async def stop(self) -> None:
        """Stop the model servers this catalog started (not the default's)."""
        running, self._running = list(self._running.values()), {}
        for server in running:
            await server.stop()
