"""Runs inside the sandbox: when a Python block ends, report its top-level values for the conversation's next
blocks (agent/carried.py reads the report and strips it from the output).

The report is a line of the output: a record separator, ``o1-values``, the run's token (given by the sandbox:
a file's text cannot forge it), and a JSON object of the names
whose values survive a JSON round trip unchanged (numbers, texts, lists, dicts with text keys), each at most
2000 characters, 16,000 in all. It is written at interpreter exit, also after an uncaught exception
(``atexit``); a block that is killed reports nothing. Standard library only: it runs on the box's Python.
"""

import atexit
import json
import os
import sys

_MARKER = "\n\x1eo1-values "
_MAX_NAMES = 32
_MAX_NAME_CHARS = 64
_MAX_VALUE_CHARS = 2000
_MAX_REPORT_CHARS = 16000


def _values() -> dict[str, object]:
    import __main__

    kept: dict[str, object] = {}
    total = 0
    for name, value in list(vars(__main__).items()):
        if name.startswith("_") or len(name) > _MAX_NAME_CHARS or len(kept) >= _MAX_NAMES or callable(value):
            continue
        try:
            text = json.dumps(value, allow_nan=False)
            if len(text) <= _MAX_VALUE_CHARS and total + len(text) <= _MAX_REPORT_CHARS and json.loads(text) == value:
                kept[name] = value
                total += len(text) + len(name) + 4
        except Exception:  # noqa: BLE001 - anything that is not plain JSON is not carried
            continue
    return kept


def _report(nonce: str) -> None:
    try:
        report = f"{_MARKER}{nonce} {json.dumps(_values())}\n".encode("ascii")
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        os.write(1, report)
    except Exception:  # noqa: BLE001 - the block's own result stands without a report
        pass


def keep(nonce: str) -> None:
    """Report this block's values when it ends, with the run's token ``nonce`` (see the module's docstring)."""
    atexit.register(_report, nonce)
