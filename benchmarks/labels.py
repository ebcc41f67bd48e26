"""Labels proven by effects, the long run: many generated blocks classified, run in the real sandbox, judged.

Prints the blocks tried per language and per label, every mismatch (the label claims less than the block did)
with the block's text, and the over-asking count (labelled ``deletes_files``, destroyed nothing). The
generators and the judge are ``benchmarks/labels_gen.py``; the CI-sized run is
``tests/server/test_labels_by_effects.py``. Run it as root (the sandbox's own uids)::

    PYTHONPATH=$PWD/addon:$PWD ~/.cache/o1/server-venv/bin/python benchmarks/labels.py --examples 2000
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, seed, settings

from benchmarks.labels_gen import Box, blocks, label, mismatches, over_asked


@dataclass
class Tally:
    """What one run saw."""

    tried: Counter[str] = field(default_factory=Counter)  # "python" / "shell"
    labels: Counter[str] = field(default_factory=Counter)  # "python: deletes_files+writes_files"
    categories: Counter[str] = field(default_factory=Counter)  # one category at a time
    over_asked: Counter[str] = field(default_factory=Counter)
    processes_seen: Counter[str] = field(default_factory=Counter)
    mismatches: list[dict[str, object]] = field(default_factory=list)

    def add(
        self,
        language: str,
        categories: frozenset[str],
        problems: list[str],
        over: bool,
        code: str,
        processes: int | None,
    ) -> None:
        self.tried[language] += 1
        self.labels[f"{language}: {label(categories)}"] += 1
        for name in categories:
            self.categories[f"{language}: {name}"] += 1
        if over:
            self.over_asked[language] += 1
        if processes is not None:
            self.processes_seen[language] += 1
        if problems:
            self.mismatches.append(
                {"language": language, "label": label(categories), "problems": problems, "code": code}
            )


def run(language: str, examples: int, seed_value: int, box: Box, tally: Tally) -> None:
    """Try ``examples`` generated blocks of ``language``, adding to ``tally`` (never stops on a mismatch)."""

    @seed(seed_value)
    @settings(max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(template=blocks(language))
    def one(template: str) -> None:
        categories, fx, code = box.run(language, template)
        tally.add(
            language, categories, mismatches(language, categories, fx), over_asked(categories, fx), code, fx.processes
        )

    one()


def report(tally: Tally, seconds: float) -> str:
    lines = [
        f"labels proven by effects: {sum(tally.tried.values())} blocks in {seconds:.0f} s "
        f"({', '.join(f'{k} {v}' for k, v in sorted(tally.tried.items()))})",
        "",
        "per label:",
    ]
    lines += [f"  {n:6d}  {name}" for name, n in sorted(tally.labels.items(), key=lambda kv: (-kv[1], kv[0]))]
    lines += ["", "per category:"]
    lines += [f"  {n:6d}  {name}" for name, n in sorted(tally.categories.items())]
    lines += [
        "",
        "over-asking (deletes_files, destroyed nothing): "
        + ", ".join(f"{k} {v}" for k, v in sorted(tally.over_asked.items())),
    ]
    lines += ["process accounting seen: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.processes_seen.items()))]
    lines += ["", f"mismatches: {len(tally.mismatches)}"]
    for m in tally.mismatches:
        lines += [f"--- {m['language']} [{m['label']}]: {'; '.join(m['problems'])}", str(m["code"])]  # type: ignore[arg-type]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=1000, help="blocks per language (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="hypothesis seed (default 1)")
    parser.add_argument("--languages", default="python,shell")
    parser.add_argument("--json", help="also write the tally as JSON to this file")
    args = parser.parse_args(argv)
    box, tally, start = Box(), Tally(), time.monotonic()
    try:
        for language in args.languages.split(","):
            run(language, args.examples, args.seed, box, tally)
    finally:
        box.close()
    print(report(tally, time.monotonic() - start))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(
                {
                    "tried": tally.tried,
                    "labels": tally.labels,
                    "over_asked": tally.over_asked,
                    "mismatches": tally.mismatches,
                },
                out,
                indent=1,
            )
    return 1 if tally.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
