"""Disk caps on real blocks: a folder's cap and the cap over all folders hold within one block, measured on disk;
a block that fills the disk leaves the audit log writable."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from o1_server.agent import sandbox
from o1_server.agent.sandbox import MIB, REFUSED, Limits, conversation_dir, run_code, safe_name
from o1_server.agent.types import AgentError

WRITE = "with open('big.bin', 'wb') as f:\n    for _ in range({mib}):\n        f.write(b'x' * 1048576)\n"


def du(folder: Path) -> int:
    """Bytes on disk under ``folder`` (os.walk, allocated blocks)."""
    total = 0
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            total += os.lstat(os.path.join(dirpath, name)).st_blocks * 512
    return total


@pytest.fixture
def root_cap() -> Iterator[None]:
    """Every test ends with the default cap over all folders."""
    yield
    sandbox.set_root_cap(4096)


def test_one_block_writing_twice_its_folders_cap_ends_under_it(tmp_path: Path) -> None:
    folder = conversation_dir(tmp_path, "twice")
    result = run_code("python", WRITE.format(mib=16), folder, Limits(disk_mb=8))
    assert result.exit_status != 0 and "File too large" in result.output, result.output
    assert du(folder) <= 8 * MIB


def test_a_second_block_gets_only_what_is_left_of_its_folder(tmp_path: Path) -> None:
    folder = conversation_dir(tmp_path, "left")
    run_code("shell", "head -c 5M /dev/zero > a.bin", folder, Limits(disk_mb=8))
    result = run_code("shell", "head -c 8M /dev/zero > b.bin; echo status $?", folder, Limits(disk_mb=8))
    assert "status 0" not in result.output, result.output
    assert du(folder) <= 8 * MIB


def test_the_cap_over_all_folders_holds_across_two_conversations(tmp_path: Path, root_cap: None) -> None:
    sandbox.set_root_cap(12)
    one, two = conversation_dir(tmp_path, "one"), conversation_dir(tmp_path, "two")
    run_code("python", WRITE.format(mib=10), one, Limits(disk_mb=8))
    run_code("python", WRITE.format(mib=10), two, Limits(disk_mb=8))
    assert du(one) <= 8 * MIB and du(one) + du(two) <= 12 * MIB
    third = conversation_dir(tmp_path, "three")
    refused = run_code("shell", "echo ran; head -c 1M /dev/zero > c.bin", third, Limits(disk_mb=8))
    assert refused.exit_status == REFUSED and "ran" not in refused.output
    assert "all conversations' folders together" in refused.output, refused.output
    assert du(one) + du(two) + du(third) <= 12 * MIB


async def test_a_turn_over_the_global_cap_is_audited_to_its_end(make_agent, llm, root_cap: None) -> None:
    sandbox.set_root_cap(16)
    agent = make_agent(seconds=20)
    llm.script("```python\n" + WRITE.format(mib=32) + "```", "Done.")
    await agent.ask("write a big file", "disk-audit")
    records = [r for r in agent.audit.read() if r.get("conversation_id") == "disk-audit"]
    ran = [r for r in records if "big.bin" in r.get("code", "")]
    assert ran and ran[-1]["completed"] and ran[-1]["exit_status"] not in (0, None), records
    root = agent.sessions.sandbox_root
    assert sum(du(folder) for folder in root.iterdir()) <= 16 * MIB


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 256 MiB tmpfs of its own (root only): the data folder of a server whose disk can be filled."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small filesystem needs root; run the suite as root")
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256m", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(
            f"cannot mount a tmpfs here ({done.stderr.decode().strip()}): run the suite as root on the host or in a "
            "container with CAP_SYS_ADMIN"
        )
    os.chmod(mount, 0o755)
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


async def test_a_block_that_fills_the_disk_leaves_the_audit_log_writable(make_agent, llm, small_disk: Path) -> None:
    # The names are made at run time: the policy would hold the block as outside the folder; the OS bounds it.
    agent = make_agent(seconds=20, data_dir=small_disk / "data", policy={"outside_sandbox": "allow"})
    # Files under the per-file budget, one after the other, until the disk is full.
    fill = (
        "i = 0\nwhile True:\n    i += 1\n"
        + "    with open(f'f{i}.bin', 'wb') as f:\n"
        + ("        for _ in range(32):\n            f.write(b'x' * 1048576)\n")
    )
    llm.script("```python\n" + fill + "```", "Done.")
    await agent.ask("fill the disk", "fill")
    records = [r for r in agent.audit.read() if r.get("conversation_id") == "fill"]
    st = os.statvfs(small_disk)
    assert st.f_bavail * st.f_frsize < 2 * MIB, records  # the disk did fill up
    ran = [r for r in records if "while True" in r.get("code", "")]
    assert ran and ran[-1]["completed"] and ran[-1]["exit_status"] != 0, records  # its end, on the full disk
    for _ in range(200):  # and many more records (pages past the log's last one) on the still-full disk
        agent.audit.record_peer("http", "127.0.0.1:1", None, "x" * 1000)
    assert len(agent.audit.read(limit=1000)) >= 200


def fill_up(mount: Path) -> Path:
    """Take every byte left on ``mount`` (as root: a tmpfs keeps nothing back for root) with one host file."""
    path = mount / "host-filler.bin"
    chunk = b"y" * 65536
    with open(path, "ab", buffering=0) as f:
        while True:
            try:
                f.write(chunk)
            except OSError:
                break
        for size in (4096, 512, 1):  # the last pages
            while True:
                try:
                    f.write(chunk[:size])
                except OSError:
                    break
    return path


async def test_a_conversation_is_saved_and_loads_back_on_a_full_disk(make_agent, llm, small_disk: Path) -> None:
    data = small_disk / "data"
    agent = make_agent(seconds=20, data_dir=data, policy={"outside_sandbox": "allow"})
    fill = (
        "i = 0\nwhile True:\n    i += 1\n"
        + "    with open(f'f{i}.bin', 'wb') as f:\n"
        + ("        for _ in range(32):\n            f.write(b'x' * 1048576)\n")
    )
    llm.script("```python\n" + fill + "```", "Done.", "Still here.")
    await agent.ask("fill the disk", "full-save")
    fill_up(small_disk)  # and what the block left: not one byte is free now
    with pytest.raises(OSError) as full:
        (small_disk / "plain.json").write_bytes(b"{}" * 4096)  # a plain save of 8 KiB fails
    assert full.value.errno == 28
    reply = await agent.ask("are you still there", "full-save")
    assert "Still here." in reply.answer
    saved = data / "sessions" / f"{safe_name('full-save')}.json"
    state = json.loads(saved.read_text())  # on disk, whole
    assert [t["text"] for t in state["turns"]] == ["fill the disk", "are you still there"]
    again = make_agent(data_dir=data)  # a restarted server reads it back
    session = again.sessions.get("full-save", again.profile("t"))
    assert [t["text"] for t in session.turns] == ["fill the disk", "are you still there"]


async def test_a_new_conversation_is_refused_when_made_at_the_global_cap(make_agent, llm, root_cap: None) -> None:
    sandbox.set_root_cap(16)
    agent = make_agent(seconds=20)
    llm.script("```python\n" + WRITE.format(mib=32) + "```", "Done.")
    await agent.ask("write a big file", "first")
    root = agent.sessions.sandbox_root
    assert sum(du(folder) for folder in root.iterdir()) >= 16 * MIB  # the cap is reached
    folders = sorted(p.name for p in root.iterdir())
    saved = sorted(p.name for p in agent.sessions.folder.glob("*.json"))
    with pytest.raises(AgentError) as refused:
        await agent.ask("hello", "second")
    assert refused.value.code == "busy"
    assert refused.value.message == (
        "All conversations' files together use 16 MiB, their limit is 16 MiB, so I can't start a new "
        "conversation. Delete some files or old conversations first."
    )
    with pytest.raises(AgentError) as in_german:  # in the language asked
        agent.sessions.get("third", agent.profile("t"), "http", language="de")
    assert "keine neue Unterhaltung" in in_german.value.message
    # Nothing was made for them: no folder, no saved conversation, no session in memory.
    assert sorted(p.name for p in root.iterdir()) == folders
    assert sorted(p.name for p in agent.sessions.folder.glob("*.json")) == saved
    assert agent.conversation("second") is None and agent.conversation("third") is None
    # The conversation that exists goes on, its history intact.
    llm.script("Still here.")
    reply = await agent.ask("are you there", "first")
    assert "Still here." in reply.answer
    assert [t["text"] for t in agent.conversation("first")["turns"]] == ["write a big file", "are you there"]
    # Once it is deleted there is room again.
    assert agent.reset("first")
    llm.script("Hello.")
    assert "Hello." in (await agent.ask("hello", "second")).answer
    assert (root / safe_name("second")).is_dir()


async def test_a_new_conversation_is_refused_when_made_on_a_full_disk(make_agent, llm, small_disk: Path) -> None:
    agent = make_agent(data_dir=small_disk / "data")
    llm.script("First.")
    await agent.ask("hello", "before")
    filler = small_disk / "host-filler.bin"
    free = os.statvfs(small_disk).f_bavail * os.statvfs(small_disk).f_frsize
    with open(filler, "wb") as f:  # leave less than the 64 MiB the server keeps free
        f.write(b"z" * (free - 32 * MIB))
    root = agent.sessions.sandbox_root
    folders = sorted(p.name for p in root.iterdir())
    with pytest.raises(AgentError) as refused:
        await agent.ask("hello", "after")
    assert refused.value.code == "busy"
    assert refused.value.message == "The disk is full, so I can't start a new conversation. Delete some files first."
    assert sorted(p.name for p in root.iterdir()) == folders
    llm.script("Second.")
    assert "Second." in (await agent.ask("again", "before")).answer  # the one that exists still answers


# 1000 files of 32 KiB (32 MiB in all), a few a millisecond apart: no file comes near the per-file limit.
MANY = (
    "import time\nfor i in range(1000):\n    with open(f's{i}.bin', 'wb') as f:\n        f.write(b'x' * 32768)\n"
    "    time.sleep(0.002)\nprint('all written')\n"
)


def test_many_small_files_stop_near_the_folders_cap(tmp_path: Path) -> None:
    folder = conversation_dir(tmp_path, "many")
    result = run_code("python", MANY, folder, Limits(disk_mb=16, seconds=30))
    assert result.exit_status == sandbox.KILLED and "all written" not in result.output, result.output
    assert "[stopped: this conversation's folder grew past its 16 MiB limit]" in result.output
    # Polled, not a kernel bound: it passes the cap by what is written between two measures, not by 2x.
    assert 16 * MIB < du(folder) <= 18 * MIB, du(folder) / MIB


def test_many_small_files_stop_near_the_global_cap(tmp_path: Path, root_cap: None) -> None:
    sandbox.set_root_cap(16)
    folder = conversation_dir(tmp_path, "many-global")
    result = run_code("python", MANY, folder, Limits(disk_mb=64, seconds=30))
    assert result.exit_status == sandbox.KILLED and "all written" not in result.output, result.output
    assert "[stopped: all conversations' folders together grew past their 16 MiB limit]" in result.output
    assert du(folder) <= 18 * MIB, du(folder) / MIB
    after = run_code("shell", "echo ran", folder, Limits(disk_mb=64))  # and the next block is refused
    assert after.exit_status == REFUSED and "ran" not in after.output
