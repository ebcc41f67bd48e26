"""Fixtures of the end-to-end tests: HA core (phcc) in the test process, the real o1 server as a child process."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import pytest_socket

# Import the integration first, or HA's loader finds phcc's own testing custom_components.
import custom_components.o1  # noqa: F401
from tests.support.o1_process import O1Process, start_o1
from tests.support.scripted_llm import ScriptedLLM


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations(enable_custom_integrations: None) -> None:
    """Let HA load the o1 custom integration."""


@contextmanager
def sockets_allowed() -> Iterator[None]:
    """Let a session fixture open its listening socket (phcc blocks sockets outside ``socket_enabled``)."""
    pytest_socket.enable_socket()
    try:
        yield
    finally:
        pytest_socket.disable_socket(allow_unix_socket=True)


@pytest.fixture(scope="session")
def scripted_llm() -> Iterator[ScriptedLLM]:
    """A scripted OpenAI-compatible LLM shared by the session."""
    with sockets_allowed():
        llm = ScriptedLLM().start()
    yield llm
    with sockets_allowed():
        llm.stop()


@pytest.fixture(scope="session")
def o1_server(tmp_path_factory: pytest.TempPathFactory, scripted_llm: ScriptedLLM) -> Iterator[O1Process]:
    """The real o1 server (whisper, piper, Open Interpreter) whose LLM is the scripted one."""
    data: Path = tmp_path_factory.mktemp("o1-e2e")
    proc = start_o1(data, "--llm-model", "openai/scripted", "--llm-api-base", scripted_llm.api_base,
                    "--llm-timeout", "20")
    yield proc
    proc.stop()
