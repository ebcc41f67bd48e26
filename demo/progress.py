"""Progress lines on stderr, each stamped with the seconds since the demo started."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

_START = time.monotonic()


def elapsed() -> float:
    """Return the seconds since the demo started."""
    return time.monotonic() - _START


def log(message: str) -> None:
    """Write one progress line to stderr."""
    print(f"[demo {elapsed():6.1f}s] {message}", file=sys.stderr, flush=True)


@contextmanager
def stage(name: str, timings: dict[str, float] | None = None) -> Iterator[None]:
    """Log the start and the duration of a setup stage; record the duration in `timings` if given."""
    log(f"{name} ...")
    if timings is not None:
        timings[name] = 0.0  # keep the stages in the order they started
    began = time.monotonic()
    yield
    took = time.monotonic() - began
    if timings is not None:
        timings[name] = took
    log(f"{name}: done in {took:.1f} s")
