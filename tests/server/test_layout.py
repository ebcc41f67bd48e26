"""The server's rooms stay livable: no module past 800 lines, short module docstrings (the long story lives in
docs/), no tracker numbers in the code (the tracker is not in the repository), and one way for a block to run."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SERVER = REPO / "addon" / "o1_server"
MAX_LINES = 800
MAX_DOC_LINES = 12
TRACKER = re.compile(r"\bissues? #?\d+|\(#\d+\)", re.I)


def server_modules() -> list[Path]:
    return sorted(p for p in SERVER.rglob("*.py") if "__pycache__" not in p.parts)


def test_no_server_module_is_over_800_lines() -> None:
    long = {str(p.relative_to(SERVER)): n for p in server_modules()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"split these modules (docs/architecture.md shows the rooms): {long}"


def test_module_docstrings_are_short_and_point_to_docs() -> None:
    long = {}
    for path in server_modules():
        if "helpers" in path.relative_to(SERVER).parts:
            continue  # the modules generated code imports: their docstring is their manual (help(o1_ha))
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")), clean=False) or ""
        if len(doc.splitlines()) > MAX_DOC_LINES:
            long[str(path.relative_to(SERVER))] = len(doc.splitlines())
    assert not long, f"move the detail of these module docstrings to docs/: {long}"


def test_no_tracker_numbers_in_code_or_tests() -> None:
    found = []
    for folder in ("addon", "tests", "benchmarks", "script", "custom_components"):
        for path in (REPO / folder).rglob("*.py"):
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if TRACKER.search(line) and path != Path(__file__).resolve():
                    found.append(f"{path.relative_to(REPO)}:{n}")
    assert not found, f"say the fact, not the issue number: {found}"


def test_only_the_gate_runs_code() -> None:
    """run_code is called in exactly one place outside the sandbox package: the session's run step, which the
    gate alone calls (agent/gate.py)."""
    callers = []
    for path in server_modules():
        if "sandbox" in path.relative_to(SERVER).parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                if name == "run_code":
                    callers.append(str(path.relative_to(SERVER)))
    assert callers == ["agent/session.py"], callers
    session = (SERVER / "agent" / "session.py").read_text(encoding="utf-8")
    assert "Gate(turn, self._run_block" in session
