"""Sandboxed execution limits on real processes."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from o1_server.agent.sandbox import KILLED, Limits, conversation_dir, resolve_user, run_code
from tests.server.conftest import box


@pytest.fixture
def tmp_path(tmp_path: Path) -> Path:
    """Each test's folder inside a sandbox root of its own (see ``conftest.box``)."""
    return box(tmp_path)


def test_runs_python_and_shell_in_the_given_directory(tmp_path: Path) -> None:
    assert run_code("python", "import os; print(os.getcwd())", tmp_path, Limits()).output == str(tmp_path)
    result = run_code("shell", "pwd; exit 3", tmp_path, Limits())
    assert result.output == str(tmp_path) and result.exit_status == 3


def test_huge_output_is_cut_and_the_process_killed(tmp_path: Path) -> None:
    start = time.monotonic()
    result = run_code("python", "while True: print('x' * 1000)", tmp_path, Limits(seconds=30, output_chars=500))
    assert time.monotonic() - start < 10
    assert result.exit_status == KILLED and result.truncated
    assert len(result.output) < 700


def test_memory_limit(tmp_path: Path) -> None:
    result = run_code("python", "x = bytearray(400 * 1024 * 1024); print('allocated')", tmp_path,
                      Limits(memory_mb=128))
    assert result.exit_status != 0 and "MemoryError" in result.output


def test_timeout_kills_children_too(tmp_path: Path) -> None:
    marker = tmp_path / "late"
    run_code("shell", f"(sleep 3; touch {marker}) & sleep 30", tmp_path, Limits(seconds=1))
    time.sleep(3.5)
    assert not marker.exists()


@pytest.mark.parametrize("cid", ["../escape", "/etc", "a/../../b", "..", ""])
def test_conversation_ids_cannot_escape_the_sandbox(cid: str, tmp_path: Path) -> None:
    path = conversation_dir(tmp_path, cid)
    assert path.parent == tmp_path.resolve()


@pytest.mark.skipif(os.geteuid() != 0, reason="dropping to another user needs root; run the suite as root to cover it")
def test_code_runs_as_the_sandbox_user() -> None:
    user = resolve_user("nobody")
    # pytest's tmp_path is private to root (0700): use a folder the sandbox user can reach.
    tmp_path = Path(tempfile.mkdtemp(prefix="o1-user-"))
    tmp_path.chmod(0o755)
    workdir = conversation_dir(tmp_path / "sandbox", "c", user)
    secret = tmp_path / "secret.txt"
    secret.write_text("api key")
    secret.chmod(0o600)
    result = run_code("shell", f"id -u; cat {secret}; touch mine", workdir, Limits(user=user))
    assert result.output.splitlines()[0] == str(user[0])
    # Denied by the uid (fallback) or not even there (bubblewrap's mount view): either way never read.
    assert "api key" not in result.output and ("Permission denied" in result.output or "No such file" in result.output)
    assert (workdir / "mine").stat().st_uid == user[0]
    shutil.rmtree(tmp_path)


def test_unknown_sandbox_user_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown sandbox user"):
        resolve_user("no-such-user-o1")


@pytest.mark.skipif(os.geteuid() != 0, reason="dropping to another user needs root; run the suite as root to cover it")
def test_sandbox_user_cannot_list_or_read_other_conversations(tmp_path_factory) -> None:
    from o1_server.agent.audit import AuditLog
    from o1_server.agent.types import CodeBlock

    user = resolve_user("nobody")
    root = Path(tempfile.mkdtemp(prefix="o1-iso-"))
    root.chmod(0o711)
    sandbox = root / "sandbox"
    sandbox.mkdir(mode=0o711)
    other = conversation_dir(sandbox, "other", user)
    (other / "diary.txt").write_text("x")
    audit = AuditLog(root / "audit.jsonl")
    audit.record("other", "default", CodeBlock("python", "print('secret code')"))
    mine = conversation_dir(sandbox, "mine", user)
    result = run_code("shell", f"ls ..; cat {root}/audit.jsonl; echo done", mine, Limits(user=user))
    assert "secret code" not in result.output and other.name not in result.output
    assert "Permission denied" in result.output or "No such file" in result.output
    assert "done" in result.output
    shutil.rmtree(root)


