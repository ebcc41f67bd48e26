"""Audit first, confirmations owned by their channel, conversations owned by their profile (switching profile
under the same conversation id keeps both histories), secrets off the command line.

Effects are checked, not labels: a marker file the generated code would create exists only when an audit
record of that block exists; a held ``rm -rf drafts`` leaves the drafts in place unless its owner says yes.
"""

from __future__ import annotations

import asyncio
import json
import os
import stat
import subprocess
import tempfile
from pathlib import Path

import pytest
from wyoming.asr import Transcript
from wyoming.handle import Handled

from o1_server.agent.audit import AuditError, AuditLog
from o1_server.agent.sandbox import conversation_dir
from o1_server.agent.types import CodeBlock
from o1_server.settings import settings_from_args
from o1_server.wyoming_server import WyomingServer
from tests.support.scripted_llm import ScriptedLLM

MARKER = "open('ran.txt', 'w').write('x')\nprint('made it')"


def code(src: str, language: str = "python") -> str:
    return f"```{language}\n{src}\n```"


# ------------------------------------------------------------------------------------------ audit first


async def test_unwritable_audit_log_runs_nothing_and_says_why(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "audit.jsonl").symlink_to("/dev/full")  # every write fails with ENOSPC, as on a full disk
    agent = make_agent(data_dir=data)
    llm.script(code(MARKER), "I made the file.")
    reply = await agent.ask("make a file", "full-disk", profile="default")
    [block] = reply.code_blocks
    assert block.decision == "audit_failed" and block.exit_status is None
    assert not (conversation_dir(data / "sandbox", "full-disk") / "ran.txt").exists()
    assert "audit log" in reply.answer and "did not run" in reply.answer


@pytest.fixture
def small_fs() -> Path:
    """A 64 KiB tmpfs (needs root; skipped elsewhere: /dev/full covers the no-space case without it)."""
    folder = Path(tempfile.mkdtemp(prefix="o1-small-"))
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
                      capture_output=True).returncode != 0:
        folder.rmdir()
        pytest.skip("cannot mount a small tmpfs to fill up here (needs root): run the suite as root")
    yield folder
    subprocess.run(["umount", str(folder)], check=True)
    folder.rmdir()


def test_full_disk_tears_a_line_and_the_next_record_reads_back(small_fs: Path) -> None:
    audit = AuditLog(small_fs / "audit.jsonl")
    filler = small_fs / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:  # fill the disk, leaving a few hundred bytes at most
        for size in (4096, 512, 64, 1):
            while True:
                os.write(fd, b"\0" * size)
    except OSError:
        pass
    finally:
        os.close(fd)
    written = 0
    with pytest.raises(AuditError) as err:
        for n in range(10_000):
            audit.start(f"c{n}", "default", CodeBlock("python", "print(1)" + "#" * 3000))
            written += 1
    assert "No space left" in err.value.message
    raw = (small_fs / "audit.jsonl").read_bytes()
    filler.unlink()
    good = audit.start("after", "default", CodeBlock("python", "print(2)"))
    audit.finish(good, CodeBlock("python", "print(2)", exit_status=0, output="2\n"))
    records = audit.read(limit=100_000)
    assert len(records) == written + 1
    assert records[-1]["conversation_id"] == "after" and records[-1]["completed"] and records[-1]["exit_status"] == 0
    assert raw == b"" or not raw.endswith(b"\n") or written  # a torn tail or whole lines, never a crash


