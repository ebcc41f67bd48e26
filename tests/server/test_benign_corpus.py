"""Ordinary code reads as what it is: a corpus of blocks small models write for voice requests, and near misses.

Every block of ``corpus/benign`` (one file each, the request in its first line) must be classified without
``outside_sandbox``, ``unparseable`` or ``process_control``, be allowed by the default profile (or held only
when it deletes or uses the network), and, run for real in the sandbox in a folder holding
``corpus/benign/files``, exit 0 having printed something and written nothing outside that folder (an audit
hook prepended to the block records every write, delete, process and connection outside it). Every block of
``corpus/malicious`` (the same idioms aimed outside the folder) must be refused by the default profile.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from o1_server.agent.policy import classify, decide
from o1_server.agent.profiles import parse_profile
from o1_server.agent.sandbox import Limits, run_code

CORPUS = Path(__file__).parent / "corpus"
BENIGN = sorted((CORPUS / "benign").glob("*.py"))
MALICIOUS = sorted((CORPUS / "malicious").glob("*.py"))
SAMPLE_FILES = CORPUS / "benign" / "files"
DEFAULT_PROFILE = Path(__file__).parents[2] / "addon" / "o1_server" / "profiles" / "default.yaml"
REFUSED = {"outside_sandbox", "unparseable", "process_control"}

# Prepended to each benign block when it runs: records what it does outside its folder, and exits with 97
# saying so. Audit events fire for builtins.open/os.open (with the mode or flags), the os and shutil file
# functions, and every way to start a process or open a connection.
_WATCH = """\
import atexit as _o1_atexit, os as _o1_os, sys as _o1_sys
_o1_root = _o1_os.path.realpath('.')
_o1_seen = []
_O1_WRITE_FLAGS = _o1_os.O_WRONLY | _o1_os.O_RDWR | _o1_os.O_CREAT | _o1_os.O_APPEND | _o1_os.O_TRUNC
_O1_FILE_EVENTS = {'os.remove', 'os.rename', 'os.mkdir', 'os.rmdir', 'os.symlink', 'os.link', 'os.chmod',
                   'os.chown', 'os.truncate', 'os.utime', 'shutil.copyfile', 'shutil.copymode', 'shutil.copystat',
                   'shutil.copytree', 'shutil.move', 'shutil.rmtree', 'shutil.make_archive', 'os.chdir'}
_O1_OTHER_EVENTS = ('socket.', 'subprocess.', 'os.system', 'os.exec', 'os.spawn', 'os.posix_spawn', 'os.fork',
                    'os.kill')
def _o1_outside(path):
    if isinstance(path, int) or path is None:
        return False
    text = _o1_os.fsdecode(_o1_os.fspath(path))
    real = _o1_os.path.realpath(text)
    return not (real == _o1_root or real.startswith(_o1_root + _o1_os.sep))
def _o1_hook(event, args):
    if event == 'open':
        path, mode, flags = args
        writes = bool(mode and set(mode) & set('wax+')) or bool(flags and flags & _O1_WRITE_FLAGS)
        if writes and _o1_outside(path):
            _o1_seen.append(f'writes {path}')
    elif event in _O1_FILE_EVENTS:
        for arg in args:
            if isinstance(arg, (str, bytes, _o1_os.PathLike)) and _o1_outside(arg):
                _o1_seen.append(f'{event} {arg}')
    elif event.startswith(_O1_OTHER_EVENTS):
        _o1_seen.append(event)
def _o1_report():
    if _o1_seen:
        _o1_sys.stdout.flush()
        _o1_sys.stderr.write('O1-OUTSIDE: ' + '; '.join(_o1_seen) + '\\n')
        _o1_sys.stderr.flush()
        _o1_os._exit(97)
_o1_atexit.register(_o1_report)
_o1_sys.addaudithook(_o1_hook)
"""


@pytest.fixture(scope="module")
def policy() -> dict[str, str]:
    return parse_profile(DEFAULT_PROFILE.read_text(), DEFAULT_PROFILE).policy


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A conversation folder holding the corpus's sample files."""
    box = tmp_path / "box"
    shutil.copytree(SAMPLE_FILES, box)
    return box


def test_the_corpora_are_large_enough() -> None:
    assert len(BENIGN) >= 80
    assert len(MALICIOUS) >= 20
    for block in BENIGN + MALICIOUS:
        assert block.read_text().startswith("# "), f"{block.name} does not start with its request"


@pytest.mark.parametrize("block", BENIGN, ids=lambda p: p.stem)
def test_benign_block_is_allowed(block: Path, folder: Path, policy: dict[str, str]) -> None:
    found = classify("python", block.read_text(), folder)
    assert not found.categories & REFUSED, (found.categories, found.reasons)
    decision = decide(policy, found)
    if decision.action != "allow":
        assert decision.action == "confirm", (decision, found.reasons)
        assert decision.categories <= {"deletes_files", "network"}, (decision, found.reasons)


@pytest.mark.parametrize("block", BENIGN, ids=lambda p: p.stem)
def test_benign_block_runs_in_the_box(block: Path, folder: Path) -> None:
    outside_before = sorted(p.name for p in folder.parent.iterdir())
    result = run_code("python", _WATCH + block.read_text(), folder, Limits(seconds=30))
    assert result.exit_status == 0, result.output
    assert "O1-OUTSIDE" not in result.output
    assert result.output.strip(), "the block printed nothing"
    assert sorted(p.name for p in folder.parent.iterdir()) == outside_before


def test_the_watch_sees_a_write_outside(folder: Path, tmp_path: Path) -> None:
    """The run check can fail: a block writing next to its folder is caught by the hook."""
    target = tmp_path / "next_to_the_box.txt"
    code = f"open({str(target)!r}, 'w').write('x')\nprint('done')"
    result = run_code("python", _WATCH + code, folder, Limits(seconds=30))
    assert result.exit_status != 0
    assert not target.exists() or "O1-OUTSIDE" in result.output


@pytest.mark.parametrize("block", MALICIOUS, ids=lambda p: p.stem)
def test_near_miss_is_refused(block: Path, folder: Path, policy: dict[str, str]) -> None:
    found = classify("python", block.read_text(), folder)
    assert found.categories & REFUSED, (found.categories, found.reasons)
    assert decide(policy, found).action == "deny"