@pytest.mark.skipif(os.geteuid() != 0, reason="handing files to a conversation uid needs root; run the suite as root")
def test_files_put_in_a_conversation_folder_become_the_conversations(tmp_path: Path) -> None:
    """Files the server (root) or an older version (`nobody`) left in a folder are handed to its uid; a hard link
    to a file elsewhere is not."""
    workdir = conversation_dir(tmp_path / "sandbox", "c")
    uid = workdir.stat().st_uid
    (workdir / "drafts").mkdir()
    (workdir / "drafts" / "a.txt").write_text("x")
    (workdir / "legacy.txt").write_text("y")
    os.chown(workdir / "legacy.txt", 65534, 65534)
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("not yours")
    os.link(elsewhere, workdir / "link.txt")
    result = run_code("shell", "echo more >> legacy.txt && rm -r drafts && echo removed", workdir, Limits())
    assert "removed" in result.output, result.output
    assert elsewhere.stat().st_uid == 0 and (workdir / "link.txt").stat().st_uid == 0


def test_a_block_runs_when_the_server_holds_over_1024_descriptors(tmp_path: Path) -> None:
    """The block's end is waited for on a pidfd; select() refuses descriptors from 1024 up (ValueError), so a
    server with many clients open failed every block with an exception ("never raises")."""
    import resource

    if resource.getrlimit(resource.RLIMIT_NOFILE)[0] < 1200:
        pytest.skip("the descriptor limit is below 1200")
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]
    try:
        result = run_code("python", "print(1)", tmp_path, Limits())
    finally:
        for fd in held:
            os.close(fd)
    assert result.exit_status == 0 and result.output == "1", result


@pytest.mark.parametrize("config", [".gitconfig", ".config/git/config"])
def test_code_cannot_plant_configuration_that_a_later_program_obeys(tmp_path: Path, config: str) -> None:
    """Two blocks a profile may allow (one writes a file, one runs git): git read HOME's configuration, and HOME
    was the conversation folder, so ``core.fsmonitor`` ran a command of the first block's choosing (it deleted a
    file without asking). HOME is no longer a place the block can write, and git reads no global file. Judged
    by the effect: the victim file is still there and the planted command never ran."""
    (tmp_path / "victim.txt").write_text("keep me")
    planted = ('[core]\n\tfsmonitor = "rm -f victim.txt; touch ran; false"\n'
               '[filter "x"]\n\tclean = "touch ran"\n\tsmudge = "touch ran"\n')
    write = f"import os\nos.makedirs(os.path.dirname({config!r}) or '.', exist_ok=True)\n" \
            f"open({config!r}, 'w').write({planted!r})"
    assert run_code("python", write, tmp_path, Limits()).exit_status == 0
    result = run_code("shell", "git init -q && git add -A && git status --short | head -3", tmp_path, Limits())
    assert result.exit_status == 0, result.output
    assert (tmp_path / "victim.txt").read_text() == "keep me"
    assert not (tmp_path / "ran").exists()


def test_home_is_neither_the_folder_nor_writable(tmp_path: Path) -> None:
    out = run_code("python", "import os, pathlib\nprint(os.environ['HOME'], pathlib.Path.home().exists())\n"
                   "try:\n    os.makedirs(os.path.expanduser('~/.config'))\n    print('made')\n"
                   "except OSError as e:\n    print(type(e).__name__)", tmp_path, Limits())
    home, exists, made = out.output.split()
    assert home != str(tmp_path) and exists == "False" and made != "made", out.output


PROC_NET = (
    "import glob\n"
    "seen = []\n"
    "for path in ['/proc/net/tcp', '/proc/self/net/tcp', *glob.glob('/proc/[0-9]*/net/tcp')]:\n"
    "    try:\n"
    "        seen.append(open(path).read())\n"
    "    except OSError as e:\n"
    "        print('unreadable', path, e.strerror)\n"
    "print('TABLES', len(seen))\n"
    "print(''.join(seen))\n"
)


@pytest.mark.parametrize("network", [False, True])
def test_a_block_cannot_see_the_hosts_listeners_in_proc_net(tmp_path: Path, network: bool) -> None:
    import socket

    from o1_server.agent import sandbox

    if not sandbox.isolation().bwrap:
        missing = " ".join(sandbox.isolation().missing)
        pytest.skip(f"needs bubblewrap ({missing}): run script/bootstrap server as root (it installs it with apt-get)")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port_hex = f":{listener.getsockname()[1]:04X} "
    try:
        with open("/proc/net/tcp") as table:
            assert port_hex in table.read()  # the server itself sees it: the probe is meaningful
        folder = conversation_dir(tmp_path, f"procnet-{network}")
        result = run_code("python", PROC_NET, folder, Limits(output_chars=200_000), network=network)
    finally:
        listener.close()
    assert "TABLES" in result.output, result.output
    assert port_hex not in result.output, result.output
    if network:  # no procfs at all: nothing of the host's network namespace is readable
        assert "TABLES 0" in result.output, result.output[:500]