def test_torn_line_never_corrupts_the_next_record(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    audit = AuditLog(path)
    audit.record("one", "default", CodeBlock("python", "print(1)", decision="deny"))
    with path.open("ab") as f:
        f.write(b'{"event": "start", "record_id": "torn", "conversation_id": "ha')  # a crash mid-write
    audit.record("two", "default", CodeBlock("python", "print(2)", decision="deny"))
    assert [r["conversation_id"] for r in audit.read()] == ["one", "two"]


def test_end_record_with_an_unhashable_record_id_is_skipped(tmp_path: Path) -> None:
    # A broken line is skipped: an end record whose record_id is a list once made read() raise TypeError.
    path = tmp_path / "audit.jsonl"
    audit = AuditLog(path)
    audit.record("one", "default", CodeBlock("python", "print(1)", decision="deny"))
    with path.open("ab") as f:
        f.write(b'{"event": "end", "record_id": ["x"], "exit_status": 0}\n')
    audit.record("two", "default", CodeBlock("python", "print(2)", decision="deny"))
    assert [r["conversation_id"] for r in audit.read()] == ["one", "two"]


async def test_lone_surrogate_conversation_id_is_audited_before_it_runs(make_agent, llm: ScriptedLLM,
                                                                        tmp_path: Path) -> None:
    agent = make_agent()
    cid = "room\ud800x"
    llm.script(code(MARKER), "Done.")
    reply = await agent.ask("make a file", cid, profile="default")
    assert reply.code_blocks[0].decision == "allow"
    marker = conversation_dir(tmp_path / "data" / "sandbox", cid) / "ran.txt"
    assert marker.exists()
    [record] = agent.audit.read(cid)
    assert record["code"] == MARKER and record["completed"] and record["exit_status"] == 0
    raw = (tmp_path / "data" / "audit.jsonl").read_bytes()
    assert b"\\ud800" in raw and raw.isascii()
    assert agent.conversation(cid)["turns"]  # the session was saved too


async def test_lone_surrogate_in_the_text_is_answered(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent()
    llm.script(code("print(2)"), "Two.")
    reply = await agent.ask("what\ud800 is one plus one", "c\udfff", profile="default")
    assert reply.code_blocks[0].exit_status == 0 and agent.audit.read("c\udfff")[-1]["completed"]
    assert "what? is" in json.dumps(llm.requests[0])


# ------------------------------------------------------------------------------------------ channels


async def prepare_drafts(agent, llm: ScriptedLLM, tmp_path: Path, cid: str, channel: str) -> Path:
    drafts = conversation_dir(tmp_path / "data" / "sandbox", cid) / "drafts"
    drafts.mkdir(parents=True)
    (drafts / "a.txt").write_text("x")
    llm.script(code("rm -rf drafts", "shell"), "Deleted.")
    asked = await agent.ask("Delete my drafts", cid, profile="default", channel=channel)
    assert asked.continue_conversation and asked.code_blocks[0].decision == "confirm"
    return drafts


async def test_yes_from_another_channel_does_not_run_the_held_block(make_agent, llm: ScriptedLLM,
                                                                   tmp_path: Path) -> None:
    agent = make_agent()
    drafts = await prepare_drafts(agent, llm, tmp_path, "held", "http")
    llm.script("Hello.")
    intruder = await agent.ask("yes", "held", profile="default", channel="wyoming:10.0.0.9")
    assert all(b.decision != "allow" for b in intruder.code_blocks)
    assert drafts.exists()
    # Another transport's message is another conversation: the held block is neither run nor cancelled.
    assert agent.audit.read("held")[-1]["decision"] == "confirm"
    done = await agent.ask("yes", "held", profile="default", channel="http")
    assert done.code_blocks[0].decision == "allow" and not drafts.exists()
    # Within one transport, another host's yes still cancels (the confirmation belongs to the asking channel).
    drafts2 = await prepare_drafts(agent, llm, tmp_path, "held2", "wyoming:10.0.0.1")
    llm.script("Hello.")
    other = await agent.ask("yes", "held2", profile="default", channel="wyoming:10.0.0.9")
    assert all(b.decision != "allow" for b in other.code_blocks) and drafts2.exists()
    assert agent.audit.read("held2")[-1]["decision"] == "cancelled"


async def test_second_wyoming_host_cannot_confirm(make_agent, llm: ScriptedLLM, tmp_path: Path, stt, tts) -> None:
    """Two Wyoming clients, 127.0.0.1 (asked) and 127.0.0.2: only the first one's yes runs the block."""
    agent = make_agent()
    server = WyomingServer("tcp://127.0.0.1:0", stt, tts, agent, "test")
    port = await server.start()

    async def turn(text: str, source: str) -> Handled:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        event = Transcript(text=text, context={"conversation_id": "wy"}).event()
        header = {"type": event.type, "data": event.data, "version": "1.10.2"}
        writer.write((json.dumps(header) + "\n").encode())
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), 60)
        header = json.loads(line)
        data = header.get("data") or {}
        if header.get("data_length"):
            data = json.loads(await reader.readexactly(header["data_length"]))
        writer.close()
        return Handled(text=data.get("text"), context=data.get("context"))

    try:
        drafts = conversation_dir(tmp_path / "data" / "sandbox", "wy") / "drafts"
        drafts.mkdir(parents=True)
        llm.script(code("rm -rf drafts", "shell"), "Deleted.")
        asked = await turn("Delete my drafts", "127.0.0.1")
        assert asked.context["continue_conversation"] is True
        llm.script("Hello.")
        await turn("yes", "127.0.0.2")
        assert drafts.exists()
        llm.script(code("rm -rf drafts", "shell"), "Deleted.")
        await turn("Delete my drafts", "127.0.0.1")
        await turn("yes", "127.0.0.1")  # a new TCP connection from the same host: the owner
        assert not drafts.exists()
    finally:
        await server.stop()


