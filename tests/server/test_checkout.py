"""The tests run this checkout's code, never a copy installed in the shared environment cache.

The server environment under ``~/.cache/o1`` is shared by every checkout on a machine (CI's fresh clone
included), so ``o1_server`` must come from this checkout's ``addon/`` folder (``script/test`` and
``script/o1-server`` put it on PYTHONPATH).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import o1_server

REPO = Path(__file__).resolve().parents[2]


def test_o1_server_is_imported_from_this_checkout() -> None:
    """The package the tests import lives in this checkout's addon/ folder."""
    assert Path(o1_server.__file__).resolve().is_relative_to(REPO / "addon" / "o1_server")


def test_the_server_environment_holds_no_copy_of_o1_server(tmp_path: Path) -> None:
    """Without this checkout on PYTHONPATH, the cached environment cannot import o1_server at all."""
    probe = subprocess.run([sys.executable, "-c", "import o1_server"], cwd=tmp_path, capture_output=True,
                           text=True, env={"PATH": "/usr/bin:/bin"})
    assert probe.returncode != 0 and "No module named 'o1_server'" in probe.stderr


def test_the_server_script_runs_this_checkout(tmp_path: Path) -> None:
    """script/o1-server starts this checkout's server (its --help names this checkout's module path)."""
    out = subprocess.run([str(REPO / "script" / "o1-server"), "--help"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "--data-dir" in out.stdout
