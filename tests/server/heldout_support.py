"""What the held-out sets' check tests share (tests/server/test_heldout2_checks.py to test_heldout5_checks.py).

A case is judged on answers with its files in a fresh folder, after what a right or wrong agent did there
(``run``); ``judged`` tries every right answer (it must pass, with the language rule) and every wrong one and
silence (they must fail on the check alone). Replies stand for what ran: asked before a deletion, a deletion
run, a read outside the folder denied or run, a network call. This module holds no request of any set.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from benchmarks.agent_cases import Case, Result
from benchmarks.agent_checks import judge
from benchmarks.agent_lang import weekday_names

ASKED = {"continue_conversation": True, "code_blocks": [{"decision": "confirm", "category": ["deletes_files"]}]}
RAN_DELETE = {"continue_conversation": False, "code_blocks": [{"decision": "allow", "category": ["deletes_files"]}]}
RAN_OUTSIDE = {"code_blocks": [{"decision": "allow", "category": ["outside_sandbox"]}]}
RAN_OUTSIDE_DELETE = {"code_blocks": [{"decision": "allow", "category": ["outside_sandbox", "deletes_files"]}]}
DENIED = {"code_blocks": [{"decision": "deny", "category": ["outside_sandbox"]}]}
NET = {"code_blocks": [{"decision": "allow", "category": ["network"]}]}
PASSWD_LINE = "root:x:0:0:root:/root:/bin/bash"
PASSWD = f"{PASSWD_LINE}\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n"
Act = Callable[[Path], None]
Spec = str | tuple[list[str], list[dict[str, Any]] | None, Act | None]
"""A right or wrong answer: (answers, replies, act); a plain string is one answer, nothing ran."""


def today() -> dt.date:
    return dt.date.today()


def wd(day: dt.date, lang: str) -> str:
    """The weekday of ``day`` in ``lang``."""
    return weekday_names(lang)[day.weekday()]


def other_wd(day: dt.date, lang: str, shift: int = 2) -> str:
    """Another weekday than ``day``'s, ``shift`` days on, in ``lang``."""
    return weekday_names(lang)[(day.weekday() + shift) % 7]


def until(month: int, day: int) -> int:
    """Days from today to the next ``month``/``day`` (0 when today)."""
    t = today()
    d = dt.date(t.year, month, day)
    if d < t:
        d = dt.date(t.year + 1, month, day)
    return (d - t).days


def write(name: str, text: str, mode: str = "w") -> Act:
    """The agent wrote (``w``) or appended (``a``) ``text`` to ``name``."""

    def act(folder: Path) -> None:
        with (folder / name).open(mode, encoding="utf-8") as f:
            f.write(text)

    return act


def delete(*names: str) -> Act:
    """The agent deleted ``names``."""

    def act(folder: Path) -> None:
        for name in names:
            (folder / name).unlink()

    return act


def two(first: str, second: str) -> Spec:
    """Two answers, nothing ran."""
    return ([first, second], None, None)


def run(
    case: Case,
    answers: list[str],
    folder: Path,
    replies: list[dict[str, Any]] | None = None,
    act: Act | None = None,
    check_only: bool = False,
) -> bool:
    """Judge ``answers`` for ``case`` (its check and the language rule) with its files in a fresh ``folder``,
    after ``act`` (what the agent did); ``check_only``: the case's check alone, without the language rule."""
    folder.mkdir(parents=True)
    for name, text in case.files.items():
        (folder / name).write_text(text, encoding="utf-8")
    if act:
        act(folder)
    padded = [""] * (len(case.turns) - len(answers)) + answers
    result = Result(padded, replies or [{} for _ in padded], folder)
    return case.check(result) if check_only else judge(case, result)


def spec(s: Spec) -> tuple[list[str], list[dict[str, Any]] | None, Act | None]:
    return ([s], None, None) if isinstance(s, str) else s


def judged(case: Case, right: list[Spec], wrong: list[Spec], tmp_path: Path) -> None:
    """Every right answer passes (with the language rule); every wrong one, and silence, fails its check."""
    assert right and wrong
    for i, s in enumerate(right):
        answers, replies, act = spec(s)
        assert run(case, answers, tmp_path / f"right{i}", replies, act), (case.id, answers)
    for i, s in enumerate(wrong):
        answers, replies, act = spec(s)
        assert not run(case, answers, tmp_path / f"wrong{i}", replies, act, check_only=True), (case.id, answers)
    assert not run(case, [""] * len(case.turns), tmp_path / "silent", check_only=True)


def documented(counts: dict[str, Counter[str]], heading: str) -> None:
    """benchmarks/README.md's section ``heading`` gives every kind's and language's count ("money 7", "de 15")."""
    readme = (Path(__file__).resolve().parents[2] / "benchmarks" / "README.md").read_text(encoding="utf-8")
    section = readme.split(heading, 1)[1]
    for kind, n in counts["kind"].items():
        assert f"{kind} {n}" in section, kind
    for lang, n in counts["language"].items():
        assert f"{lang} {n}" in section, lang


def plain(text: str) -> str:
    """``text``'s words, lower case, one space apart."""
    return " ".join(re.findall(r"\w+", text.lower()))


def repeats_none(mine: list[Case], others: Iterable[Case]) -> None:
    """No request of ``mine`` is said twice or said in ``others``, and no file name of ``mine`` is theirs."""
    others = list(others)
    said = {plain(t) for c in others for t in c.turns}
    own = [plain(t) for c in mine for t in c.turns]
    assert len(set(own)) == len(own) and not set(own) & said
    names = {n for c in others for n in c.files}
    assert not {n for c in mine for n in c.files} & names


def fmt(value: float, lang: str, places: int = 2) -> str:
    """``value`` as the agent says it in ``lang``: 1,234.50 in English, 1.234,50 (French 1 234,50) elsewhere."""
    text = f"{value:,.{places}f}"
    if lang == "en":
        return text
    return text.replace(",", "\0").replace(".", ",").replace("\0", " " if lang == "fr" else ".")


def ordinal(day: int) -> str:
    """The English ordinal ending of ``day`` (1st, 2nd, 3rd, 4th, 11th)."""
    return "th" if day in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


def num(text: str) -> float:
    """A number written with a decimal comma (dots between thousands) or a decimal point."""
    return float(text.replace(".", "").replace(",", ".")) if "," in text else float(text)
