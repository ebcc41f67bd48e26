"""Session fixtures for the Home Assistant-side tests that need the real o1 server.

Import them into a conftest (``from tests.support.ha_fixtures import o1_server, scripted_llm``). The o1 server
runs as a child process (server env: whisper, piper, Open Interpreter) and its LLM is the scripted one.
pytest-homeassistant-custom-component blocks sockets outside ``socket_enabled``; these fixtures open their
listening sockets with sockets briefly allowed, and tests that talk to them request ``socket_enabled``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import pytest_socket

from tests.support.o1_process import O1Process, start_o1
from tests.support.scripted_llm import ScriptedLLM


@contextmanager
def sockets_allowed() -> Iterator[None]:
    """Allow sockets for the duration (then block them again, as phcc does before every test)."""
    pytest_socket.enable_socket()
    try:
        yield
    finally:
        pytest_socket.disable_socket(allow_unix_socket=True)


@pytest.fixture(scope="session")
def scripted_llm() -> Iterator[ScriptedLLM]:
    """A scripted OpenAI-compatible LLM shared by the session (tests call ``script`` first)."""
    with sockets_allowed():
        llm = ScriptedLLM().start()
    yield llm
    with sockets_allowed():
        llm.stop()


@pytest.fixture(scope="session")
def o1_server(tmp_path_factory: pytest.TempPathFactory, scripted_llm: ScriptedLLM) -> Iterator[O1Process]:
    """The real o1 server whose LLM is the scripted one."""
    data: Path = tmp_path_factory.mktemp("o1-server")
    proc = start_o1(data, "--llm-model", "openai/scripted", "--llm-api-base", scripted_llm.api_base,
                    "--llm-timeout", "20")
    yield proc
    proc.stop()