# ------------------------------------------------------------------------------------------ profiles


async def test_same_id_under_another_profile_keeps_both_histories(make_agent, llm: ScriptedLLM,
                                                                  tmp_path: Path) -> None:
    agent = make_agent()
    llm.script("The code word is pelican.")
    await agent.ask("The code word is pelican", "shared", profile="power", channel="http")
    llm.script("Hello from safe.")
    await agent.ask("hello", "shared", profile="safe", channel="wyoming:127.0.0.1")
    power = agent.conversation("shared", "power")
    safe = agent.conversation("shared", "safe")
    assert [t["text"] for t in power["turns"]] == ["The code word is pelican"]
    assert [t["text"] for t in safe["turns"]] == ["hello"]
    assert power["workdir"] != safe["workdir"]
    assert agent.conversation("shared")["profile"] == "power"  # the creator's
    # A restarted server (sessions from disk) still has both, and power's LLM sees its own history.
    restarted = make_agent()
    llm.script("pelican")
    await restarted.ask("What is the code word?", "shared", profile="power", channel="http")
    sent = json.dumps(llm.requests[-1])
    assert "pelican" in sent and "hello" not in sent
    assert [t["text"] for t in restarted.conversation("shared", "safe")["turns"]] == ["hello"]
    assert restarted.reset("shared") and restarted.conversation("shared", "safe") is None


# ------------------------------------------------------------------------------------------ secrets


@pytest.mark.parametrize("flag", ["--token", "--ha-token", "--llm-api-key"])
def test_secret_value_flags_are_refused(flag: str, tmp_path: Path, capsys) -> None:
    with pytest.raises(SystemExit):
        settings_from_args([flag, "s3cret", "--data-dir", str(tmp_path)], environ={})
    err = capsys.readouterr().err
    assert "/proc" in err and f"{flag}-file" in err


def test_secrets_from_environment_and_files(tmp_path: Path) -> None:
    environ = {"O1_TOKEN": "tok", "O1_HA_TOKEN": "ha", "O1_LLM_API_KEY": "key", "OTHER": "x"}
    settings = settings_from_args(["--data-dir", str(tmp_path)], environ=environ)
    assert (settings.token, settings.ha_token, settings.llm_api_key) == ("tok", "ha", "key")
    assert environ == {"OTHER": "x"}  # children never inherit them
    key = tmp_path / "key"
    key.write_text("from-file\n")
    assert settings_from_args(["--data-dir", str(tmp_path), "--llm-api-key-file", str(key)],
                              environ={"O1_LLM_API_KEY": "env"}).llm_api_key == "from-file"


def test_generated_token_file_is_0600_and_a_loose_one_is_tightened(tmp_path: Path) -> None:
    old = os.umask(0)  # even with a permissive umask
    try:
        first = settings_from_args(["--data-dir", str(tmp_path)], environ={})
    finally:
        os.umask(old)
    path = tmp_path / "api_token"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and path.read_text().strip() == first.token
    path.chmod(0o644)
    assert settings_from_args(["--data-dir", str(tmp_path)], environ={}).token == first.token
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


async def test_started_server_has_no_secret_on_its_command_line(tmp_path: Path, scripted_llm: ScriptedLLM) -> None:
    """The real server process: secrets from the environment work and never show in /proc/<pid>/cmdline."""
    import aiohttp

    from tests.support.o1_process import start_o1

    secrets = {"O1_HA_TOKEN": "ha-secret-4711", "O1_LLM_API_KEY": "llm-secret-4711"}
    proc = start_o1(tmp_path / "data", "--llm-model", "openai/scripted", "--llm-api-base", scripted_llm.api_base,
                    token="api-secret-4711", env=secrets)
    try:
        cmdline = Path(f"/proc/{proc.proc.pid}/cmdline").read_bytes()
        for value in ("api-secret-4711", *secrets.values()):
            assert value.encode() not in cmdline
        async with aiohttp.ClientSession(headers={"Authorization": "Bearer api-secret-4711"}) as http, \
                http.get(f"{proc.api_url}/api/info") as response:
            assert response.status == 200
    finally:
        assert proc.stop() == 0, "\n".join(proc.log[-30:])
