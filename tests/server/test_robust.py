"""The real ``o1-server`` process stays up and answers under bad clients, load and faults.

Every test talks to a real server subprocess over TCP (Wyoming), HTTP or WebSocket; the LLM is the scripted one
(``ScriptedLLM.HANG`` is an LLM that accepts a request and never answers). No timed assertions: bounds only keep a
broken server from hanging the suite ("it answers at all within 60 s"); the checks are on what comes back.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import aiohttp
import pytest
from wyoming.asr import Transcript
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.client import AsyncTcpClient
from wyoming.event import Event
from wyoming.handle import Handled
from wyoming.info import Describe, Info
from wyoming.ping import Ping
from wyoming.tts import SynthesizeChunk, SynthesizeStart, SynthesizeStop

from o1_server.agent.sandbox import safe_name
from o1_server.agent.types import MAX_TURN_CHARS
from tests.server.conftest import TEST_PROFILE
from tests.support.o1_process import SERVER_PYTHON, O1Process, start_o1
from tests.support.scripted_llm import ScriptedLLM

REPO = Path(__file__).resolve().parents[2]
BOUND = 60  # seconds: only against hangs
SIX_BY_SEVEN = "```python\nprint(6 * 7)\n```"


def server_args(tmp: Path, llm: ScriptedLLM, *extra: str) -> list[str]:
    """Flags for a server on the scripted LLM, test profile ``t`` (30 s turns), LLM timeout 3 s."""
    profiles = tmp / "profiles"
    profiles.mkdir(exist_ok=True)
    (profiles / "t.yaml").write_text(TEST_PROFILE.format(name="t", policy={}, seconds=5, blocks=3, turn=30,
                                                         context=8192, max_tokens=256))
    return ["--llm-model", "openai/scripted", "--llm-api-base", llm.api_base,
            "--llm-timeout", "3", "--profiles-dir", str(profiles), "--default-profile", "t", *extra]


@pytest.fixture(scope="module")
def voices(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A voices folder holding one broken voice: its .onnx.json lacks audio.sample_rate."""
    folder = tmp_path_factory.mktemp("voices")
    (folder / "broken.onnx").write_bytes(b"not a model")
    (folder / "broken.onnx.json").write_text(json.dumps({"audio": {"quality": "low"}, "num_symbols": 2}))
    return folder


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, scripted_llm: ScriptedLLM, voices: Path) -> Iterator[O1Process]:
    """One real server for the module: 2 parallel turns, Wyoming cap 8 connections."""
    tmp = tmp_path_factory.mktemp("robust")
    proc = start_o1(tmp / "data", *server_args(tmp, scripted_llm, "--max-parallel-turns", "2",
                                                "--wyoming-max-connections", "8", "--tts-voices-dir", str(voices)))
    yield proc
    assert proc.stop() == 0, "\n".join(proc.log[-30:])


async def post(server: O1Process, path: str, **kwargs) -> tuple[int, object]:
    """One HTTP request with the token; (status, JSON body or text)."""
    headers = {"Authorization": f"Bearer {server.token}"}
    async with aiohttp.ClientSession(headers=headers) as http, http.request(
            kwargs.pop("method", "POST"), f"{server.api_url}{path}", **kwargs) as r:
        body = await r.json() if r.content_type == "application/json" else await r.text()
        return r.status, body


async def ask(server: O1Process, text: str, cid: str) -> tuple[int, dict]:
    return await post(server, "/api/conversation", json={"text": text, "conversation_id": cid})


async def wyoming(server: O1Process) -> AsyncTcpClient:
    client = AsyncTcpClient("127.0.0.1", server.wyoming_port)
    await client.connect()
    return client


async def read(client: AsyncTcpClient, event_type: str) -> Event:
    """Events until one of ``event_type`` (an error event fails the test)."""
    async with asyncio.timeout(BOUND):
        while True:
            event = await client.read_event()
            assert event is not None, f"connection closed before {event_type}"
            if event.type == event_type:
                return event
            assert event.type != "error" or event_type == "error", event


async def still_answers(server: O1Process) -> None:
    client = await wyoming(server)
    await client.write_event(Ping(text="x").event())
    assert (await read(client, "pong")).data.get("text") == "x"
    await client.disconnect()
    status, body = await post(server, "/api/health", method="GET")
    assert status == 200 and body["status"] == "ok"


