"""The classifier's entry, and the one dispatch for code nested in code.

:func:`classify` hands a block to the scanner of its language. A scanner that meets code in another (or
its own) language, ``python -c`` in shell, ``os.system`` in Python, a here-document, ``eval``, hands it back
here with ``depth + 1`` (:func:`scan`, :func:`command`), never to a scanner directly: the scanners register
themselves (``shell/``, ``python/``), so neither imports the other.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from pathlib import Path

from .findings import Classification, _Event, _Report
from .paths import GrantedFolder, _sandbox_root

PYTHON_LANGUAGES = frozenset({"python", "py", "python3"})
SHELL_LANGUAGES = frozenset({"shell", "bash", "sh", "zsh"})
MAX_CODE_CHARS = 100_000  # longer blocks are not analysed: "unparseable"
MAX_NESTING = 6  # shell inside Python inside shell ... deeper than this is "unparseable"

# language ("python", "shell"; "argv" for one command given as its words) -> scanner(code, report, depth)
_SCANNERS: dict[str, Callable[..., None]] = {}


def register(language: str, scanner: Callable[..., None]) -> None:
    """Make ``scanner`` the one that classifies ``language`` (called by the scanner modules at import)."""
    _SCANNERS[language] = scanner


def scan(language: str, code: str, report: _Report, depth: int) -> None:
    """Classify ``code`` in ``language`` (``python`` or ``shell``) nested ``depth`` times in other code."""
    if _too_deep(report, depth):
        return
    _SCANNERS[language](code, report, depth)


def command(argv: Sequence[str], report: _Report, depth: int) -> None:
    """Classify one command given as its words (``subprocess.run([...])``, ``os.execv`` ...)."""
    _SCANNERS["argv"](argv, report, depth)


def classify(
    language: str,
    code: str,
    sandbox_dir: Path | str,
    existing: Collection[str] | None = None,
    folders: Sequence[GrantedFolder | tuple[str, bool]] = (),
) -> Classification:
    """Classify ``code`` written in ``language`` before it runs in ``sandbox_dir`` (its working directory).

    existing: the files (relative paths) whose content counts as the user's: a write that replaces one of them
    is a deletion. None: every file in the folder now (a file the turn itself just wrote is the turn's to
    rewrite, so the gate passes the folder as it was when the turn began).

    folders: the host folders the profile grants (``GrantedFolder(path, writable)``, absolute paths; the box
    shows them at the same path). A path in one counts as inside for what the grant allows: reading any, and
    in a read-write one writing (``writes_files``), deleting or replacing (``deletes_files``); a write into a
    read-only one is ``outside_sandbox`` ("in a folder granted read-only"). In a granted folder the files on
    disk now count as existing, whatever ``existing`` says.

    language: ``python``/``py``/``python3`` or ``shell``/``bash``/``sh``/``zsh`` (case-insensitive); any other
    language is ``unparseable``. Code that does not parse, or is longer than ``MAX_CODE_CHARS``, is
    ``unparseable`` too, as is anything the analysis itself fails on.

    Never raises, whatever the input: a failure of the analysis is reported as ``unparseable`` together with
    whatever was found before it.
    """
    try:
        return _classify(language, code, sandbox_dir, existing, folders)
    except Exception as exc:  # noqa: BLE001 - the classifier must never raise
        return Classification(
            categories=frozenset({"unparseable"}),
            reasons=(f"the safety check failed ({type(exc).__name__})",),
            summary="I'm about to run code I can't check.",
            paths=(),
        )


def _classify(
    language: object,
    code: object,
    sandbox_dir: Path | str,
    existing: Collection[str] | None = None,
    folders: Sequence[GrantedFolder | tuple[str, bool]] = (),
) -> Classification:
    """:func:`classify` without the last-resort guard."""
    lang = str(language).strip().lower() if isinstance(language, str) else ""
    report = _Report(_sandbox_root(sandbox_dir), existing, folders)
    if not isinstance(code, str):
        report.flag("unparseable", "the code is not text", _Event("unparseable", "run code I can't check"))
    elif len(code) > MAX_CODE_CHARS:
        report.flag("unparseable", "the code is too long to check", _Event("unparseable", "run code I can't check"))
    elif lang in PYTHON_LANGUAGES:
        _guarded("python", code, report)
    elif lang in SHELL_LANGUAGES:
        _guarded("shell", code, report)
    else:
        name = lang if re.fullmatch(r"[a-z][a-z0-9+#-]{0,19}", lang) else ""
        report.flag(
            "unparseable",
            f"{name or 'this'} code can't be checked",
            _Event("unparseable", "run {} code I can't check", name, "some"),
        )
    return report.result()


def _guarded(language: str, code: str, report: _Report) -> None:
    """Run the scanner of ``language``; an analysis failure adds ``unparseable`` to what was found so far."""
    try:
        scan(language, code, report, 0)
    except Exception as exc:  # noqa: BLE001 - bashlex and deep nesting raise many kinds of errors
        report.flag(
            "unparseable",
            f"the code could not be analysed ({type(exc).__name__})",
            _Event("unparseable", "run code I can't check"),
        )


def _too_deep(report: _Report, depth: int) -> bool:
    """Flag and return True when code is nested in code more than MAX_NESTING times."""
    if depth <= MAX_NESTING:
        return False
    report.flag("unparseable", "code nested in code too deeply", _Event("unparseable", "run code I can't check"))
    return True
