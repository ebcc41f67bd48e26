"""Time one code block takes under each isolation mode of o1's sandbox (a benchmark, nothing asserted).

Run from a checkout: ``PYTHONPATH=addon ~/.cache/o1/server-venv/bin/python benchmarks/sandbox.py [--rounds N]``.
Prints the median and 90th percentile wall time of ``run_code`` (start, run, tear-down, cgroup removal) for a
shell ``true`` and a Python ``print(1)``, under: bubblewrap + cgroups (the default), the fallback with cgroups,
and the plain fallback (rlimits and the conversation's uid only). Python blocks are left out of a fallback mode
when the conversation's uid cannot reach the server's Python (see ``sandbox.python_reachable_by_others``).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from o1_server.agent import sandbox

MODES = {"bubblewrap + cgroups": {}, "fallback + cgroups": {"bwrap": False},
         "fallback only": {"bwrap": False, "cgroups": False}}
BLOCKS = {"shell true": ("shell", "true"), "python print(1)": ("python", "print(1)")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30, help="blocks per mode and language (default 30)")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="o1-bench-sandbox-"))
    root.chmod(0o711)
    try:
        folder = sandbox.conversation_dir(root, "bench")
        print(f"{'mode':24} {'block':18} {'median ms':>10} {'p90 ms':>8}")
        for mode, options in MODES.items():
            sandbox.configure(sandbox.DEFAULT_UIDS, **options)
            iso = sandbox.isolation()
            if "bwrap" not in options and not iso.bwrap:
                print(f"{mode:24} skipped: {' '.join(iso.missing)}")
                continue
            for name, (language, code) in BLOCKS.items():
                if language == "python" and not iso.bwrap and not sandbox.python_reachable_by_others():
                    print(f"{mode:24} {name:18} {'n/a (Python not reachable by the uid)':>20}")
                    continue
                times = []
                for _ in range(args.rounds):
                    start = time.perf_counter()
                    result = sandbox.run_code(language, code, folder, sandbox.Limits())
                    times.append((time.perf_counter() - start) * 1000)
                    assert result.exit_status == 0, result.output
                times.sort()
                p90 = times[int(len(times) * 0.9) - 1]
                print(f"{mode:24} {name:18} {statistics.median(times):10.1f} {p90:8.1f}")
    finally:
        sandbox.configure(sandbox.DEFAULT_UIDS)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
