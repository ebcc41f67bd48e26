"""Fixtures of the server tests (add-on server env, Python 3.11/3.12): a scripted LLM and real agents."""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from o1_server.agent.backend import LLMConfig, prepare_offline_environment

prepare_offline_environment()

from o1_server.agent.profiles import load_profiles, parse_profile  # noqa: E402
from o1_server.agent.service import O1Agent  # noqa: E402
from tests.support.scripted_llm import ScriptedLLM  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def scripted_llm() -> Iterator[ScriptedLLM]:
    """One scripted OpenAI-compatible server for the whole session (tests call ``script`` first)."""
    llm = ScriptedLLM().start()
    yield llm
    llm.stop()


@pytest.fixture(scope="session")
def stt():
    """Real whisper tiny.en (int8, beam 5, 2 threads), loaded once for the whole server suite.

    In the ``accurate`` decoding mode (early passes, each checked by the standard decode), not the default
    ``reference`` mode: the early-decoding tests need the passes, and the default's path (decode at
    ``audio-stop`` only) is the one they check against; tests of the other modes set ``stt.decoding``."""
    from o1_server.stt import SpeechToText

    speech = SpeechToText("tiny.en", language="en", decoding="accurate")
    speech.load()
    return speech


@pytest.fixture(scope="session")
def tts():
    """Real piper en_US-joe-medium, loaded once for the whole server suite."""
    from o1_server.tts import TextToSpeech

    speech = TextToSpeech("en_US-joe-medium")
    speech.load()
    return speech


@pytest.fixture
def llm(scripted_llm: ScriptedLLM) -> ScriptedLLM:
    """The scripted LLM with an empty queue."""
    scripted_llm.script()
    return scripted_llm


TEST_PROFILE = """
name: {name}
languages: [python, shell]
llm: {{model: inherit, context_window: {context}, max_tokens: {max_tokens}}}
policy: {policy}
limits: {{seconds_per_block: {seconds}, blocks_per_turn: {blocks}, seconds_per_turn: {turn}, output_chars: 500}}
"""


@pytest.fixture
def make_agent(tmp_path: Path, scripted_llm: ScriptedLLM) -> Iterator[Callable[..., O1Agent]]:
    """Build a real O1Agent (Open Interpreter + sandbox + audit) whose LLM is the scripted server.

    Keyword arguments shape the test profile ``t``: policy (dict), seconds (per block), blocks (per turn),
    turn (seconds per turn), api_base (to point the LLM elsewhere), llm_timeout (seconds), context (the
    profile's context window, tokens), max_tokens (per reply), prefill (the LLM continues a prefilled reply,
    as o1's embedded model server does).

    At teardown every turn still running (a test that gave up on a hung turn) is stopped and waited for, so it
    cannot send a late request that eats the next test's scripted replies (turns run on daemon threads).
    """
    agents: list[O1Agent] = []

    def factory(policy: dict | None = None, seconds: float = 5, blocks: int = 3, turn: float = 60,
                api_base: str | None = None, llm_timeout: float = 10.0, data_dir: Path | None = None,
                context: int = 8192, max_tokens: int = 256, prefill: bool = False) -> O1Agent:
        folder = tmp_path / "profiles"
        folder.mkdir(exist_ok=True)
        (folder / "t.yaml").write_text(TEST_PROFILE.format(
            name="t", policy=policy or {}, seconds=seconds, blocks=blocks, turn=turn, context=context,
            max_tokens=max_tokens))
        profiles = load_profiles([REPO / "profiles", folder])
        data = data_dir or tmp_path / "data"
        llm = LLMConfig("openai/scripted", api_base or scripted_llm.api_base, "none", timeout=llm_timeout,
                        prefill=prefill)
        agents.append(O1Agent(profiles, "t", llm, data, data / "sandbox"))
        return agents[-1]

    yield factory
    sessions = [s for agent in agents for s in list(agent.sessions._sessions.values())]
    for session in sessions:
        session.stop()
    deadline = time.monotonic() + 30
    while any(s.running for s in sessions) and time.monotonic() < deadline:
        time.sleep(0.05)


def box(tmp_path: Path) -> Path:
    """A folder for blocks run straight by ``run_code``, inside a sandbox root of its own (``tmp_path/sandbox``):
    run_code counts every folder beside the one it runs in against the global cap (4 GiB), and beside pytest's
    own ``tmp_path`` are all the suite's other tests' folders (over 4 GiB in a full run: each agent's data folder
    keeps a 4 MiB reserve)."""
    folder = tmp_path / "sandbox" / "c"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def conversation_files(tmp_path: Path, conversation_id: str, files: dict[str, str] | None = None) -> Path:
    """The sandbox folder of ``conversation_id`` for a ``make_agent`` agent (data in ``tmp_path / "data"``),
    made, with ``files`` (name -> text) written in it."""
    from o1_server.agent.sandbox import conversation_dir

    folder = conversation_dir(tmp_path / "data" / "sandbox", conversation_id)
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in (files or {}).items():
        (folder / name).write_text(text)
    return folder


def tree_digest(root: Path, skip: Path) -> str:
    """SHA-256 over every file path, size and content under ``root``, ignoring ``skip`` (the sandbox)."""
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not Path(dirpath, d).resolve().is_relative_to(skip))
        for name in sorted(filenames):
            path = Path(dirpath, name)
            h.update(str(path.relative_to(root)).encode())
            try:
                h.update(path.read_bytes())
            except OSError:
                h.update(b"?")
    return h.hexdigest()


__all__ = ["parse_profile", "tree_digest"]
