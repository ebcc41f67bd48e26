"""Agent benchmark: the evaluation set of benchmarks/agent_cases.py through the real o1 server, per model.

    benchmarks/agent [--models qwen2.5-coder-1.5b,qwen2.5-coder-0.5b,smollm2-135m] [--only id,kind,lang]
                     [--split dev|test|all] [--show-test] [--cases module] [--json out] [--profile default] [--no-home]

For each model it starts ``o1-server --llm-model <model>`` (this checkout's code, the cached server env) on
127.0.0.1 with a fresh data folder, runs every case as its own conversation over the streaming HTTP API
(``POST /api/conversation/stream``), and measures per turn:

- turn time: from sending the request to the ``done`` event;
- first text: from sending to the first ``delta`` event (the first spoken sentence);
- first audio: first text plus the time o1's own text-to-speech takes (Wyoming ``synthesize`` on the same
  server, measured right after the turn) to send the first audio chunk of that sentence;
- LLM memory: the embedded LLM server's peak resident memory (``VmHWM`` of the llama_cpp.server child).

The cases are benchmarks/agent_cases.py's ``all_cases()``: hand-written and generated (benchmarks/agent_gen.py),
in English, German, French and Spanish (each turn sends the case's ``language``), split into ``dev`` and
``test``. A case is right when ``agent_checks.judge`` says so (its check, and for a non-English case an answer
in that language). Per split it prints right/total overall, per kind and per language, median and p90 of each
time, the LLM's repair retries (``reply["retries"]``, 0 when absent) and the memory, models side by side,
and how the wrong cases went wrong (``MISSES``: no reply, refused, broken, no code, language, value) per kind.
**The test split is shown only as aggregates**: no case's text, answer or code is printed or written to
``--json`` unless ``--show-test`` is given (the people tuning the prompt must not see test cases).
Home requests run in a real Home Assistant (the HA env from ``script/bootstrap ha``) holding a test home, through
the o1 conversation agent with the shipped ``home`` profile, against the same server (benchmarks/agent_home.py);
their turn time is Home Assistant's ``conversation.async_converse`` call (no first-text figure). ``--no-home``
skips them (reported as skipped). Timings depend on the machine's load: the load average is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "addon")]

from benchmarks.agent_cases import Case, Result, all_cases  # noqa: E402
from benchmarks.agent_checks import judge  # noqa: E402
from o1_server.agent.sandbox import safe_name  # noqa: E402
from tests.support.o1_process import O1Process, start_o1  # noqa: E402

DEFAULT_MODELS = "qwen2.5-coder-1.5b,qwen2.5-coder-0.5b,smollm2-135m"

# How a wrong case went wrong, first match wins (``miss_class``); the report counts them per kind, so the test
# split's misses can be told apart without reading a case.
MISSES = (
    ("no reply", "a turn ended without a reply (timeout, HTTP or stream error)"),
    ("refused", "a block was refused by the safety policy"),
    ("broken", "the last block of a turn did not run to exit 0 (invalid, raised, killed)"),
    ("no code", "a turn was answered with no block run (from memory or a canned sentence)"),
    ("language", "the check holds but the last answer is not in the case's language"),
    ("value", "every block ran, the answer is in the language, and the check says no"),
)


def miss_class(case: Case, result: Result) -> str:
    """The first of ``MISSES`` that fits a wrong ``result`` of ``case`` (its name)."""
    if result.errors or len(result.replies) < len(case.turns) or not all(result.replies):
        return "no reply"
    blocks = [r.get("code_blocks", []) for r in result.replies]
    if any(b.get("decision") == "deny" for turn in blocks for b in turn):
        return "refused"
    ran = [[b for b in turn if b.get("decision") == "allow"] for turn in blocks]
    if any(turn and turn[-1].get("exit_status") != 0 for turn in ran) or any(
        b.get("decision") == "invalid" for turn in blocks[-1:] for b in turn[-1:]
    ):
        return "broken"
    replies = result.replies
    if any(not turn and not reply.get("continue_conversation") for turn, reply in zip(ran, replies, strict=True)):
        return "no code"
    try:
        holds = bool(case.check(result))
    except Exception:  # noqa: BLE001  a check that trips over an odd answer: the value is what was wrong
        holds = False
    return "language" if holds else "value"


def pct(values: list[float], q: float) -> float | None:
    """The q-quantile (0..1) of ``values`` (nearest rank), or None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def llm_pid(server: O1Process) -> int | None:
    """The llama_cpp.server child of the o1 server, if any."""
    for child in Path(f"/proc/{server.proc.pid}/task").glob("*/children"):
        for pid in child.read_text().split():
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if b"llama_cpp.server" in cmdline:
                return int(pid)
    return None


