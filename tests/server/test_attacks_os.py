"""The operating system as the boundary: attacks that get past the classifier must still stay in their box.

Each test checks an effect on the real machine: processes left (found in /proc by a unique marker in their
command line), file hashes outside the box, bytes reached on a local TCP listener, sizes on disk. They run
through ``run_code`` in both modes (bubblewrap + cgroups, and the rlimit + own-uid fallback where that mode
claims the property) and through the real agent (Open Interpreter + scripted LLM) with the ``power`` profile.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from o1_server.agent import sandbox
from o1_server.agent.policy import CATEGORIES
from o1_server.agent.sandbox import DEFAULT_UIDS, KILLED, REFUSED, Limits, conversation_dir, run_code
from o1_server.agent.sandbox.cgroups import root_tag
from o1_server.agent.sandbox.view import python_paths
from tests.server.conftest import box
from tests.support.scripted_llm import ScriptedLLM

EVERYTHING = {c: "allow" for c in CATEGORIES}  # the classifier lets everything through: the OS layer alone

ROOT_ONLY = pytest.mark.skipif(os.geteuid() != 0, reason="per-conversation uids need root; run the suite as root")
MIB = 1024 * 1024


def code(src: str, language: str = "python") -> str:
    """An LLM reply holding one markdown code block."""
    return f"```{language}\n{src}\n```"


def _need_bwrap() -> None:
    if shutil.which("bwrap") is None:
        pytest.skip("install bubblewrap: apt-get install bubblewrap (or script/bootstrap system_packages)")
    iso = sandbox.isolation()
    if not iso.bwrap:
        pytest.skip("bubblewrap cannot create namespaces here (in a container, allow user namespaces or grant "
                    "SYS_ADMIN as addon/DOCS.md 'Sandbox' explains): " + " ".join(iso.missing))


@pytest.fixture(autouse=True)
def _default_isolation() -> Iterator[None]:
    """Every test starts and ends with the server's default isolation."""
    sandbox.configure(DEFAULT_UIDS)
    yield
    sandbox.configure(DEFAULT_UIDS)


@pytest.fixture(params=["bubblewrap", "fallback"])
def mode(request: pytest.FixtureRequest) -> str:
    """Run the test under bubblewrap, then under the fallback (rlimits + own uid + cgroups, no namespaces)."""
    if request.param == "bubblewrap":
        _need_bwrap()
    else:
        if os.geteuid() != 0:
            pytest.skip("the fallback isolates conversations by uid, which needs root; run the suite as root")
        sandbox.configure(DEFAULT_UIDS, bwrap=False)
    return request.param


@pytest.fixture
def box_root() -> Iterator[Path]:
    """A sandbox root laid out as the server does (0711: passable, not listable)."""
    root = Path(tempfile.mkdtemp(prefix="o1-os-"))
    root.chmod(0o711)
    yield root
    shutil.rmtree(root, ignore_errors=True)


