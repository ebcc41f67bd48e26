"""The home kind of the agent benchmark, with HA's own agent and the "prefer handling commands locally" pairing.

    O1_NO_BOOTSTRAP=1 HF_HUB_OFFLINE=1 ~/.cache/o1/server-venv/bin/python benchmarks/agent_home_run.py \\
        [--model qwen2.5-coder-1.5b] [--split dev|test|all] [--modes o1,builtin,local] [--only ids] [--json out]
        [--say 'dim the bedroom lamp to 35%;;unlock the back door||yes']

Starts ``o1-server --llm-model <model>`` (this checkout's code) and runs benchmarks/agent_home_cases.py's cases
(split by id hash) in a real Home Assistant per case (benchmarks/agent_home.py, HA env), once per mode: ``o1``
(the o1 ``home`` agent), ``builtin`` (HA's conversation agent alone), ``local`` (an Assist pipeline preferring
HA's sentences, o1 for the rest). Prints per mode and split the right count, per template, the median / p90 turn
and how many turns HA handled locally. **Test cases are aggregates only**: their text, answers and code are
never printed nor written to ``--json`` (dev rows are). ``--say`` runs conversations of one's own instead, in the
new home, printed in full and never judged: to see what the model writes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "addon")]

from benchmarks.agent import pct, run_home_cases  # noqa: E402
from benchmarks.agent_gen import split_of  # noqa: E402
from benchmarks.agent_home_cases import CASES, probe_cases  # noqa: E402
from tests.support.o1_process import start_o1  # noqa: E402


def table(rows: list[dict[str, Any]], label: str) -> list[str]:
    """Markdown lines: right, per template, turn median / p90, turns handled locally."""
    if not rows:
        return []
    times = [t for r in rows for t in r.get("turn_times", [])]
    local = [x for r in rows for x in r.get("local", []) if x is not None]
    out = [f"| {label} | right | {sum(r['ok'] for r in rows)}/{len(rows)} |"]
    for template in dict.fromkeys(r["id"].rsplit("-", 1)[0] for r in rows):
        part = [r for r in rows if r["id"].rsplit("-", 1)[0] == template]
        out.append(f"| {label} | {template} | {sum(r['ok'] for r in part)}/{len(part)} |")
    if times:
        out.append(f"| {label} | turn median / p90 | {statistics.median(times):.1f} s / {pct(times, 0.9):.1f} s |")
    if local:
        out.append(f"| {label} | turns HA handled locally | {sum(local)}/{len(local)} |")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--split", default="all", choices=["dev", "test", "all"])
    parser.add_argument("--modes", default="o1,builtin,local")
    parser.add_argument("--only", default="", help="comma-separated case ids or templates (home-dim)")
    parser.add_argument("--limit-test", type=int, default=0, help="run only the first N test cases (0: all)")
    parser.add_argument("--json", default="")
    parser.add_argument(
        "--say",
        default="",
        help="conversations of one's own instead of the cases ('a;;b||yes': ';;' between them, '||' between "
        "turns), run in the new home and printed in full, never judged",
    )
    args = parser.parse_args()
    assert all(split_of(c.id) == c.split for c in CASES), "the home cases' split must be agent_gen's"
    if args.say:
        os.environ["O1_BENCH_PROBES"] = args.say  # read by agent_home_cases in the HA harness too
    only = {x for x in args.only.split(",") if x}
    cases = [c for c in CASES if args.split in ("all", c.split) and (not only or only & {c.id, c.id.rsplit("-", 1)[0]})]
    if args.say:
        cases = probe_cases(args.say)
    if args.limit_test:
        test = [c for c in cases if c.split == "test"][: args.limit_test]
        cases = [c for c in cases if c.split == "dev" or c in test]
    import tempfile

    lines, kept = [], []
    with tempfile.TemporaryDirectory(prefix="o1-home-bench-") as tmp:
        server = start_o1(Path(tmp) / "server", "--llm-model", args.model, timeout=600)
        try:
            for mode in [m for m in args.modes.split(",") if m]:
                os.environ["O1_BENCH_MODE"] = mode
                print(f"== {mode}: {len(cases)} cases, load {os.getloadavg()}", flush=True)
                began = time.monotonic()
                (Path(tmp) / mode).mkdir()
                rows = run_home_cases(server, cases, Path(tmp) / mode)
                split = {c.id: c.split for c in cases}
                for row in rows:
                    row["split"] = split[row["id"]]
                    if row["split"] == "probe":
                        kept.append({**row, "mode": mode})
                        print(f"  [{mode}] {row['id']}: {row['answers']!r} {row.get('code')!r} {row['errors']}")
                    elif row["split"] == "dev":
                        kept.append({**row, "mode": mode})
                        mark = "ok " if row["ok"] else "BAD"
                        print(
                            f"  [{mode}] {mark} {row['id']}: {' | '.join(row['answers'])[:160]!r} "
                            f"{row.get('code')!r:.300} {row['errors']}",
                            flush=True,
                        )
                for name in ("dev", "test"):
                    lines += table([r for r in rows if r["split"] == name], f"{mode}, {name}")
                load = "/".join(f"{x:.1f}" for x in os.getloadavg())
                lines.append(f"| {mode} | wall time, load at end | {time.monotonic() - began:.0f} s, {load} |")
        finally:
            server.stop()
    print("\n| mode, split | | |\n|---|---|---|\n" + "\n".join(lines))
    if args.json:
        import json

        Path(args.json).write_text(json.dumps(kept, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