def peak_rss_mb(pid: int | None) -> float | None:
    """Peak resident memory (VmHWM) of ``pid`` in MiB."""
    if pid is None:
        return None
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


async def first_audio_seconds(server: O1Process, text: str) -> float | None:
    """Seconds from a Wyoming ``synthesize`` of ``text`` to its first audio chunk on the o1 server."""
    from wyoming.audio import AudioChunk
    from wyoming.client import AsyncTcpClient
    from wyoming.tts import Synthesize

    if not text.strip():
        return None
    async with AsyncTcpClient("127.0.0.1", server.wyoming_port) as client:
        start = time.monotonic()
        await client.write_event(Synthesize(text=text).event())
        while True:
            event = await asyncio.wait_for(client.read_event(), 60)
            if event is None:
                return None
            if AudioChunk.is_type(event.type):
                return time.monotonic() - start


async def run_case(
    http: aiohttp.ClientSession, server: O1Process, case: Case, profile: str, timings: dict[str, list[float]]
) -> Result:
    """Run one conversation (each turn sent with ``case.language``); append its turns' timings to ``timings``
    ({"turn", "first_text", "first_audio"}: seconds); return what it produced."""
    cid = f"bench-{case.id}"
    folder = server.data_dir / "sandbox" / safe_name(cid)
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in case.files.items():
        (folder / name).write_text(text, encoding="utf-8")
    result = Result([], [], folder)
    for text in case.turns:
        start = time.monotonic()
        first: float | None = None
        first_text = ""
        reply: dict[str, Any] | None = None
        try:
            async with http.post(
                f"{server.api_url}/api/conversation/stream",
                json={"text": text, "conversation_id": cid, "profile": profile, "language": case.language},
                timeout=aiohttp.ClientTimeout(total=600),
            ) as r:
                if r.status != 200:
                    result.errors.append(f"HTTP {r.status}: {await r.text()}")
                    break
                async for line in r.content:
                    if not line.strip():
                        continue
                    event = json.loads(line)
                    if event["type"] == "delta" and first is None:
                        first, first_text = time.monotonic() - start, event["text"]
                    elif event["type"] == "done":
                        reply = event["reply"]
                    elif event["type"] == "error":
                        result.errors.append(str(event))
        except (TimeoutError, aiohttp.ClientError) as err:
            result.errors.append(repr(err))
        turn = time.monotonic() - start
        if reply is None:
            result.answers.append("")
            result.replies.append({})
            break
        result.answers.append(reply["answer"])
        result.replies.append(reply)
        timings["turn"].append(turn)
        if first is not None:
            timings["first_text"].append(first)
            tts = await first_audio_seconds(server, first_text)
            if tts is not None:
                timings["first_audio"].append(first + tts)
    return result