def processes_with(marker: str) -> list[int]:
    """PIDs whose command line holds ``marker`` (zombies have none, so they do not count)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def gone(marker: str, within: float = 10.0) -> bool:
    """Whether no process with ``marker`` is left, allowing the kernel ``within`` seconds to finish kills."""
    deadline = time.monotonic() + within
    while processes_with(marker):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def need_python(mode: str) -> None:
    """Python blocks in the fallback run as the conversation's uid, which must reach the server's Python."""
    if mode == "fallback" and not sandbox.python_reachable_by_others():
        pytest.skip(f"the fallback's conversation uid cannot enter the folders of {sys.executable} (e.g. /root); "
                    "the add-on image keeps Python in /usr/local and /opt, where it can; to cover it here, build the "
                    "server env from a Python outside /root (O1_SERVER_PYTHON=/usr/bin/python3.11 script/bootstrap)")


def shell_double_fork(marker: str) -> str:
    """Shell that leaves a process in its own session (subshell, background, setsid), marked by ``marker``."""
    return f"( setsid bash -c 'exec -a {marker} sleep 300' & ); echo parent done"


def double_fork(marker: str, then: str = "print('parent done')") -> str:
    """Python that leaves a grandchild in its own session (the classic daemon escape), marked by ``marker``."""
    return (
        "import os, sys\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        f"        os.execv(sys.executable, [sys.executable, '-c', 'import time; time.sleep(300)', {marker!r}])\n"
        "    os._exit(0)\n"
        "os.wait()\n"
        f"{then}\n"
    )


# ------------------------------------------------------------------------------------------ processes
@pytest.mark.parametrize("language", ["python", "shell"])
def test_double_fork_and_setsid_leave_nothing_behind(mode: str, language: str, box_root: Path) -> None:
    if language == "python":
        need_python(mode)
    marker = f"o1-daemon-{uuid.uuid4().hex}"
    folder = conversation_dir(box_root, "fork")
    src = double_fork(marker) if language == "python" else shell_double_fork(marker)
    result = run_code(language, src, folder, Limits(seconds=10))
    assert result.exit_status == 0 and "parent done" in result.output, result.output
    assert gone(marker), f"{mode}: a double-forked process outlived its block"


def test_background_timeout_sleep_dies_with_the_block(mode: str, box_root: Path) -> None:
    # `sleep 600.<n>` is unique on this machine, so it marks the process.
    marker = f"600.{uuid.uuid4().int % 10**9}"
    folder = conversation_dir(box_root, "bg")
    result = run_code("shell", f"timeout 600 sleep {marker} & echo started; sleep 30", folder, Limits(seconds=1))
    assert result.timed_out and result.exit_status == KILLED and "started" in result.output
    assert gone(marker), f"{mode}: `timeout 600 sleep 600 &` outlived the time limit"


def _run_then_sigkill(script: str, marker: str) -> None:
    """Run ``script`` as a stand-in server (this checkout's code), wait until its block's daemon carrying
    ``marker`` runs, then SIGKILL the server (it is gone, whatever happens, when this returns)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    server = subprocess.Popen([sys.executable, "-c", script], env=env)
    try:
        deadline = time.monotonic() + 30
        while not processes_with(f"{marker}\0") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert processes_with(f"{marker}\0"), "the block never started its daemon"
        server.send_signal(signal.SIGKILL)
        server.wait()
    finally:
        server.kill()
        server.wait()


def test_survivors_die_when_the_server_is_killed(box_root: Path) -> None:
    """SIGKILL of the process that ran the block (the server) takes the whole box down with it."""
    _need_bwrap()
    marker = f"o1-orphan-{uuid.uuid4().hex}"
    folder = conversation_dir(box_root, "orphan")
    script = (
        "import sys\nfrom pathlib import Path\nfrom o1_server.agent.sandbox import run_code, Limits\n"
        f"run_code('python', {double_fork(marker, 'import time; time.sleep(120)')!r}, Path({str(folder)!r}), "
        "Limits(seconds=120))\n"
    )
    try:
        _run_then_sigkill(script, marker)
        assert gone(marker), "a process of the block outlived the server's SIGKILL"
    finally:
        iso = sandbox.isolation()
        if iso.cgroups is not None:  # what the next start-up does with the dead server's block cgroups
            iso.cgroups.reap(root_tag(box_root))


def test_fallback_survivors_are_reaped_at_the_next_start(box_root: Path) -> None:
    """Without namespaces a SIGKILLed server leaves its block's daemons; the next start kills them."""
    if os.geteuid() != 0:
        pytest.skip("cgroups need root; run the suite as root")
    sandbox.configure(DEFAULT_UIDS, bwrap=False)
    if sandbox.isolation().cgroups is None:
        pytest.skip("no writable cgroups here (mount /sys/fs/cgroup read-write, as addon/rootfs/usr/local/bin/"
                    "o1-start does): " + " ".join(sandbox.isolation().missing))
    marker = f"o1-orphan-{uuid.uuid4().hex}"
    folder = conversation_dir(box_root, "orphan")
    script = (
        "from pathlib import Path\nfrom o1_server.agent import sandbox\n"
        "sandbox.configure(bwrap=False)\n"
        f"sandbox.run_code('shell', {shell_double_fork(marker) + '; sleep 120'!r}, "
        f"Path({str(folder)!r}), sandbox.Limits(seconds=120))\n"
    )
    try:
        _run_then_sigkill(script, marker)
    finally:
        sandbox.prepare(box_root)  # the next server start
    assert gone(marker), "the next start did not kill what the killed server's block left"


# ------------------------------------------------------------------------------------------ limits
def test_forked_children_share_one_memory_limit(mode: str, box_root: Path) -> None:
    if sandbox.isolation().cgroups is None:
        pytest.skip("no writable cgroups here (mount /sys/fs/cgroup read-write, as addon/rootfs/usr/local/bin/"
                    "o1-start does): " + " ".join(sandbox.isolation().missing))
    folder = conversation_dir(box_root, "memory")
    # Four forked children (perl, which every Debian has) each take 100 MiB (written, so really resident) and
    # hold it until a common moment; only those still alive then write their file. With 256 MiB for the whole
    # tree at most two can; without a limit for the tree (the old per-process rlimit) all four did.
    hog = ("my $b = 'x' x (100 * 1024 * 1024); my $late = time() > $ARGV[0]; "
           "select(undef, undef, undef, 0.05) while time() < $ARGV[0]; "
           "open(my $f, '>', ($late ? 'late-' : 'held-') . $ARGV[1]); close($f);")
    (folder / "hog.pl").write_text(hog)
    src = "meet=$(( $(date +%s) + 6 )); for i in 1 2 3 4; do perl hog.pl $meet $i & done; wait; echo waited"
    result = run_code("shell", src, folder, Limits(seconds=30, memory_mb=256))
    held = sorted(p.name for p in folder.glob("held-*"))
    assert "waited" in result.output, result.output
    assert not list(folder.glob("late-*")), "a child allocated after the meeting time: the test proves nothing"
    assert 1 <= len(held) <= 2, (held, result.output)


def test_a_huge_file_stops_at_the_file_size_limit(mode: str, box_root: Path) -> None:
    folder = conversation_dir(box_root, "fsize")
    shell = run_code("shell", "head -c 1073741824 /dev/zero > big2.bin; echo status=$?", folder,
                     Limits(seconds=20, file_mb=16))
    assert "status=0" not in shell.output, shell.output
    assert (folder / "big2.bin").stat().st_size <= 16 * MIB
    need_python(mode)
    src = (
        "chunk = b'x' * (1024 * 1024)\n"
        "try:\n"
        "    with open('big.bin', 'wb') as f:\n"
        "        for _ in range(1024):\n"
        "            f.write(chunk)\n"
        "    print('wrote 1 GiB')\n"
        "except OSError as err:\n"
        "    print('stopped:', err.strerror)\n"
    )
    result = run_code("python", src, folder, Limits(seconds=20, file_mb=16))
    assert "stopped: File too large" in result.output, result.output
    assert (folder / "big.bin").stat().st_size <= 16 * MIB


def test_a_folder_over_its_disk_cap_runs_nothing(mode: str, box_root: Path) -> None:
    folder = conversation_dir(box_root, "disk")
    (folder / "old.bin").write_bytes(b"x" * (9 * MIB))
    result = run_code("shell", "touch ran", folder, Limits(disk_mb=8))
    assert result.exit_status == REFUSED and "more than its 8 MiB limit" in result.output
    assert not (folder / "ran").exists()


def test_a_block_that_fills_its_folder_is_stopped(mode: str, box_root: Path) -> None:
    folder = conversation_dir(box_root, "fill")
    src = "for i in $(seq 400); do head -c 1048576 /dev/zero > part-$i; sleep 0.05; done"
    result = run_code("shell", src, folder, Limits(seconds=30, disk_mb=8, file_mb=2))
    assert result.exit_status == KILLED and "grew past its 8 MiB limit" in result.output, result.output
    assert len(list(folder.glob("part-*"))) < 400


def test_empty_files_and_links_count_against_the_files_cap(mode: str, box_root: Path) -> None:
    """Empty files and short symlinks use no disk block, only inodes (of the add-on's /data): the disk cap never
    saw them. A block that makes them endlessly is stopped, and the next block is refused."""
    folder = conversation_dir(box_root, "inodes")
    src = "n=0; while true; do : > f$n; ln -s x l$n; n=$((n+1)); done"
    result = run_code("shell", src, folder, Limits(seconds=30, files=500))
    assert result.exit_status == KILLED and not result.timed_out, result.output
    assert "grew past its limit of 500 files and folders" in result.output, result.output
    made = len(os.listdir(folder))
    refused = run_code("shell", "touch ran", folder, Limits(files=500))
    assert refused.exit_status == REFUSED and "more than its limit of 500 files" in refused.output
    assert not (folder / "ran").exists() and len(os.listdir(folder)) == made


def test_a_folder_nested_thousands_deep_is_refused_stopped_and_removed(mode: str, box_root: Path) -> None:
    """Folders 3,000 deep (past Python's recursion limit): the server's walks of the folder used to raise
    RecursionError out of run_code, leaving the block running past its time limit, and reset could not
    delete the folder. Now the block is stopped, nothing of it is left, the next block is refused in words and
    the folder is removed."""
    marker = f"600.{uuid.uuid4().int % 10**9}"
    folder = conversation_dir(box_root, "deep")
    src = (f"for i in $(seq 3000); do mkdir d && cd d || break; done; : > leaf; ln -s /etc/passwd link; "
           f"sleep {marker}")
    result = run_code("shell", src, folder, Limits(seconds=20))
    assert result.exit_status == KILLED and "nested more than 100 deep" in result.output, result.output
    assert gone(marker), f"{mode}: the block outlived the walk of its folder"
    refused = run_code("shell", "touch ran", folder, Limits())
    assert refused.exit_status == REFUSED and "nested more than 100 deep" in refused.output
    assert not (folder / "ran").exists()
    sandbox.remove_tree(folder)
    assert not folder.exists() and Path("/etc/passwd").exists()


async def test_agent_reset_and_retention_remove_a_folder_nested_thousands_deep(make_agent, llm: ScriptedLLM,
                                                                              tmp_path: Path) -> None:
    """Through the agent: the turn that made the tree answers, the conversation's reset removes it, and an
    orphan folder like it neither stops the next server start (retention) nor stays."""
    everything = EVERYTHING
    agent = make_agent(policy=everything)  # the classifier would refuse os.chdir: this is about the OS layer
    deep = "import os\nfor i in range(2500):\n    os.mkdir('d')\n    os.chdir('d')\nprint('made')"
    llm.script(code(deep), "Made.", code(deep), "Made.")
    reply = await agent.ask("Make folders", "deep-1")
    assert [(b.decision, b.exit_status) for b in reply.code_blocks] == [("allow", 0)], reply.code_blocks
    workdir = Path(agent.conversation("deep-1")["workdir"])
    assert Path(workdir, *["d"] * 1500).is_dir()
    assert agent.reset("deep-1") and not workdir.exists()
    reply = await agent.ask("Make folders", "deep-2")
    orphan = Path(agent.conversation("deep-2")["workdir"])
    (tmp_path / "data" / "sessions" / f"{orphan.name}.json").unlink()  # its conversation is gone: an orphan
    os.utime(orphan, (time.time() - 7200, time.time() - 7200))
    make_agent(policy=everything)  # a new server on the same data folder: retention runs at its start
    assert not orphan.exists()


# ------------------------------------------------------------------------------------------ files
@pytest.fixture
def outside() -> Iterator[Path]:
    """A world-readable file outside every sandbox (the fallback only protects files private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="o1-outside-"))
    secret = folder / "secret.txt"
    secret.write_text("precious-outside-content")
    yield secret
    shutil.rmtree(folder, ignore_errors=True)


def test_files_outside_the_box_can_be_neither_read_nor_written(mode: str, box_root: Path, outside: Path) -> None:
    if mode == "bubblewrap":
        outside.parent.chmod(0o755)  # readable by everyone on the host: only the mount view protects it
        outside.chmod(0o644)
    else:
        outside.parent.chmod(0o700)  # the fallback's boundary is the uid: a file private to root
    before = digest(outside)
    folder = conversation_dir(box_root, "outside")
    path = str(outside)
    sh = run_code("shell", f"cat {path}; echo pwned > {path}; rm -f {path}; ls {outside.parent}", folder, Limits())
    assert "precious-outside-content" not in sh.output
    assert outside.exists() and digest(outside) == before
    need_python(mode)
    py = run_code("python", f"p = {path!r}\ntry:\n    print(open(p).read())\nexcept OSError as e:\n    print(e)\n"
                  f"try:\n    open(p, 'w').write('pwned')\nexcept OSError as e:\n    print(e)\n", folder, Limits())
    assert "precious-outside-content" not in py.output
    assert outside.exists() and digest(outside) == before


def test_the_server_data_and_root_home_are_not_visible(box_root: Path) -> None:
    _need_bwrap()
    data = box_root / "data"
    data.mkdir()
    (data / "api_token").write_text("server-api-token-123")
    (data / "api_token").chmod(0o644)  # even if it were world-readable
    folder = conversation_dir(box_root, "look")
    result = run_code("shell", f"cat {data}/api_token; ls -a /root; ls {box_root}; cat /etc/shadow; ls /data",
                      folder, Limits())
    assert "server-api-token-123" not in result.output
    lines = result.output.splitlines()
    assert folder.name in lines and "data" not in lines  # its own folder is the only one under the root
    assert "root:" not in result.output  # /etc/shadow
    # /root holds only the empty folders leading to the server's Python, if that lives there.
    scaffold = {Path(p).relative_to("/root").parts[0] for p in python_paths() if p.startswith("/root/")}
    hidden = [name for name in os.listdir("/root") if name not in scaffold]
    assert not [name for name in hidden if name in lines], hidden


def test_conversations_cannot_read_each_other(mode: str, box_root: Path) -> None:
    a = conversation_dir(box_root, "alice")
    b = conversation_dir(box_root, "bob")
    assert a.stat().st_uid != b.stat().st_uid or os.geteuid() != 0
    results = {}
    alice = threading.Thread(target=lambda: results.setdefault("a", run_code(
        "shell", "echo alice-diary-secret > diary.txt; chmod 644 diary.txt; sleep 6", a, Limits(seconds=10))))
    alice.start()
    deadline = time.monotonic() + 20
    while not (a / "diary.txt").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    snoop = (f"cat {a}/diary.txt; ls {a}; "
             "for p in /proc/[0-9]*; do cat $p/cwd/diary.txt $p/root{a}/diary.txt 2>/dev/null; done; "
             "echo snooped")
    bob = run_code("shell", snoop, b, Limits())
    alice.join()
    assert (a / "diary.txt").read_text() == "alice-diary-secret\n"  # it was there while bob looked
    assert "snooped" in bob.output and "alice-diary-secret" not in bob.output, bob.output


# ------------------------------------------------------------------------------------------ network
class Listener:
    """A TCP listener on 127.0.0.1 that records every byte it receives."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.received = b""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(2)
                try:
                    while data := conn.recv(4096):
                        self.received += data
                except OSError:
                    pass

    def close(self) -> bytes:
        time.sleep(0.3)  # let a connection made just before the block ended be accepted and read
        self._stop.set()
        self._thread.join()
        self.sock.close()
        return self.received


SEND = ("import socket\ntry:\n    s = socket.create_connection(('127.0.0.1', {port}), timeout=3)\n"
        "    s.sendall(b'o1-net-probe'); s.close(); print('sent')\nexcept OSError as e:\n    print('no network:', e)\n")


def test_no_network_unless_allowed(box_root: Path) -> None:
    _need_bwrap()
    folder = conversation_dir(box_root, "net")
    listener = Listener()
    denied = run_code("python", SEND.format(port=listener.port), folder, Limits())
    assert listener.close() == b"" and "no network" in denied.output, denied.output
    listener = Listener()
    allowed = run_code("python", SEND.format(port=listener.port), folder, Limits(), network=True)
    assert listener.close() == b"o1-net-probe" and "sent" in allowed.output, allowed.output


def test_binds_appear_read_write_at_the_same_path(box_root: Path) -> None:
    _need_bwrap()
    run = box_root / "run" / uuid.uuid4().hex
    run.mkdir(parents=True)
    path = run / "ha.sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.listen()
    os.chmod(path, 0o666)
    got: list[bytes] = []

    def serve() -> None:
        conn, _ = server.accept()
        with conn:
            got.append(conn.recv(100))

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    folder = conversation_dir(box_root, "bind")
    src = f"import socket\ns = socket.socket(socket.AF_UNIX)\ns.connect({str(path)!r})\ns.sendall(b'hello broker')\n"
    result = run_code("python", src, folder, Limits(), binds=[path])
    thread.join(timeout=10)
    server.close()
    assert result.exit_status == 0, result.output
    assert got == [b"hello broker"]


def test_isolation_is_described() -> None:
    info = sandbox.describe_isolation()
    assert info["mode"] in ("bubblewrap", "rlimits")
    if info["mode"] == "rlimits":
        assert info["missing"], "a fallback must say what is missing"
    sandbox.configure(DEFAULT_UIDS, bwrap=False, cgroups=False)
    fallback = sandbox.describe_isolation()
    assert fallback["mode"] == "rlimits" and fallback["namespaces"] == "none" and fallback["cgroups"] == "none"
    said = " ".join(fallback["missing"])
    assert "bubblewrap is turned off" in said and "cgroups are turned off" in said


# ------------------------------------------------------------------------------------------ through the agent
async def test_agent_power_profile_daemons_die_with_their_block(make_agent, llm: ScriptedLLM) -> None:
    agent = make_agent()
    marker = f"o1-daemon-{uuid.uuid4().hex}"
    sleeper = f"600.{uuid.uuid4().int % 10**9}"
    llm.script(code(double_fork(marker)), code(f"timeout 600 sleep {sleeper} &\necho started", "shell"), "Done.")
    reply = await agent.ask("Start two background jobs", "daemons", profile="power")
    assert [b.decision for b in reply.code_blocks] == ["allow", "allow"], [b.reason for b in reply.code_blocks]
    assert all(b.exit_status == 0 for b in reply.code_blocks), [b.output for b in reply.code_blocks]
    assert gone(marker) and gone(sleeper)


async def test_agent_power_profile_network_block_reaches_the_network(make_agent, llm: ScriptedLLM) -> None:
    _need_bwrap()
    agent = make_agent()
    listener = Listener()
    llm.script(code(SEND.format(port=listener.port)), "Sent.")
    reply = await agent.ask("Send a probe", "net", profile="power")
    [block] = reply.code_blocks
    assert block.decision == "allow" and "network" in block.category
    assert listener.close() == b"o1-net-probe", block.output


async def test_agent_code_cannot_see_the_server_data(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    _need_bwrap()
    everything = EVERYTHING
    agent = make_agent(policy=everything)
    data = tmp_path / "data"
    (data / "api_token").write_text("api-token-never-seen")
    llm.script(code("print('first')"), "Ok.")
    await agent.ask("Say something for the audit log", "data", profile="t")
    audit_line = (data / "audit.jsonl").read_text().splitlines()[0]
    llm.script(code(f"import os\nfor p in [{str(data / 'api_token')!r}, {str(data / 'audit.jsonl')!r}]:\n"
                    "    try:\n        print(open(p).read())\n    except OSError as e:\n        print(e)\n"
                    f"try:\n    print(os.listdir({str(data / 'sessions')!r}))\nexcept OSError as e:\n    print(e)\n"),
               "Done.")
    reply = await agent.ask("Read the server's files", "data", profile="t")
    [block] = reply.code_blocks
    assert block.decision == "allow" and block.exit_status == 0, block.output
    assert "api-token-never-seen" not in block.output and audit_line not in block.output
    assert "No such file or directory" in block.output




async def test_agent_with_everything_allowed_cannot_touch_outside_files(make_agent, llm: ScriptedLLM,
                                                                          outside: Path) -> None:
    """The classifier lets everything through here: only the operating system stands in the way."""
    _need_bwrap()
    outside.parent.chmod(0o755)
    outside.chmod(0o666)  # even writable by everyone on the host
    before = digest(outside)
    agent = make_agent(policy=EVERYTHING)
    llm.script(code(f"cat {outside}; echo pwned > {outside}; rm -rf {outside.parent}", "shell"), "Done.")
    reply = await agent.ask("Ruin that file", "outside", profile="t")
    [block] = reply.code_blocks
    assert block.decision == "allow" and block.exit_status is not None
    assert "precious-outside-content" not in block.output
    assert digest(outside) == before


async def test_agent_conversations_cannot_read_each_other(make_agent, llm: ScriptedLLM, tmp_path: Path) -> None:
    """Conversation B looks for A's diary by path and through /proc/<pid>/cwd while A's block still runs."""
    import asyncio

    agent = make_agent(policy=EVERYTHING, seconds=20)
    a_dir = conversation_dir(tmp_path / "data" / "sandbox", "conv-a")
    llm.script(code("echo alice-diary-secret > diary.txt; chmod 644 diary.txt; sleep 6", "shell"),
               code(f"cat {a_dir}/diary.txt; ls {a_dir}; "
                    "for p in /proc/[0-9]*; do cat $p/cwd/diary.txt 2>/dev/null; done; echo snooped", "shell"),
               "Done.", "Done.")
    first = asyncio.ensure_future(agent.ask("Write my diary", "conv-a", profile="t"))
    for _ in range(400):
        if (a_dir / "diary.txt").exists():
            break
        await asyncio.sleep(0.05)
    second = await agent.ask("Read the other diary", "conv-b", profile="t")
    await first
    [block] = second.code_blocks
    assert block.decision == "allow" and "snooped" in block.output, block.output
    assert "alice-diary-secret" not in block.output
    assert (a_dir / "diary.txt").read_text() == "alice-diary-secret\n"


# ------------------------------------------------------------------------------------------------ seccomp
SECCOMP_PROBES = {
    # name: (code, what a permitted call would print)
    "user namespace (unshare -U)": ("shell", "unshare -Ur id"),
    "mount namespace (unshare -m)": ("shell", "unshare -m true"),
    "user namespace by clone flags": ("python", "import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
                                      "print(libc.unshare(0x10000000), ctypes.get_errno())"),
    "ptrace of a child": ("python", "import ctypes, os, time\nlibc = ctypes.CDLL(None, use_errno=True)\n"
                          "pid = os.fork()\nif pid == 0:\n    time.sleep(2)\n    os._exit(0)\n"
                          "print(libc.ptrace(16, pid, 0, 0), ctypes.get_errno())"),  # PTRACE_ATTACH
    "keyctl": ("python", "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
               "print(libc.syscall(250, 0, 0, 0, 0), ctypes.get_errno())"),  # keyctl(GET_KEYRING_ID)
    "bpf": ("python", "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
            "print(libc.syscall(321, 0, 0, 0), ctypes.get_errno())"),
    "io_uring_setup": ("python", "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
                       "buf = ctypes.create_string_buffer(120)\nprint(libc.syscall(425, 4, buf), ctypes.get_errno())"),
}


@pytest.mark.parametrize("name", list(SECCOMP_PROBES))
def test_the_box_refuses_namespaces_tracing_and_kernel_interfaces(tmp_path: Path, name: str) -> None:
    """Everything allowed by the classifier (EVERYTHING) and still refused by the kernel: code could create a
    user namespace in the box (root inside it, mounts of its own). Judged by the call's own result: EPERM (1)."""
    _need_bwrap()
    if not sandbox.isolation().seccomp:
        pytest.skip("no seccomp filter here: " + " ".join(sandbox.isolation().missing))
    language, src = SECCOMP_PROBES[name]
    result = run_code(language, src, box(tmp_path), Limits())
    if language == "shell":
        assert result.exit_status != 0 and "Operation not permitted" in result.output, result.output
    else:
        assert result.output.split()[-2:] == ["-1", "1"], result.output  # the call failed with EPERM


def test_ordinary_processes_and_threads_still_work_under_seccomp(tmp_path: Path) -> None:
    _need_bwrap()
    src = ("import multiprocessing, subprocess, threading\n"
           "def square(x):\n    return x * x\n"
           "if __name__ == '__main__':\n"
           "    t = threading.Thread(target=print, args=('thread',)); t.start(); t.join()\n"
           "    with multiprocessing.Pool(2) as pool:\n        print(pool.map(square, [1, 2, 3]))\n"
           "    print(subprocess.run(['sh', '-c', 'echo child; (sleep 0.1 &); wait'], capture_output=True, "
           "text=True).stdout.strip())")
    result = run_code("python", src, box(tmp_path), Limits())
    assert result.exit_status == 0 and result.output.split("\n") == ["thread", "[1, 4, 9]", "child"], result.output
