"""`make test` output stays readable: the recorder's SQL statements are not printed."""

from __future__ import annotations

import os
from pathlib import Path
import subprocess
import sys

REPO = Path(__file__).resolve().parents[2]


def test_recorder_tests_print_no_sql() -> None:
    """The tests that run HA's real recorder pass without one SQLAlchemy line in the terminal."""
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/integration/test_logbook_recorded.py", "-q", "-p", "no:cacheprovider"],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "addon"), str(REPO)])},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert " passed" in output
    assert "sqlalchemy" not in output.lower(), output[-3000:]