# ------------------------------------------------------------------------------------------ agent faults


async def test_follow_up_that_hangs_keeps_the_computed_answer(server: O1Process, llm: ScriptedLLM) -> None:
    """The code ran and printed 42; the LLM's follow-up request never answers: the answer is the output."""
    llm.script(SIX_BY_SEVEN, ScriptedLLM.HANG)
    status, body = await ask(server, "What is six times seven?", "keep-answer")
    assert status == 200, body
    assert "42" in body["answer"] and body["code_blocks"][0]["output"] == "42"


async def test_hung_llm_is_spoken_as_an_error_on_wyoming(server: O1Process, llm: ScriptedLLM) -> None:
    llm.script(ScriptedLLM.HANG)
    client = await wyoming(server)
    await client.write_event(Transcript(text="hello?", context={"conversation_id": "hung-1"}).event())
    handled = Handled.from_event(await read(client, "handled"))
    await client.disconnect()
    assert handled.context["error_code"] == "llm_unavailable" and "language model" in handled.text


async def test_one_conversation_cannot_starve_the_others(server: O1Process, llm: ScriptedLLM) -> None:
    """2 slots; conversation A has a turn stuck on the LLM and two more queued behind it: B still gets answered
    while A's first turn is still stuck."""
    llm.script(ScriptedLLM.HANG, "Quick answer.")
    stuck = asyncio.ensure_future(ask(server, "slow one", "conv-a"))
    async with asyncio.timeout(BOUND):
        while not llm.requests:
            await asyncio.sleep(0.05)
    queued = [asyncio.ensure_future(ask(server, f"more {i}", "conv-a")) for i in range(2)]
    await asyncio.sleep(0.5)
    status, body = await asyncio.wait_for(ask(server, "quick one", "conv-b"), BOUND)
    assert status == 200 and body["answer"] == "Quick answer."
    # B's request reached the LLM right after A's stuck one, before A's queued turns (which need A's first to end).
    assert "quick one" in json.dumps(llm.requests[1]["messages"]), "B waited behind conversation A"
    results = await asyncio.wait_for(asyncio.gather(stuck, *queued), BOUND)
    assert [status for status, _ in results] == [502, 200, 200]  # A's hung request failed; the rest answered


async def test_huge_transcript_is_refused_at_once_on_every_transport(server: O1Process, llm: ScriptedLLM) -> None:
    """A 900 KB Wyoming transcript gets the same limit as HTTP (MAX_TURN_CHARS), never reaches the LLM, and the
    server keeps answering."""
    llm.script("Should not be asked.")
    client = await wyoming(server)
    await client.write_event(Transcript(text="word " * 180_000, context={"conversation_id": "huge"}).event())
    handled = Handled.from_event(await read(client, "handled"))
    await client.disconnect()
    assert handled.context["error_code"] == "invalid_request"
    status, body = await ask(server, "x" * (MAX_TURN_CHARS + 1), "huge-http")
    assert status == 400 and body["error"] == "invalid_request"
    assert llm.requests == []
    await still_answers(server)


# ------------------------------------------------------------------------------------------ HTTP errors


@pytest.mark.parametrize(("method", "path", "kwargs", "status", "code"), [
    ("POST", "/api/conversation", {"data": "[" * 700_000 + "]" * 700_000}, 413, "request_too_large"),
    ("POST", "/api/conversation", {"data": '{"text": ' + "[" * 5000 + "]" * 5000 + "}"}, 400, "invalid_request"),
    ("GET", "/api/nothing-here", {}, 404, "not_found"),
    ("PUT", "/api/conversation", {"json": {}}, 405, "method_not_allowed"),
])
async def test_http_errors_are_json(server: O1Process, method: str, path: str, kwargs: dict, status: int,
                                    code: str) -> None:
    got, body = await post(server, path, method=method, **kwargs)
    assert (got, body["error"]) == (status, code), body
    assert body["message"]