def run_home_cases(server: O1Process, cases: list[Case], data: Path) -> list[dict[str, Any]]:
    """Run the home ``cases`` in a real Home Assistant against ``server`` (benchmarks/agent_home.py in the HA
    env); return their rows in the order of ``cases`` (a case the harness did not report counts as wrong)."""
    out = data / "home-rows.jsonl"
    out.unlink(missing_ok=True)
    env = {
        **os.environ,
        "O1_BENCH_URL": server.api_url,
        "O1_BENCH_TOKEN": server.token,
        "O1_BENCH_CASES": ",".join(c.id for c in cases),
        "O1_BENCH_OUT": str(out),
        "PYTHONPATH": f"{REPO}:{REPO / 'addon'}",
    }
    cache = Path(os.environ.get("O1_CACHE", Path.home() / ".cache" / "o1"))
    proc = subprocess.run(
        [
            str(cache / "ha-venv" / "bin" / "python"),
            "-m",
            "pytest",
            str(REPO / "benchmarks" / "agent_home.py"),
            "-q",
            "-p",
            "no:cacheprovider",
            "-o",
            "python_functions=bench_*",
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    got = {}
    if out.exists():
        got = {row["id"]: row for row in map(json.loads, out.read_text(encoding="utf-8").splitlines())}
    if len(got) < len(cases):
        print(proc.stdout[-3000:], proc.stderr[-3000:], sep="\n", flush=True)
    return [
        got.get(c.id)
        or {
            "id": c.id,
            "kind": c.kind,
            "ok": False,
            "answers": [],
            "errors": [f"no result from the Home Assistant harness (exit {proc.returncode})"],
        }
        for c in cases
    ]


async def bench_model(model: str, cases: list[Case], args: argparse.Namespace, data: Path) -> dict[str, Any]:
    """Start a server on ``model``, run the cases, stop it; return the figures."""
    extra = ["--llm-model", model]
    server = await asyncio.to_thread(start_o1, data, *extra, timeout=600)
    pid = llm_pid(server)
    rows = []
    hidden = 0
    try:
        async with aiohttp.ClientSession(headers={"Authorization": f"Bearer {server.token}"}) as http:
            for case in cases:
                if case.needs_ha:
                    continue
                timings: dict[str, list[float]] = {"turn": [], "first_text": [], "first_audio": []}
                result = await run_case(http, server, case, args.profile, timings)
                try:
                    ok = judge(case, result)
                except Exception as err:  # noqa: BLE001  a check that trips over an odd answer counts as wrong
                    ok, result.errors = False, [*result.errors, repr(err)]
                retries = sum(int(r.get("retries") or 0) for r in result.replies)
                miss = None if ok else miss_class(case, result)
                rows.append(
                    {
                        "id": case.id,
                        "kind": case.kind,
                        "language": case.language,
                        "split": case.split,
                        "ok": ok,
                        "miss": miss,
                        "retries": retries,
                        "times": timings,
                        "turns": case.turns,
                        "answers": result.answers,
                        "code": [[b["code"] for b in r.get("code_blocks", [])] for r in result.replies],
                        "errors": result.errors,
                    }
                )
                if case.split == "test" and not args.show_test:
                    hidden += 1
                    if hidden % 25 == 0:
                        print(f"  [{model}] {hidden} test cases run", flush=True)
                    continue
                mark = "ok " if ok else "BAD"
                print(f"  [{model}] {mark} {case.id}: {' | '.join(result.answers)[:150]!r}", flush=True)
        home = [c for c in cases if c.needs_ha]
        meta = {c.id: {"language": c.language, "split": c.split, "turns": c.turns} for c in home}
        if home and args.no_home:
            rows += [
                {"id": c.id, "kind": c.kind, **meta[c.id], "ok": None, "answers": [], "why": "--no-home"} for c in home
            ]
        elif home:
            for row in await asyncio.to_thread(run_home_cases, server, home, data):
                row.update(
                    meta[row["id"]],
                    retries=0,
                    times={"turn": row.pop("turn_times", []), "first_text": [], "first_audio": []},
                )
                rows.append(row)
                mark = "ok " if row["ok"] else "BAD"
                print(
                    f"  [{model}] {mark} {row['id']}: {' | '.join(row['answers'])[:150]!r} {row['errors']}", flush=True
                )
        rss = peak_rss_mb(pid)
    finally:
        server.stop()
    return {"model": model, "rows": rows, "llm_rss_mb": rss, "load": os.getloadavg()}


def report(results: list[dict[str, Any]], split: str) -> str:
    """The side-by-side table (markdown) of the rows of ``split`` ("dev", "test" or "all"): aggregates only."""

    def fmt(v: float | None, unit: str = " s") -> str:
        return "-" if v is None else f"{v:.1f}{unit}"

    def rows_of(r: dict[str, Any]) -> list[dict[str, Any]]:
        return [x for x in r["rows"] if split == "all" or x["split"] == split]

    kinds: list[str] = []
    langs: list[str] = []
    for r in results:
        for row in rows_of(r):
            kinds += [row["kind"]] if row["kind"] not in kinds else []
            langs += [row["language"]] if row["language"] not in langs else []
    lines = [
        f"**{split}**",
        "",
        "| | " + " | ".join(r["model"] for r in results) + " |",
        "|---" * (len(results) + 1) + "|",
    ]

    def line(label: str, values: list[str]) -> None:
        lines.append(f"| {label} | " + " | ".join(values) + " |")

    def score(r: dict[str, Any], key: str | None = None, value: str | None = None) -> str:
        rows = [x for x in rows_of(r) if x["ok"] is not None and (key is None or x[key] == value)]
        if not rows:
            return "skipped"
        return f"{sum(x['ok'] for x in rows)}/{len(rows)}"

    def times(r: dict[str, Any], key: str) -> list[float]:
        return [t for x in rows_of(r) for t in x.get("times", {}).get(key, [])]

    line("**right (all)**", [score(r) for r in results])
    for kind in kinds:
        line(f"kind: {kind}", [score(r, "kind", kind) for r in results])
    for lang in langs:
        line(f"language: {lang}", [score(r, "language", lang) for r in results])
    for key, label in (("turn", "turn"), ("first_text", "first sentence"), ("first_audio", "first audio")):
        line(
            f"{label} median / p90",
            [
                f"{fmt(statistics.median(times(r, key)) if times(r, key) else None)} / {fmt(pct(times(r, key), 0.9))}"
                for r in results
            ],
        )
    for name, _ in MISSES:
        line(
            f"wrong: {name}",
            [
                ", ".join(
                    f"{kind} {n}"
                    for kind in kinds
                    if (n := sum(1 for x in rows_of(r) if x.get("miss") == name and x["kind"] == kind))
                )
                or "0"
                for r in results
            ],
        )
    line("retries (total)", [str(sum(x.get("retries") or 0 for x in rows_of(r))) for r in results])
    line("cases that needed a retry", [str(sum(1 for x in rows_of(r) if x.get("retries"))) for r in results])
    line("LLM peak RSS", [fmt(r["llm_rss_mb"], " MiB") if r["llm_rss_mb"] else "-" for r in results])
    line("load average (1/5/15 min) at end", ["/".join(f"{x:.1f}" for x in r["load"]) for r in results])
    return "\n".join(lines)


def visible(results: list[dict[str, Any]], show_test: bool) -> list[dict[str, Any]]:
    """``results`` for --json: the test rows only with ``show_test`` (otherwise their count and score per kind
    and language are in the printed table alone)."""
    return [{**r, "rows": [x for x in r["rows"] if show_test or x["split"] != "test"]} for r in results]


async def main() -> int:
    """Parse the flags, run every model, print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", default=DEFAULT_MODELS, help=f"comma-separated (default {DEFAULT_MODELS})")
    parser.add_argument("--only", default="", help="comma-separated case ids, kinds or languages")
    parser.add_argument("--split", default="all", choices=["dev", "test", "all"])
    parser.add_argument(
        "--show-test", action="store_true", help="print and write the test split's cases (never when tuning the prompt)"
    )
    parser.add_argument("--profile", default="default")
    parser.add_argument("--json", default="", help="write every answer and timing here")
    parser.add_argument("--data-dir", default="", help="keep the servers' data here (default: a temp dir)")
    parser.add_argument("--no-home", action="store_true", help="skip the home requests (no Home Assistant env)")
    parser.add_argument(
        "--cases",
        default="",
        help="a module with its own CASES instead of all_cases(), e.g. benchmarks.agent_heldout (requests written "
        "by an evaluator the tuners never read: all in the test split)",
    )
    args = parser.parse_args()
    only = {x for x in args.only.split(",") if x}
    pool = importlib.import_module(args.cases).CASES if args.cases else all_cases()
    cases = [c for c in pool if (not only or only & {c.id, c.kind, c.language}) and args.split in ("all", c.split)]
    import tempfile

    results = []
    with tempfile.TemporaryDirectory(prefix="o1-agent-bench-") as tmp:
        root = Path(args.data_dir or tmp)
        for model in [m for m in args.models.split(",") if m]:
            print(f"== {model}: {len(cases)} cases (split {args.split}), load {os.getloadavg()}", flush=True)
            results.append(await bench_model(model, cases, args, root / safe_name(model)))
    splits = [args.split] if args.split != "all" else ["dev", "test", "all"]
    print("\n\n".join(report(results, s) for s in splits))
    if args.json:
        Path(args.json).write_text(
            json.dumps(visible(results, args.show_test), indent=1, default=str), encoding="utf-8"
        )
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
