"""benchmarks/agent.py's ``miss_class``: how a wrong case went wrong, read from what the server replied."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benchmarks.agent import MISSES, miss_class, report
from benchmarks.agent_cases import Case, Result


def _case(turns: int = 1, language: str = "de") -> Case:
    return Case("c", "money", ["frage"] * turns, lambda r: "42" in r.answer, language=language)


def _block(decision: str = "allow", exit_status: int | None = 0) -> dict[str, Any]:
    return {"code": "print(42)", "decision": decision, "exit_status": exit_status}


def _result(*replies: tuple[str, list[dict[str, Any]]], errors: list[str] | None = None, **extra: Any) -> Result:
    return Result(
        [a for a, _ in replies],
        [{"answer": a, "code_blocks": b, **extra} for a, b in replies],
        Path("."),
        errors or [],
    )


@pytest.mark.parametrize(
    ("turns", "result", "expected"),
    [
        (1, _result(("", []), errors=["HTTP 504: timeout"]), "no reply"),
        (2, _result(("Das sind 42.", [_block()])), "no reply"),
        (1, _result(("Das darf ich nicht.", [_block("deny", None)])), "refused"),
        (1, _result(("Fehler.", [_block(exit_status=1)])), "broken"),
        (1, _result(("Fehler.", [_block("invalid", None)])), "broken"),
        (2, _result(("Gut, 41.", [_block()]), ("Es sind 41.", [])), "no code"),
        (1, _result(("That is 42.", [_block()])), "language"),
        (1, _result(("Das sind 41.", [_block(exit_status=1), _block()])), "value"),
    ],
)
def test_miss_class(turns: int, result: Result, expected: str) -> None:
    assert miss_class(_case(turns), result) == expected


def test_a_held_block_is_not_a_turn_without_code() -> None:
    held = _result(("Soll ich?", [_block("confirm", None)]), continue_conversation=True)
    assert miss_class(_case(), held) == "value"


def test_the_report_counts_misses_per_kind_only() -> None:
    rows = [
        {"id": "a", "kind": "money", "language": "de", "split": "test", "ok": False, "miss": "value", "turns": ["x"]},
        {"id": "b", "kind": "money", "language": "de", "split": "test", "ok": False, "miss": "value", "turns": ["y"]},
        {"id": "c", "kind": "clock", "language": "en", "split": "test", "ok": False, "miss": "no code", "turns": ["z"]},
        {"id": "d", "kind": "clock", "language": "en", "split": "test", "ok": True, "miss": None, "turns": ["w"]},
    ]
    table = report([{"model": "m", "rows": rows, "llm_rss_mb": None, "load": (0.0, 0.0, 0.0)}], "test")
    assert "| wrong: value | money 2 |" in table
    assert "| wrong: no code | clock 1 |" in table
    assert "| wrong: refused | 0 |" in table
    assert len([x for x in table.splitlines() if x.startswith("| wrong:")]) == len(MISSES)
    assert not any(t in table for t in ("| a", "x", "| c "))