async def test_a_failed_save_loses_no_answer(server: O1Process, llm: ScriptedLLM) -> None:
    """The session file cannot be written (as on a full disk): the turn still answers 200 JSON, the conversation
    stays in memory, and the next save writes both turns."""
    cid = "cannot-save"
    blocker = server.data_dir / "sessions" / f"{safe_name(cid)}.tmp"
    blocker.mkdir(parents=True)  # writing the temporary file fails
    llm.script("First answer.", "Second answer.")
    status, body = await ask(server, "first", cid)
    assert status == 200 and body["answer"] == "First answer."
    assert not (server.data_dir / "sessions" / f"{safe_name(cid)}.json").exists()
    assert server.wait_for_log("Could not save conversation cannot-save"), server.log[-10:]
    blocker.rmdir()
    status, body = await ask(server, "second", cid)
    assert status == 200 and body["answer"] == "Second answer."
    saved = json.loads((server.data_dir / "sessions" / f"{safe_name(cid)}.json").read_text())
    assert [t["text"] for t in saved["turns"]] == ["first", "second"]


# ------------------------------------------------------------------------------------------ Wyoming clients


async def test_hostile_idle_clients_do_not_lock_out_a_real_one(server: O1Process) -> None:
    """More idle and half-sent connections than the cap (8): a real client is still served."""
    hostile = []
    for n in range(12):
        reader, writer = await asyncio.open_connection("127.0.0.1", server.wyoming_port)
        if n % 2:
            writer.write(b'{"type": "audio-chu')  # slowloris: half a header
            await writer.drain()
        hostile.append(writer)
    await asyncio.sleep(0.3)
    client = await wyoming(server)
    await client.write_event(Describe().event())
    info = Info.from_event(await read(client, "info"))
    assert info.asr and info.tts and info.handle
    await client.write_event(AudioStart(rate=16000, width=2, channels=1).event())
    await client.write_event(AudioStop().event())
    transcript = Transcript.from_event(await read(client, "transcript"))
    assert transcript.text == ""  # no audio: an empty transcript
    await client.disconnect()
    for writer in hostile:
        writer.close()


async def test_broken_voice_is_not_offered(server: O1Process) -> None:
    client = await wyoming(server)
    await client.write_event(Describe().event())
    info = Info.from_event(await read(client, "info"))
    await client.disconnect()
    assert [v.name for v in info.tts[0].voices] == ["en_US-joe-medium"]
    assert server.wait_for_log("Skipping voice", "sample_rate"), server.log[-10:]


async def test_streamed_text_without_punctuation_is_spoken_before_the_stop(server: O1Process) -> None:
    """synthesize-chunk of 30 characters every 0.1 s with no punctuation: audio comes before synthesize-stop."""
    client = await wyoming(server)
    await client.write_event(SynthesizeStart().event())
    first_audio = asyncio.ensure_future(read(client, "audio-start"))
    sent = 0
    while not first_audio.done() and sent < 200:  # at most 20 s of text
        await client.write_event(SynthesizeChunk(text="and then we walked a bit more ").event())
        sent += 1
        await asyncio.sleep(0.1)
    assert first_audio.done(), "no audio before synthesize-stop"
    await client.write_event(SynthesizeStop().event())
    await read(client, "synthesize-stopped")
    await client.disconnect()


# ------------------------------------------------------------------------------------------ start and stop


def run_server(tmp: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO / "addon"), "HF_HUB_OFFLINE": "1", "O1_TOKEN": "t"}
    return subprocess.run([str(SERVER_PYTHON), "-m", "o1_server", "--data-dir", str(tmp), *args],
                          capture_output=True, text=True, timeout=BOUND, env=env, cwd=REPO)


def test_bad_options_name_the_option_and_the_allowed_values(tmp_path: Path) -> None:
    """Every bad value is reported at once, before anything starts (add-on option ``stt_model: auto``...)."""
    result = run_server(tmp_path, "--stt-model", "auto", "--threads", "0", "--llm-timeout", "-1")
    assert result.returncode == 2
    assert "--stt-model (add-on option stt_model)" in result.stderr and "'tiny.en'" in result.stderr
    assert "--threads (add-on option threads) must be between 1 and 64" in result.stderr
    assert "--llm-timeout (add-on option llm_timeout)" in result.stderr
    assert "Traceback" not in result.stderr


def test_unusable_voice_stops_the_start_with_one_clear_line(tmp_path: Path, voices: Path) -> None:
    result = run_server(tmp_path, "--tts-voice", str(voices / "broken.onnx"), "--llm-model", "openai/none")
    assert result.returncode == 2, result.stderr
    assert "--tts-voice (add-on option tts_voice)" in result.stderr and "audio.sample_rate" in result.stderr
    assert "Traceback" not in result.stderr and "KeyError" not in result.stderr


def test_unknown_default_profile_stops_the_start(tmp_path: Path) -> None:
    result = run_server(tmp_path, "--default-profile", "ghost", "--llm-model", "openai/none")
    assert result.returncode == 2, result.stderr
    assert "--default-profile (add-on option default_profile)" in result.stderr and "allowed: default" in result.stderr
    assert "Traceback" not in result.stderr


def test_missing_model_folder_stops_the_start_with_one_clear_line(tmp_path: Path) -> None:
    result = run_server(tmp_path, "--stt-model", str(tmp_path / "no-model"), "--llm-model", "openai/none")
    assert result.returncode == 2, result.stderr
    assert "--stt-model (add-on option stt_model)" in result.stderr and "model.bin" in result.stderr
    assert "Traceback" not in result.stderr


def test_retention_deletes_old_and_surplus_conversations(tmp_path: Path, scripted_llm: ScriptedLLM) -> None:
    """At start-up: conversations unused for longer than the age limit, those beyond the count limit (least
    recently used first) and old sandbox folders of never-saved conversations go, with their sandbox folders."""
    data = tmp_path / "data"
    sessions, sandbox = data / "sessions", data / "sandbox"
    sessions.mkdir(parents=True)
    now = time.time()
    ages = {"new-1": 0, "new-2": 60, "new-3": 120, "new-4": 180, "old": 3 * 86_400}
    for cid, age in ages.items():
        path = sessions / f"{safe_name(cid)}.json"
        path.write_text(json.dumps({"conversation_id": cid, "profile": "t", "messages": [], "turns": []}))
        (sandbox / safe_name(cid)).mkdir(parents=True)
        os.utime(path, (now - age, now - age))
    orphan = sandbox / safe_name("never-saved")
    orphan.mkdir()
    os.utime(orphan, (now - 7200, now - 7200))
    fresh_orphan = sandbox / safe_name("just-started")
    fresh_orphan.mkdir()
    proc = start_o1(data, *server_args(tmp_path, scripted_llm, "--session-max-count", "3",
                                       "--session-max-age-days", "1"))
    try:
        kept = sorted(p.stem for p in sessions.glob("*.json"))
        folders = sorted(p.name for p in sandbox.iterdir())
    finally:
        assert proc.stop() == 0
    assert kept == sorted(safe_name(c) for c in ("new-1", "new-2", "new-3"))
    assert folders == sorted([*kept, fresh_orphan.name])


async def test_sigterm_with_a_hung_llm_stops_cleanly_and_saves(tmp_path: Path, scripted_llm: ScriptedLLM) -> None:
    """A turn stuck on an LLM that never answers does not hold the stop: the process exits by itself (status 0)
    well within the add-on's 30 s stop timeout, after saving the conversations it held."""
    proc = start_o1(tmp_path / "data", *server_args(tmp_path, scripted_llm, "--llm-timeout", "600"))
    try:
        scripted_llm.script("Remember this.", ScriptedLLM.HANG)
        status, _ = await ask(proc, "first turn", "kept-at-stop")
        assert status == 200
        hung = asyncio.ensure_future(ask(proc, "this one hangs", "kept-at-stop"))
        async with asyncio.timeout(BOUND):
            while len(scripted_llm.requests) < 2:
                await asyncio.sleep(0.05)
        code = await asyncio.to_thread(proc.stop, 20)  # SIGTERM; SIGKILL (code -9) only after 20 s
        with_answer = await asyncio.gather(hung, return_exceptions=True)
    finally:
        proc.stop()
    assert code == 0, "\n".join(proc.log[-30:])
    assert proc.wait_for_log("Stopped"), proc.log[-10:]
    saved = json.loads((tmp_path / "data" / "sessions" / f"{safe_name('kept-at-stop')}.json").read_text())
    assert saved["turns"][0]["text"] == "first turn"
    assert with_answer  # the waiting client got an answer or a closed connection, not a hang
