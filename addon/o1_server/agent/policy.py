"""Safety classifier: what is this code block about to do, and may it run?

Every code block the LLM writes is classified *before* it runs. Python is read with the standard library's
:mod:`ast`, shell with :mod:`bashlex`; nothing is executed. :func:`classify` returns a
:class:`Classification`: the risk categories (:data:`CATEGORIES`), short reasons, the file paths touched and
one spoken sentence describing the block. :func:`decide` turns a classification into allow / confirm / deny
with a profile's policy (category -> decision, the strictest wins).

The analysis is static and fails closed. A Python block is ``read_only`` only when every module it imports,
every name it uses and every attribute it reads is on the allowlist of :mod:`o1_server.agent.allowlist`
(side-effect-free builtins, ``math``, ``statistics``, dates, ``re``, ``json``, ``collections``, pure
``os.path`` functions, directory listings and reads checked against the sandbox, ``o1_ha`` reads ...) or is a
file, process, network or Home Assistant function this module categorises itself. What is not on it makes the
block ``unparseable`` ("code I can't check"); importing a module not on it too. Everything that can run code,
start processes, open sockets, load native code or unpickle is ``process_control`` or ``network``, and so is
any route to a callable other than calling it by name: an alias (``e = exec``), a builtin passed as a value
(``map(exec, ...)``, a decorator, a default argument, a class attribute), ``getattr`` with a computed name,
``__builtins__``, dunder and frame walks (``__globals__``, ``gi_frame.f_globals``), ``vars``/``globals``,
``sys.modules``, a module or private member reached through another module (``o1_ha.os``, ``json.codecs``,
``random._os``), format strings that read attributes. A path is inside the sandbox only when its value is
followed to the end: literals, concatenation, f-strings, ``os.path.join``, ``Path``, simple assignments and
names listed from a folder (``os.listdir``, ``iterdir``, ``os.walk``, ``find``, shell globs); any part known
only at run time (``chr(47) + 'tmp'``, ``input()``, ``os.environ[...]``, ``f'{name}.txt'`` with ``name``
unknown) makes the path ``outside_sandbox``, as do ``os.chdir`` and symlinks to outside. Shell commands are
allowlisted by program (unknown programs are ``process_control``); programs that start other programs
(``python -c``/``-m``, ``bash -c``, ``perl``, ``node``, ``env``, ``timeout``, ``nohup``, ``setsid``, ``xargs``,
``find -exec``, ``awk`` with ``system``/pipes/``getline``, ``sed`` scripts with ``e``/``w``/``r``, ``tar
--to-command``, ``git -c``/``alias``) are ``process_control`` on top of what the inner command does, as is
setting a variable that changes what programs run (``PATH``, ``LD_*``, ``BASH_ENV``, ``GIT_*`` ...). A profile
should therefore never ``allow`` the ``unparseable`` category unless the operating system is its boundary.

Known limits: the classifier is a static reading, the first line of defence, not a sandbox; time and memory
limits and the working directory are enforced by the executor, isolation by the operating system layer.
* Values are followed through the constructs above, not through arbitrary computation: a file name computed
  at run time (``f'report_{today}.txt'`` with ``today`` a variable) counts as outside the sandbox even when it
  is not; numbers and standard-library dates in f-strings are followed. The following is conservative, not
  precise: a name bound on only some paths (a branch, a loop that may not run, a ``try`` body, ``:=``), bound
  again in a loop, changed by a function (``global``) or by ``exec``, a function's parameter (``def
  save(path)``), or a name read by a function or generator that runs later while bound more than once, is
  unknown, so a path made from it counts as outside. Shell variables are followed only when set exactly once.
* Symlinks are judged as they exist when the block is classified. Links the code makes itself are checked
  (``ln -s``, ``os.symlink``, ``Path.symlink_to``), but a link that arrives inside an archive (``tar -x``,
  ``unzip``) or a git checkout and is used in the same block is not seen; in a later block it is followed.
* Attribute names are checked by name, not by type: an attribute on the allowlist (say ``.write``) is allowed
  on any value; that is sound because values of dangerous types can only be reached through names that are
  not on the allowlist. Attributes the block defines itself (class members, ``obj.x = ...``) are allowed.
* Reading what the process is given is not stopped everywhere: Python's ``os.environ`` is not on the
  allowlist, but shell ``printenv``, ``set`` and ``$VAR`` are ``read_only``. Keeping credentials out of the
  code's environment is the Home Assistant broker's job, not the classifier's.
* numpy, pandas and other third-party libraries are not on the allowlist: code using them is ``unparseable``.
* Shell: programs are allowlisted by name; their options are read for the known ways to run commands or
  write files, not every option of every program. bashlex does not support ``case``, ``[[ ]]`` or
  ``$(( ))``: such shell code is ``unparseable``.
* Open Interpreter 0.4.3 deletes the fence's language name from the code's text; the code classified, audited
  and run is that text, consistently.

This module depends only on the standard library and bashlex, not on the agent backend.
"""

from __future__ import annotations

import ast
import itertools
import os
import posixpath
import re
import shlex
import string
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import bashlex
import bashlex.ast

from . import allowlist

CATEGORIES = (
    "read_only",
    "writes_files",
    "deletes_files",
    "outside_sandbox",
    "network",
    "installs_packages",
    "process_control",
    "home_assistant",
    "unparseable",
)
DECISIONS = ("allow", "confirm", "deny")
PYTHON_LANGUAGES = frozenset({"python", "py", "python3"})
SHELL_LANGUAGES = frozenset({"shell", "bash", "sh", "zsh"})

# A part of a string or path whose value is only known at run time (an f-string field, "$VAR", "$(...)").
HOLE = "\u2047"
# A path below a folder the code lists (``os.listdir``, ``Path.iterdir``, ``find``, a shell glob): one or more
# names found there, never ``..`` or absolute. A path holding it stays inside when its folder does.
NAME = "\u2048"
MAX_CODE_CHARS = 100_000  # longer blocks are not analysed: "unparseable"
MAX_NESTING = 6  # shell inside Python inside shell ... deeper than this is "unparseable"
MAX_VALUES = 32  # possible values tracked for one expression
MAX_SUMMARY_WORDS = 25


# --------------------------------------------------------------------------------------------- public shapes


@dataclass(frozen=True)
class Classification:
    """What a code block is about to do.

    categories: non-empty subset of :data:`CATEGORIES`; ``{"read_only"}`` exactly when nothing else applies.
    reasons: short human reasons, e.g. ``"rm deletes 'drafts/a.txt'"``.
    summary: one short spoken sentence (at most 25 words, no code or markdown), e.g.
    ``"I'm about to delete 3 files in drafts."``.
    paths: the file paths the code touches, as written (relative to the sandbox unless absolute).
    """

    categories: frozenset[str]
    reasons: tuple[str, ...]
    summary: str
    paths: tuple[str, ...]


@dataclass(frozen=True)
class Decision:
    """What to do with a classified block: ``action`` is one of :data:`DECISIONS`.

    categories: the categories that decided the action (those whose policy is as strict as ``action``).
    reason: one spoken sentence: why it was denied, or what needs confirmation (the classification summary).
    """

    action: str
    categories: frozenset[str]
    reason: str


def classify(language: str, code: str, sandbox_dir: Path | str) -> Classification:
    """Classify ``code`` written in ``language`` before it runs in ``sandbox_dir`` (its working directory).

    language: ``python``/``py``/``python3`` or ``shell``/``bash``/``sh``/``zsh`` (case-insensitive); any other
    language is ``unparseable``. Code that does not parse, or is longer than ``MAX_CODE_CHARS``, is
    ``unparseable`` too, as is anything the analysis itself fails on.

    Never raises, whatever the input: a failure of the analysis is reported as ``unparseable`` together with
    whatever was found before it.
    """
    try:
        return _classify(language, code, sandbox_dir)
    except Exception as exc:  # noqa: BLE001 - the classifier must never raise
        return Classification(
            categories=frozenset({"unparseable"}),
            reasons=(f"the safety check failed ({type(exc).__name__})",),
            summary="I'm about to run code I can't check.",
            paths=(),
        )


def decide(policy: Mapping[str, str], classification: Classification) -> Decision:
    """Decide allow / confirm / deny for ``classification`` under ``policy``.

    policy maps a category to ``allow``, ``confirm`` or ``deny`` (case and surrounding spaces ignored). The
    strictest decision over the classification's categories wins (deny > confirm > allow); a category missing
    from the policy counts as ``confirm``. Keys that are not categories are ignored.

    Raises ValueError when a value in ``policy`` is not one of :data:`DECISIONS`.
    """
    actions = {category: _policy_action(policy, category) for category in CATEGORIES}
    categories = classification.categories or frozenset({"read_only"})
    action = max((actions.get(c, "confirm") for c in categories), key=_RANK.__getitem__)
    deciding = frozenset(c for c in categories if actions.get(c, "confirm") == action)
    reason = _deny_sentence(deciding) if action == "deny" else classification.summary
    return Decision(action=action, categories=deciding, reason=reason)


# --------------------------------------------------------------------------------------------- decisions

_RANK = {"allow": 0, "confirm": 1, "deny": 2}
_CATEGORY_PHRASES = {
    "read_only": "running code",
    "writes_files": "writing files",
    "deletes_files": "deleting files",
    "outside_sandbox": "touching files outside my working folder",
    "network": "using the internet",
    "installs_packages": "installing software",
    "process_control": "starting or controlling programs",
    "home_assistant": "controlling Home Assistant",
    "unparseable": "running code I can't check",
}


def _policy_action(policy: Mapping[str, str], category: str) -> str:
    """Return the policy's decision for one category (``confirm`` when missing)."""
    value = policy.get(category)
    if value is None:
        return "confirm"
    action = str(value).strip().lower()
    if action not in _RANK:
        raise ValueError(f"policy for {category!r} is {value!r}; expected one of {', '.join(DECISIONS)}")
    return action


def _deny_sentence(categories: Iterable[str]) -> str:
    """One spoken sentence saying which kinds of action this profile does not allow."""
    phrases = [_CATEGORY_PHRASES[c] for c in CATEGORIES if c in categories]
    listed = _join_words(phrases, "or") or "this"
    return f"I won't run that, because this profile doesn't allow {listed}."


def _join_words(words: Sequence[str], conjunction: str = "and") -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {conjunction} {words[-1]}"


# --------------------------------------------------------------------------------------------- findings


@dataclass(frozen=True)
class _Event:
    """One thing worth saying in the summary: ``template`` with ``{}`` for the target (or ``fallback``)."""

    kind: str
    template: str
    target: str = ""
    fallback: str = ""


# Order in which events are spoken, most serious first.
_EVENT_ORDER = (
    "download_run",
    "fork_bomb",
    "delete",
    "install",
    "network",
    "write",
    "home_assistant",
    "process",
    "outside",
    "unparseable",
    "read",
)
_FILE_EVENTS = frozenset({"delete", "write", "outside", "read"})
_GENERIC_CLAUSES = {
    "deletes_files": ("delete", "delete some files"),
    "outside_sandbox": ("outside", "touch files outside my working folder"),
    "installs_packages": ("install", "install software"),
    "process_control": ("process", "start or control other programs"),
    "network": ("network", "use the internet"),
    "writes_files": ("write", "change some files"),
    "home_assistant": ("home_assistant", "control Home Assistant"),
    "unparseable": ("unparseable", "run code I can't check"),
    "read_only": ("read", "run code that only reads and calculates"),
}


class _Report:
    """Mutable findings of one :func:`classify` call: categories, reasons, paths and summary events."""

    def __init__(self, sandbox: str) -> None:
        self.sandbox = sandbox
        self.categories: dict[str, None] = {}
        self.reasons: dict[str, None] = {}
        self.paths: dict[str, None] = {}
        self.events: dict[_Event, None] = {}

    def flag(self, category: str, reason: str, event: _Event | None = None) -> None:
        """Add a category with its reason, and optionally what to say about it."""
        self.categories[category] = None
        self.reasons[reason] = None
        if event is not None:
            self.events[event] = None

    def note(self, event: _Event) -> None:
        """Add something to say in the summary without a category (e.g. a file that is read)."""
        self.events[event] = None

    def touch(self, path: str, kind: str, template: str) -> None:
        """Record a path the code reads (kind ``read``), writes or deletes; flag it if it leaves the sandbox."""
        if not path:
            return
        if HOLE not in path and NAME not in path:
            self.paths[path] = None
        if path.startswith(("/dev/tcp/", "/dev/udp/")):
            host = path.split("/")[3] if path.count("/") >= 3 else ""
            self.flag("network", f"{_quote(path)} opens a network connection",
                      _Event("network", "connect to {}", host if HOLE not in host else "", "the internet"))
        if kind in ("write", "delete") and _is_git_control(path):
            self.flag("process_control", f"{_quote(path)} holds git settings or hooks, which run programs",
                      _Event("process", "change git settings that run programs"))
        outside = _is_outside(path, self.sandbox)
        if outside:
            self.flag("outside_sandbox", f"{_quote(path)} is outside the sandbox")
            if kind == "read":
                kind, template = "outside", "read {} outside my working folder"
        prefix = path.split(HOLE)[0]
        if HOLE in path and not (prefix and _is_outside(prefix, self.sandbox)):
            self.note(_Event(kind, template, "", "a file whose name I can't check"))
        else:
            self.note(_Event(kind, template, path))

    def candidate(self, text: str) -> None:
        """Check a string that may be a path (it is not known to be one) against the sandbox."""
        if text in self.paths or HOLE in text or not _looks_like_path(text) or not _is_outside(text, self.sandbox):
            return
        if NAME not in text:
            self.paths[text] = None
        self.flag(
            "outside_sandbox",
            f"{_quote(text)} is outside the sandbox",
            _Event("outside", "look at {} outside my working folder", text),
        )

    def result(self) -> Classification:
        """Freeze the findings."""
        categories = frozenset(self.categories) or frozenset({"read_only"})
        reasons = tuple(self.reasons) or ("only reads and calculates",)
        return Classification(
            categories=categories,
            reasons=reasons,
            summary=_summary(list(self.events), categories),
            paths=tuple(self.paths),
        )


def _quote(text: str, limit: int = 60) -> str:
    """A short quoted rendering of a path or command for reasons."""
    text = text.replace(HOLE, "...").replace(NAME, "*").replace("\n", " ")
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return f"'{text}'"


def _quote_all(items: Sequence[str], limit: int = 3) -> str:
    """Quote up to ``limit`` items: "'a', 'b' and 2 more"."""
    shown = [_quote(i) for i in items[:limit]]
    if len(items) > limit:
        shown.append(f"{len(items) - limit} more")
    return _join_words(shown)


# --------------------------------------------------------------------------------------------- paths

_SAFE_DEVICES = frozenset(
    {"/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero", "/dev/random", "/dev/urandom"}
)
_URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://")
_GLOB_CHARS = frozenset("*?[")


def _sandbox_root(sandbox_dir: Path | str) -> str:
    """The sandbox as an absolute path with symlinks resolved."""
    return os.path.realpath(os.fspath(sandbox_dir))


def _looks_like_path(text: str) -> bool:
    """Whether a string could name a file outside the working directory (absolute, ``~`` or ``..``)."""
    if not text or len(text) > 4096 or "\n" in text or _URL.match(text):
        return False
    return text.startswith(("/", "~")) or ".." in text.split("/")


def _is_outside(path: str, sandbox: str) -> bool:
    """Whether ``path`` (relative to ``sandbox`` unless absolute) may point outside the sandbox.

    ``~`` always counts as outside: the home directory of whatever runs the code is not the sandbox. Symlinks
    that exist are followed. Fails closed: a path holding a value only known at run time (HOLE) counts as
    outside, wherever that value is (``chr(47) + 'tmp/x'``, ``input()``, ``f'{name}.txt'``); a name listed
    from a folder (NAME) stands for one entry of that folder.
    """
    if not path or _URL.match(path):
        return False
    if HOLE in path:
        return True
    if path in _SAFE_DEVICES or path.startswith("/dev/fd/"):
        return False
    if path.startswith("~"):
        return True
    candidate = os.path.join(sandbox, path.replace(NAME, "x").replace("\0", ""))
    try:
        resolved = os.path.realpath(candidate)
    except (OSError, ValueError):
        resolved = os.path.normpath(candidate)
    root = sandbox.rstrip(os.sep)
    return not (resolved == sandbox or resolved.startswith(root + os.sep))


def _is_git_control(path: str) -> bool:
    """Whether a written path is git's configuration or hooks (``git status`` then runs what they name)."""
    parts = path.replace(HOLE, "x").split("/")
    return ".git" in parts[:-1] or parts[-1] in (".git", ".gitconfig", ".gitattributes")


def _host_of(text: str) -> str:
    """The host name in a URL, ``user@host:path`` or ``host/path`` argument ('' when none is visible)."""
    if _URL.match(text):
        try:
            host = urlsplit(text).hostname or ""
        except ValueError:
            host = ""
    else:
        host = text.split("@")[-1].split(":")[0].split("/")[0]
    return host if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9.-]*", host or "") else ""


# --------------------------------------------------------------------------------------------- summary

_SPECIAL_PLACES = {
    ".": "everything in my working folder",
    "./": "everything in my working folder",
    "*": "everything in my working folder",
    "./*": "everything in my working folder",
    "/": "everything on the computer",
    "/*": "everything on the computer",
    "~": "your home folder",
    "~/": "your home folder",
    "~/*": "everything in your home folder",
    "..": "the folder above my working folder",
}
_SPEAKABLE = re.compile(r"[\w.~/ -]{1,48}")


def _summary(events: list[_Event], categories: frozenset[str]) -> str:
    """One spoken sentence: the two most serious things the code does, at most 25 words."""
    events = _drop_redundant(events)
    clauses = _event_clauses(events) + _generic_clauses(events, categories)
    if not clauses:
        clauses = [_GENERIC_CLAUSES["read_only"][1]]
    for count in (2, 1):
        sentence = re.sub(r"[_\s]+", " ", f"I'm about to {' and '.join(clauses[:count])}.")
        if len(sentence.split()) <= MAX_SUMMARY_WORDS:
            return sentence
    return "I'm about to run code that needs your permission."


def _drop_redundant(events: list[_Event]) -> list[_Event]:
    """Leave out what a more specific event already says (the download of ``curl x | sh``, forks of a bomb)."""
    kinds = {e.kind for e in events}
    run_hosts = {e.target for e in events if e.kind == "download_run"}
    acted_on = {e.target for e in events if e.kind in ("delete", "write", "read")}
    kept = []
    for event in events:
        if event.kind == "process" and kinds & {"fork_bomb", "download_run"}:
            continue
        if event.kind == "network" and event.target in run_hosts:
            continue
        if event.kind == "outside" and "look at {}" in event.template and event.target in acted_on:
            continue
        kept.append(event)
    return kept


def _event_clauses(events: list[_Event]) -> list[str]:
    """Clauses for the events, grouped by (kind, template), most serious first."""
    groups: dict[tuple[str, str, str], list[str]] = {}
    for event in events:
        groups.setdefault((event.kind, event.template, event.fallback), []).append(event.target)
    ordered = sorted(groups.items(), key=lambda item: _EVENT_ORDER.index(item[0][0]))
    clauses = []
    for (kind, template, fallback), targets in ordered:
        if kind == "read" and len(clauses) > 0:
            continue  # reading is not worth mentioning next to anything else
        obj = _files_phrase(targets, fallback) if kind in _FILE_EVENTS else _names_phrase(targets, fallback)
        if kind == "outside" and all(t in _SPECIAL_PLACES for t in targets):
            template = template.replace(" outside my working folder", "")  # the place already says where
        clauses.append(template.replace("{}", obj))
    return clauses


def _generic_clauses(events: list[_Event], categories: frozenset[str]) -> list[str]:
    """Clauses for the categories no event speaks about (e.g. ``import socket`` alone)."""
    kinds = {event.kind for event in events}
    kinds |= {"network", "process"} if "download_run" in kinds else set()
    kinds |= {"process"} if "fork_bomb" in kinds else set()
    kinds |= {"outside"} if kinds & {"delete", "write"} else set()
    clauses = []
    for category, (kind, clause) in _GENERIC_CLAUSES.items():
        if category in categories and category != "read_only" and kind not in kinds:
            clauses.append(clause)
    return clauses


def _speak_path(path: str) -> str | None:
    """A path as it can be spoken, or None when it is too long or contains symbols."""
    if path in _SPECIAL_PLACES:
        return _SPECIAL_PLACES[path]
    path = path.rstrip("/") or path
    if len(path) > 40:
        path = posixpath.basename(path)
    return path if _SPEAKABLE.fullmatch(path) else None


def _files_phrase(targets: Sequence[str], fallback: str) -> str:
    """'drafts/a.txt', '3 files in drafts', 'files in drafts', 'everything on the computer' ..."""
    paths = list(dict.fromkeys(t for t in targets if t))
    if not paths:
        return fallback or "some files"
    special = [p for p in paths if p in _SPECIAL_PLACES]
    if special:
        return _SPECIAL_PLACES[special[0]]
    vague = [p for p in paths if HOLE in p or NAME in p or _GLOB_CHARS & set(p) or _speak_path(p) is None]
    if len(paths) == 1 and not vague:
        return _speak_path(paths[0]) or "a file"
    parents = {None if p.startswith((HOLE, NAME)) else posixpath.dirname(p.rstrip("/")).split(HOLE)[0].split(NAME)[0]
               for p in paths}
    parent = parents.pop() if len(parents) == 1 else None
    spoken_parent = _place(parent) if parent is not None else None
    place = f" in {spoken_parent}" if spoken_parent else ""
    if vague:
        return f"files{place}" if place else (fallback or "some files")
    return f"{len(paths)} files{place}"


def _place(folder: str) -> str | None:
    """A folder as spoken after "in": 'drafts', 'my working folder', 'your home folder' (None if unspeakable)."""
    folder = folder.rstrip("/") or folder
    if folder in ("", "."):
        return "my working folder"
    if folder in ("/", "~"):
        return {"/": "the top folder", "~": "your home folder"}[folder]
    return None if _GLOB_CHARS & set(folder) else _speak_path(folder)


def _names_phrase(targets: Sequence[str], fallback: str) -> str:
    """'example.com', 'requests and httpx', 'a.example and 2 more' ... (``fallback`` when unspeakable)."""
    names = list(dict.fromkeys(t for t in targets if t and HOLE not in t and NAME not in t))
    speakable = [n for n in names if _SPEAKABLE.fullmatch(n)]
    if not names or len(speakable) < len(names):
        return fallback or "something"
    if len(names) <= 2:
        return _join_words(names)
    return f"{names[0]} and {len(names) - 1} more"


# --------------------------------------------------------------------------------------------- entry


def _classify(language: object, code: object, sandbox_dir: Path | str) -> Classification:
    """:func:`classify` without the last-resort guard."""
    lang = str(language).strip().lower() if isinstance(language, str) else ""
    report = _Report(_sandbox_root(sandbox_dir))
    if not isinstance(code, str):
        report.flag("unparseable", "the code is not text", _Event("unparseable", "run code I can't check"))
    elif len(code) > MAX_CODE_CHARS:
        report.flag("unparseable", "the code is too long to check", _Event("unparseable", "run code I can't check"))
    elif lang in PYTHON_LANGUAGES:
        _guarded(_scan_python, code, report)
    elif lang in SHELL_LANGUAGES:
        _guarded(_scan_shell, code, report)
    else:
        name = lang if re.fullmatch(r"[a-z][a-z0-9+#-]{0,19}", lang) else ""
        report.flag(
            "unparseable",
            f"{name or 'this'} code can't be checked",
            _Event("unparseable", "run {} code I can't check", name, "some"),
        )
    return report.result()


def _guarded(scan: Callable[[str, _Report, int], None], code: str, report: _Report) -> None:
    """Run a scanner; an analysis failure adds ``unparseable`` to what was found so far."""
    try:
        scan(code, report, 0)
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


# --------------------------------------------------------------------------------------------- shell

_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "ash", "fish", "busybox"})
_PYTHON_NAME = re.compile(r"(python|pypy)(\d+(\.\d+)?)?")
_PIP_NAME = re.compile(r"pip(\d+(\.\d+)?)?")
_INTERPRETERS = _SHELLS | frozenset(
    {"perl", "ruby", "node", "nodejs", "php", "lua", "Rscript", "deno", "bun", "osascript"}
)
_QUIET = frozenset(
    {"echo", "printf", "expr", "bc", "date", "true", "false", ":", "test", "[", "seq", "sleep", "export", "unset",
     "local", "declare", "typeset", "readonly", "let", "set", "shift", "return", "exit", "break", "continue",
     "read", "wait", "jobs", "type", "alias", "pwd", "whoami", "id", "uname", "uptime", "nproc", "free",
     "ps", "cal", "factor", "history", "printenv", "which", "whereis", "hostname", "lscpu", "lsblk", "getconf"}
)
_READERS = frozenset(
    {"ls", "cat", "head", "tail", "wc", "less", "more", "tac", "nl", "sort", "uniq", "cut", "tr", "paste", "join",
     "comm", "column", "fold", "fmt", "rev", "md5sum", "sha1sum", "sha256sum", "sha512sum", "cksum", "file", "stat",
     "du", "df", "tree", "realpath", "readlink", "basename", "dirname", "diff", "cmp", "od", "hexdump", "xxd",
     "strings", "base64", "cd", "pushd", "popd", "locate", "numfmt", "shuf", "look"}
)
_PATTERN_READERS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "jq", "yq"})
_READ_VALUE_OPTS = frozenset({"-n", "-c", "-e", "-f", "-m", "-A", "-B", "-C", "-k", "-t", "-d", "-b", "-o", "-S"})
_NETWORK = frozenset(
    {"curl", "wget", "nc", "ncat", "netcat", "ssh", "scp", "sftp", "ping", "ping6", "ftp", "telnet", "socat",
     "dig", "nslookup", "host", "whois", "traceroute", "tracepath", "http", "https", "aria2c", "lftp", "mosh",
     "ssh-keyscan", "mtr"}
)
_NET_VALUE_OPTS = frozenset(
    {"-o", "-X", "-H", "-d", "-u", "-A", "-e", "-x", "-T", "-F", "-w", "-m", "-b", "-c", "-K", "-r", "-O", "-P",
     "-t", "-U", "-p", "-i", "-l", "-L", "-R", "-D", "-J", "-W", "-s", "-I", "--output", "--header", "--data",
     "--request", "--user", "--max-time", "--connect-timeout", "--user-agent"}
)
_INSTALLERS = frozenset(
    {"pipx", "apt", "apt-get", "aptitude", "dpkg", "npm", "npx", "yarn", "pnpm", "brew", "conda", "mamba",
     "micromamba", "uv", "uvx", "poetry", "pipenv", "gem", "cargo", "snap", "flatpak", "apk", "yum", "dnf",
     "pacman", "zypper", "port", "easy_install", "opkg"}
)
_PROCESS_PHRASES = {
    "kill": "stop running programs",
    "pkill": "stop running programs",
    "killall": "stop running programs",
    "shutdown": "shut down the computer",
    "poweroff": "shut down the computer",
    "halt": "shut down the computer",
    "reboot": "restart the computer",
    "systemctl": "control system services",
    "service": "control system services",
    "launchctl": "control system services",
    "crontab": "schedule commands to run later",
    "at": "schedule commands to run later",
    "batch": "schedule commands to run later",
    "mount": "mount or unmount disks",
    "umount": "mount or unmount disks",
    "docker": "run containers",
    "podman": "run containers",
    "kubectl": "run containers",
    "trap": "change how the shell handles signals",
    "ulimit": "change the limits on running programs",
    "disown": "leave a program running in the background",
}
# Commands that run another command: (spoken clause when the wrapper itself is process_control, else None;
# options taking a value; leading operands that are not the command, such as timeout's duration).
_WRAPPERS: dict[str, tuple[str | None, frozenset[str], int]] = {
    "sudo": ("run a command as administrator", frozenset({"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"}), 0),
    "doas": ("run a command as administrator", frozenset({"-u", "-C"}), 0),
    "pkexec": ("run a command as administrator", frozenset({"--user"}), 0),
    "runuser": ("run a command as another user", frozenset({"-u", "-g", "-G", "-l"}), 0),
    "nohup": ("start a program that keeps running in the background", frozenset(), 0),
    "setsid": ("start a program that keeps running in the background", frozenset(), 0),
    "exec": ("replace the shell with another program", frozenset({"-a"}), 0),
    "chroot": ("run a command in another root folder", frozenset({"--userspec", "--groups"}), 1),
    "time": (None, frozenset({"-f", "-o"}), 0),
    # timeout puts the command in a process group of its own, so the block's limits can't stop it.
    "timeout": ("start a program outside my time limit", frozenset({"-s", "-k", "--signal", "--kill-after"}), 1),
    "nice": (None, frozenset({"-n", "--adjustment"}), 0),
    "ionice": (None, frozenset({"-c", "-n", "-p", "-t"}), 0),
    "stdbuf": (None, frozenset({"-i", "-o", "-e"}), 0),
    "command": (None, frozenset(), 0),
    "builtin": (None, frozenset(), 0),
    # env can set variables that change what the command runs (LD_PRELOAD, PATH ...) or split -S strings.
    "env": ("run a program with a changed environment", frozenset({"-u", "-C", "-S", "--unset", "--chdir"}), 0),
    "watch": ("run a command again and again", frozenset({"-n", "-d", "--interval"}), 0),
}
_FILE_VALUE_OPTS = frozenset({"-t", "-S", "-m", "-d", "-r", "-n", "-s", "-T", "-e", "--suffix", "--mode", "--size"})
_GIT_NETWORK = frozenset({"clone", "pull", "fetch", "push", "ls-remote", "submodule", "remote"})
_GIT_READ = frozenset(
    {"status", "log", "diff", "show", "rev-parse", "ls-files", "blame", "describe", "shortlog", "grep", "help",
     "version", "--version", "branch", "tag", "config"}
)
_PY_MODULE_CLAUSES = {
    "venv": ("writes_files", "create a Python environment"),
    "virtualenv": ("writes_files", "create a Python environment"),
    "http.server": ("network", "share files on the network"),
    "SimpleHTTPServer": ("network", "share files on the network"),
    "smtpd": ("network", "start a mail server"),
}
_PY_READ_MODULES = frozenset({"json.tool", "this", "timeit", "calendar", "platform", "sysconfig", "site", "tokenize"})


def _scan_shell(code: str, report: _Report, depth: int) -> None:
    """Classify shell code; bashlex parse errors make it ``unparseable``."""
    if _too_deep(report, depth):
        return
    if all(not line.strip() or line.lstrip().startswith("#") for line in code.splitlines()):
        return  # nothing but blank lines and comments
    code, quoted = _unquote_heredocs(code)
    try:
        if any("}" not in code[m.end() :] for m in re.finditer(r"\$\{", code)):
            raise ValueError("'${' without a closing '}'")  # bashlex would loop on it
        trees = _parse_bash(code)
    except Exception as exc:  # noqa: BLE001 - bashlex raises ParsingError, NotImplementedError and others
        report.flag(
            "unparseable",
            f"the shell code could not be parsed ({_short_error(exc)})",
            _Event("unparseable", "run shell code I can't check"),
        )
        return
    _ShellScanner(report, depth, code, quoted).scan(trees)


class _ParseBudgetExceeded(BaseException):
    """bashlex worked too long on one input (it loops forever on some malformed words).

    A BaseException, so that no ``except Exception`` inside the parser swallows it.
    """

    def __str__(self) -> str:
        return "the parser gave up"


class _CallBudget:
    """A trace function that aborts the traced code after ``calls`` Python calls or ``seconds``."""

    def __init__(self, calls: int, seconds: float) -> None:
        self.left = calls
        self.deadline = time.monotonic() + seconds

    def __call__(self, frame: object, event: str, arg: object) -> None:
        self.left -= 1
        if self.left < 0 or time.monotonic() > self.deadline:
            raise _ParseBudgetExceeded
        return None  # no line tracing: only calls are counted


def _parse_bash(code: str) -> list[bashlex.ast.node]:
    """bashlex.parse with a budget: about 3 times the calls and time that real scripts of that length need."""
    previous = sys.gettrace()
    sys.settrace(_CallBudget(calls=20_000 + 100 * len(code), seconds=min(5.0, 1.0 + len(code) / 5000)))
    try:
        return bashlex.parse(code)
    except _ParseBudgetExceeded as exc:
        raise ValueError(str(exc)) from None
    finally:
        sys.settrace(previous)


_QUOTED_HEREDOC = re.compile(r"<<(-?)[ \t]*(['\"])([A-Za-z_][A-Za-z0-9_]*)\2")


def _unquote_heredocs(code: str) -> tuple[str, frozenset[str]]:
    """bashlex can't parse ``<<'EOF'``: drop the quotes, remembering which delimiters were quoted."""
    quoted = frozenset(m.group(3) for m in _QUOTED_HEREDOC.finditer(code))
    return _QUOTED_HEREDOC.sub(r"<<\1\3", code), quoted


def _short_error(exc: Exception) -> str:
    """A one-line, short rendering of a parser error."""
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:80]


def _children(node: bashlex.ast.node) -> Iterator[bashlex.ast.node]:
    """The child nodes of any bashlex node, in source order."""
    for name in ("parts", "list"):
        yield from (c for c in getattr(node, name, None) or () if isinstance(c, bashlex.ast.node))
    for name in ("command", "output", "heredoc"):
        child = getattr(node, name, None)
        if isinstance(child, bashlex.ast.node):
            yield child
    yield from getattr(node, "redirects", None) or ()


def _walk(node: bashlex.ast.node) -> Iterator[bashlex.ast.node]:
    """All nodes under ``node`` (itself included), depth first."""
    yield node
    for child in _children(node):
        yield from _walk(child)


class _ShellScanner:
    """Walks a bashlex tree: every command (in lists, pipelines, compounds, substitutions), redirect and function."""

    def __init__(self, report: _Report, depth: int, source: str, quoted: frozenset[str] = frozenset()) -> None:
        self.report = report
        self.depth = depth
        self.source = source
        self.quoted_heredocs = quoted
        self.env: dict[str, str] = {}
        self.functions: set[str] = set()
        self.commands = _Commands(report, depth)

    def scan(self, trees: list[bashlex.ast.node]) -> None:
        """Classify every node of the parsed trees."""
        self.functions = {
            self.word(node.parts[0])
            for tree in trees
            for node in _walk(tree)
            if node.kind == "function" and node.parts and node.parts[0].kind == "word"
        }
        for tree in trees:
            self.visit(tree)

    def visit(self, node: bashlex.ast.node) -> None:
        """Classify one node, then its children."""
        handler = {
            "command": self.command,
            "pipeline": self.pipeline,
            "function": self.function,
            "redirect": self.redirect,
            "assignment": self.assignment,
            "for": self.for_loop,
        }.get(node.kind)
        if handler is not None:
            handler(node)
        for child in _children(node):
            self.visit(child)

    def word(self, node: bashlex.ast.node) -> str:
        """The static value of a word: ``$HOME`` is ``~``, known variables are substituted, the rest is HOLE.

        What bash expands in ways not followed here is HOLE too: ``$'\\x2f'`` quoting, brace expansion
        (``{/etc/passwd,x}``) and a glob that may match ``..`` (``.?``, ``.*``)."""
        raw = self.source[node.pos[0] : node.pos[1]]
        if "$'" in raw or '$"' in raw:
            return HOLE
        if not raw.startswith(("'", '"')) and re.search(r"\{[^{}\s'\"]*(,|\.\.)[^{}\s'\"]*\}", raw):
            return HOLE
        return _dot_globs(self.plain_word(node))

    def plain_word(self, node: bashlex.ast.node) -> str:
        """A word's value with its variables and substitutions replaced."""
        parts = [p for p in getattr(node, "parts", None) or () if p.kind != "tilde"]
        if not parts:
            return _unquote(self.source[node.pos[0] : node.pos[1]], node.word)
        text = node.word
        for part in parts:
            if part.kind == "parameter":
                value = self.env.get(part.value, {"HOME": "~", "PWD": "."}.get(part.value, HOLE))
            elif part.kind in ("commandsubstitution", "processsubstitution"):
                value = HOLE
            else:
                continue
            text = text.replace(self.source[part.pos[0] : part.pos[1]], value, 1)
        return text

    def argv(self, node: bashlex.ast.node) -> list[str]:
        """The static words of a command node."""
        return [self.word(p) for p in node.parts if p.kind == "word"]

    def command(self, node: bashlex.ast.node) -> None:
        """Classify a simple command by its words and its here-document."""
        argv = self.argv(node)
        if not argv or argv[0] in self.functions:
            return  # assignments only, or a call of a function whose body is classified where it is defined
        heredoc = None
        for part in node.parts:
            if part.kind == "redirect" and isinstance(getattr(part, "heredoc", None), bashlex.ast.node):
                heredoc = part.heredoc.value.rsplit("\n", 1)[0]
                if self.word(part.output) not in self.quoted_heredocs:
                    self.heredoc_substitutions(heredoc)
        self.commands.scan(argv, stdin_code=heredoc)

    def heredoc_substitutions(self, body: str) -> None:
        """An unquoted here-document expands ``$(...)`` and backticks: classify those commands too."""
        if "$(" not in body and "`" not in body:
            return
        wrapped = ': "' + body.replace("\\", "\\\\").replace('"', '\\"') + '"'
        _scan_shell(wrapped, self.report, self.depth + 1)

    def pipeline(self, node: bashlex.ast.node) -> None:
        """Find downloads piped into an interpreter (``curl x | sh``) and echoed code piped into one."""
        hosts: list[str] = []
        previous: list[str] = []
        for part in node.parts:
            if part.kind != "command":
                continue
            argv = self.argv(part)
            name = _command_name(argv)
            if name in _INTERPRETERS or _PYTHON_NAME.fullmatch(name):
                self.piped_into(name, hosts, previous)
            if name in _NETWORK:
                hosts.extend(_hosts_in(argv[1:]) or [""])
            previous = argv

    def piped_into(self, name: str, hosts: list[str], previous: list[str]) -> None:
        """An interpreter reads its program from a pipe: say where the program comes from."""
        if hosts:
            for host in hosts:
                self.report.flag(
                    "process_control",
                    f"pipes a download into {name}",
                    _Event("download_run", "download a script from {} and run it", host, "the internet"),
                )
        elif _command_name(previous) in ("echo", "printf") and len(previous) > 1:
            language = "python" if _PYTHON_NAME.fullmatch(name) else "shell" if name in _SHELLS else ""
            if language:
                self.report.flag("process_control", f"pipes code into {name}")
                scan = _scan_python if language == "python" else _scan_shell
                scan(" ".join(previous[1:]), self.report, self.depth + 1)

    def function(self, node: bashlex.ast.node) -> None:
        """A function that calls itself (``:(){ :|:& };:``) is a fork bomb."""
        name = self.word(node.parts[0]) if node.parts and node.parts[0].kind == "word" else ""
        body = node.parts[-1] if node.parts else None
        if not name or body is None:
            return
        calls_itself = any(
            n.kind == "command" and self.argv(n)[:1] == [name] for n in _walk(body)
        )
        if calls_itself:
            self.report.flag(
                "process_control",
                f"function {_quote(name)} calls itself, like a fork bomb",
                _Event("fork_bomb", "start a fork bomb that floods the computer with processes"),
            )

    def redirect(self, node: bashlex.ast.node) -> None:
        """``>``/``>>`` into a file writes it; ``<`` reads it; every target is checked against the sandbox."""
        target = node.output if isinstance(getattr(node, "output", None), bashlex.ast.node) else None
        if target is None or target.kind != "word" or node.type in ("<<", "<<-", "<<<"):
            return
        path = self.word(target)
        if node.type == "<":
            self.report.touch(path, "read", "read {}")
        elif node.type == ">&" and path.isdigit():
            return
        elif path not in _SAFE_DEVICES:
            self.report.flag("writes_files", f"redirects output into {_quote(path)}")
            self.report.touch(path, "write", "write to {}")

    def for_loop(self, node: bashlex.ast.node) -> None:
        """``for f in drafts/*.txt`` binds ``$f`` to the one item, or to its folder when there are several."""
        words = [p for p in node.parts if p.kind in ("word", "reservedword")]
        if len(words) < 2 or words[1].kind != "word":
            return
        items = [self.word(p) for p in itertools.takewhile(lambda p: p.kind == "word", words[3:])]
        folders = {posixpath.dirname(i) for i in items}
        if not self.bound_once(words[1].word):
            self.env[words[1].word] = HOLE
        elif len(items) == 1:
            self.env[words[1].word] = items[0]
        elif any(HOLE in i or _is_outside(i, self.report.sandbox) for i in items) or not items:
            self.env[words[1].word] = HOLE
        elif len(folders) == 1:
            self.env[words[1].word] = posixpath.join(folders.pop(), NAME)
        else:
            self.env[words[1].word] = NAME

    def bound_once(self, name: str) -> bool:
        """Whether the script names ``name`` only where it is set once (``NAME=...`` or ``for NAME``) and
        where it is expanded (``$NAME``, ``${NAME}``): set anywhere else (a branch, a loop, ``read``,
        ``${NAME:=...}``, a function) its value can't be followed."""
        bare = 0
        for match in re.finditer(rf"(?<![\w$]){re.escape(name)}(?!\w)", self.source):
            start, end = match.span()
            if self.source[max(0, start - 2) : start] == "${" and self.source[end : end + 1] == "}":
                continue
            bare += 1
        return bare <= 1

    def assignment(self, node: bashlex.ast.node) -> None:
        """Remember ``NAME=value`` for later words, and check the value as a path."""
        name, _, _ = node.word.partition("=")
        value = self.word(node).partition("=")[2]
        self.env[name] = value if HOLE not in value and self.bound_once(name) else HOLE
        self.report.candidate(value)
        _check_variable(name, self.report)


# Variables that change which programs run or what they load: setting one is process_control.
_RISKY_VARIABLE = re.compile(
    r"PATH|LD_\w*|BASH_ENV|ENV|BASH_FUNC_\w*|SHELLOPTS|BASHOPTS|PS4|PS1|PROMPT_COMMAND|IFS|CDPATH|GLOBIGNORE|"
    r"GIT_\w*|\w*PAGER|\w*EDITOR|VISUAL|BROWSER|PYTHON\w*|PERL\w*|RUBY\w*|NODE_\w*|LESS\w*|TERMINFO\w*|"
    r"GCONV_PATH|HOSTALIASES|LOCPATH|NLSPATH|MALLOC_\w*|TMPDIR|HOME|SHELL|O1_\w*"
)


def _sed_script_risky(script: str) -> bool:
    """Whether a sed script may run commands or touch files (``e``, ``w``, ``r``, ``s///e`` ...), fail closed:
    only addresses, ``s``/``y`` with ordinary flags, text commands and the plain editing commands pass."""
    i = 0
    while i < len(script):
        c = script[i]
        if c in "/\\" or c in "sy":
            if c == "/":
                end = _sed_delimited(script, i + 1, "/")
            elif c == "\\":
                end = _sed_delimited(script, i + 2, script[i + 1]) if i + 1 < len(script) else -1
            else:
                delim = script[i + 1] if i + 1 < len(script) else "\n"
                if delim in "\\\n ":
                    return True
                middle = _sed_delimited(script, i + 2, delim)
                end = _sed_delimited(script, middle + 1, delim) if middle >= 0 else -1
            if end < 0:
                return True
            i = end + 1
            flags = re.match(r"[gpiIM0-9]*" if c == "s" else r"[IM]*", script[i:])
            i += flags.end() if flags else 0
        elif c in "aic#:btT":
            stop = re.search(r"[;\n]" if c in ":btT" else r"\n", script[i:])
            i = len(script) if stop is None else i + stop.end()
        elif c in "pdqQ=lnNPDgGhHxz{}!;,$ \t\n0123456789+~":
            i += 1
        else:
            return True  # e, w, W, r, R, F, v ... or something this check does not know
    return False


def _sed_delimited(script: str, start: int, delim: str) -> int:
    """Index of the next unescaped ``delim`` at or after ``start`` (-1 when there is none)."""
    i = start
    while 0 <= i < len(script):
        if script[i] == "\\":
            i += 2
            continue
        if script[i] == delim:
            return i
        i += 1
    return -1


def _check_variable(name: str, report: _Report) -> None:
    """Flag setting a variable that changes which programs run or what they load."""
    if _RISKY_VARIABLE.fullmatch(name):
        report.flag("process_control", f"sets {name}, which changes what programs run",
                    _Event("process", "change how programs are started"))


def _dot_globs(word: str) -> str:
    """A path whose component is a glob starting with ``.`` may match ``..``: that component is HOLE."""
    if not _GLOB_CHARS & set(word):
        return word
    parts = word.split("/")
    return "/".join(HOLE if p.startswith(".") and _GLOB_CHARS & set(p) else p for p in parts)


def _unquote(source: str, fallback: str) -> str:
    """Quote removal of one word's source text (bashlex mishandles ``'a'"'"'b'``); ``fallback`` if unsure."""
    try:
        words = shlex.split(source)
    except ValueError:
        return fallback
    return words[0] if len(words) == 1 else fallback


def _command_name(argv: Sequence[str]) -> str:
    """The program a command runs, without its directory ('' when unknown)."""
    if not argv or HOLE in argv[0]:
        return ""
    return posixpath.basename(argv[0]) or argv[0]


def _operands(args: Sequence[str], value_opts: frozenset[str] = frozenset()) -> list[str]:
    """The non-option arguments (after ``--`` everything is an operand; ``-`` alone is standard input)."""
    operands: list[str] = []
    skip = options_done = False
    for arg in args:
        if skip:
            skip = False
        elif not options_done and arg == "--":
            options_done = True
        elif not options_done and arg.startswith("-") and arg != "-":
            skip = arg in value_opts
        elif arg != "-":
            operands.append(arg)
    return operands


def _option_values(args: Sequence[str]) -> list[str]:
    """Values given as ``--opt=value``, ``of=value`` or after a value-taking short option, for path checks."""
    values = [a.split("=", 1)[1] for a in args if "=" in a]
    values += [args[i + 1] for i, a in enumerate(args[:-1]) if a in _FILE_VALUE_OPTS | _NET_VALUE_OPTS]
    return values


def _hosts_in(args: Sequence[str]) -> list[str]:
    """Host names visible in a network command's arguments."""
    operands = _operands(args, _NET_VALUE_OPTS)
    urls = [a for a in args if _URL.match(a)]
    hosts = [_host_of(a) for a in (urls or operands[:1])]
    return [h for h in hosts if h]


class _Commands:
    """Classifies one command given as its words (``argv``), from shell code or from Python's subprocess."""

    def __init__(self, report: _Report, depth: int) -> None:
        self.report = report
        self.depth = depth

    def scan(self, argv: Sequence[str], stdin_code: str | None = None) -> None:
        """Classify ``argv``; ``stdin_code`` is a here-document fed to the command."""
        if not argv:
            return
        name = _command_name(argv)
        if not name:
            self.report.flag(
                "process_control",
                "runs a command whose name is only known at run time",
                _Event("process", "run a command I can't check in advance"),
            )
            return
        args = list(argv[1:])
        if any(a.startswith(("--files0-from", "--files-from", "--exclude-from")) for a in args) or (
                name in ("tar", "cpio", "rsync") and "-T" in args) or (
                name.endswith("sum") and any(a in ("-c", "--check") for a in args)):
            # the files read are listed in another file, only known at run time
            self.report.touch(HOLE, "read", "read {}")
        self.dispatch(name, args, stdin_code)
        if name not in _QUIET:
            for value in [*_operands(args), *_option_values(args)]:
                self.report.candidate(value)
        elif name not in _TEXT_COMMANDS:
            for value in args:  # date -f FILE, bc FILE ...: quiet programs that still read files named to them
                self.report.candidate(value.split("=", 1)[-1])

    def dispatch(self, name: str, args: list[str], stdin_code: str | None) -> None:
        """Pick the rule for a program name."""
        if _PYTHON_NAME.fullmatch(name):
            self.python(name, args, stdin_code)
        elif name in _SHELLS:
            self.shell(name, args, stdin_code)
        elif _PIP_NAME.fullmatch(name):
            self.install("pip", args)
        elif name in _PROCESS_PHRASES:
            self.report.flag("process_control", f"runs {name}", _Event("process", _PROCESS_PHRASES[name]))
        elif (name == "date" and any(a.startswith(("-s", "--set")) for a in args)) or (
                name in ("hostname", "history") and args and not all(a in ("-f", "-s", "-i", "-I", "-d", "-a", "-A")
                                                                     for a in args)):
            self.report.flag("process_control", f"{name} changes the system", _Event("process", f"change the {name}"))
        elif name == "hash" and any(a.startswith("-") and "p" in a for a in args):
            self.report.flag("process_control", "hash -p makes a command name run another program",
                             _Event("process", "change which programs commands run"))
        elif name in ("export", "declare", "typeset", "local", "readonly"):
            for arg in args:
                if not arg.startswith("-"):
                    _check_variable(arg.partition("=")[0], self.report)
        elif name not in _QUIET:
            getattr(self, _rule_for(name))(name, args)

    # -- files

    def delete(self, name: str, args: list[str]) -> None:
        """rm, rmdir, unlink, shred, truncate."""
        targets = _operands(args, _FILE_VALUE_OPTS) or [HOLE]
        template = {"truncate": "empty {}", "shred": "destroy {}"}.get(name, "delete {}")
        self.report.flag("deletes_files", f"{name} deletes {_quote_all(targets)}")
        for target in targets:
            self.report.touch(target, "delete", template)

    def copy(self, name: str, args: list[str]) -> None:
        """cp, mv, ln, install, rsync: sources are read, the destination is written."""
        operands = _operands(args, _FILE_VALUE_OPTS - {"-s", "-d", "-n", "-r", "-m", "-e"} if name == "ln" else _FILE_VALUE_OPTS)
        target_dir = next((args[i + 1] for i, a in enumerate(args[:-1]) if a == "-t"), None)
        dest = target_dir or (operands.pop() if len(operands) > 1 else HOLE)
        if name == "rsync" and any(_is_remote(a) for a in [*operands, dest]):
            self.network(name, [a for a in [*operands, dest] if _is_remote(a)])
            return
        for source in operands:
            self.report.touch(source, "read", "read {}")
        spoken = _speak_path(operands[0]) if len(operands) == 1 else None
        verb = {"mv": "move", "ln": "link"}.get(name, "copy")
        template = f"{verb} {spoken} to {{}}" if spoken else f"{verb} files to {{}}"
        self.report.flag("writes_files", f"{name} writes to {_quote(dest)}")
        self.report.touch(dest, "write", template)

    def create(self, name: str, args: list[str]) -> None:
        """mkdir, touch, mktemp, mkfifo."""
        targets = _operands(args, _FILE_VALUE_OPTS) or [HOLE]
        self.report.flag("writes_files", f"{name} creates {_quote_all(targets)}")
        for target in targets:
            self.report.touch(target, "write", "create {}")

    def tee(self, name: str, args: list[str]) -> None:
        """tee writes every file it is given."""
        targets = [t for t in _operands(args) if t not in _SAFE_DEVICES]
        if targets:
            self.report.flag("writes_files", f"tee writes to {_quote_all(targets)}")
        for target in targets:
            self.report.touch(target, "write", "write to {}")

    def dd(self, name: str, args: list[str]) -> None:
        """dd reads ``if=`` and writes ``of=``."""
        options = dict(a.split("=", 1) for a in args if "=" in a)
        if "if" in options:
            self.report.touch(options["if"], "read", "read {}")
        target = options.get("of", "")
        if target not in _SAFE_DEVICES:
            self.report.flag("writes_files", f"dd writes to {_quote(target or 'its output')}")
            self.report.touch(target, "write", "write to {}")

    def chmod(self, name: str, args: list[str]) -> None:
        """chmod, chown, chgrp: the first operand is the mode or owner."""
        operands = _operands(args)
        targets = (operands[1:] if not any(a.startswith("--reference") for a in args) else operands) or [HOLE]
        what = "permissions" if name == "chmod" else "owner"
        self.report.flag("writes_files", f"{name} changes the {what} of {_quote_all(targets)}")
        for target in targets:
            self.report.touch(target, "write", f"change the {what} of {{}}")

    def sed(self, name: str, args: list[str]) -> None:
        """sed edits files only with ``-i``/``--in-place``; the first operand is the script unless -e/-f."""
        operands = _operands(args, frozenset({"-e", "-f", "--expression", "--file"}))
        given = any(a in ("-e", "-f") or a.startswith(("--expression", "--file")) for a in args)
        files = operands if given else operands[1:]
        scripts = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-e", "--expression")]
        scripts += [a.split("=", 1)[1] for a in args if a.startswith("--expression=")]
        scripts += [] if given else operands[:1]
        if any(a in ("-f", "--file") or a.startswith("--file=") for a in args) or any(map(_sed_script_risky, scripts)):
            self.report.flag("process_control", f"{name} script can run commands or write files I can't check",
                             _Event("process", "run a sed script I can't check"))
        in_place = any(a.startswith(("-i", "--in-place")) or (a.startswith("-") and not a.startswith("--") and "i" in a)
                       for a in args if a not in ("-e", "-f"))
        for target in files or ([HOLE] if in_place else []):
            self.report.touch(target, "write" if in_place else "read", "edit {}" if in_place else "read {}")
        if in_place:
            self.report.flag("writes_files", f"sed edits {_quote_all(files or [HOLE])} in place")

    def awk(self, name: str, args: list[str]) -> None:
        """awk is read-only unless its program runs commands (``system``, pipes) or prints into files."""
        operands = _operands(args, frozenset({"-F", "-v", "-f"}))
        program = operands[0] if operands and "-f" not in args else ""
        if not program or re.search(r"system|\||getline|@load|@include|ENVIRON\s*\[", program):
            self.report.flag("process_control", f"{name} program runs commands or reads what I can't check",
                             _Event("process", "run commands from awk"))
        for match in re.finditer(r"\bprintf?\b[^;}\n]*?(>>?)\s*(\"([^\"]*)\"|[^\s;}]+)", program):
            self.report.flag("writes_files", f"{name} program writes files", _Event("write", "write files with awk"))
            self.report.touch(match.group(3) if match.group(3) is not None else HOLE, "write", "write to {}")
        for target in operands[1 if program else 0 :]:
            self.report.touch(target, "read", "read {}")

    def archive(self, name: str, args: list[str]) -> None:
        """tar, zip, unzip, gzip ... change files; options that run a program are process_control."""
        self.report.flag("writes_files", f"{name} changes files", _Event("write", f"change files with {name}"))
        runs = ("--to-command", "--checkpoint-action", "--use-compress-program", "--rsh-command", "--info-script",
                "--new-volume-script", "-TT", "--unzip-command", "--filter")
        if name == "tar" and any(a in ("-P", "--absolute-names") or re.fullmatch(r"-[A-Za-z]*P[A-Za-z]*", a)
                                 for a in args):
            self.report.flag("outside_sandbox", "tar -P writes absolute paths",
                             _Event("outside", "unpack files outside my working folder"))
        clustered = name == "tar" and any(re.fullmatch(r"-?[A-Za-z]*[IF][A-Za-z]*", a) for a in args[:1])
        if clustered or any(a.startswith(runs) or (name == "tar" and re.fullmatch(r"-[A-Za-z]*[IF][A-Za-z]*", a))
                            for a in args):
            self.report.flag("process_control", f"{name} is told to run another program",
                             _Event("process", f"run programs from {name}"))
        for i, arg in enumerate(args[:-1]):
            if arg in ("-C", "--directory", "-d"):
                self.report.touch(args[i + 1], "write", "unpack files into {}")

    def find(self, name: str, args: list[str]) -> None:
        """find: ``-delete`` deletes, ``-exec``/``-ok`` run a command per file, ``-fprint`` writes."""
        starts = list(itertools.takewhile(lambda a: not a.startswith(("-", "(", "!")), args)) or ["."]
        found = posixpath.join(starts[0], NAME)
        for start in starts:
            self.report.touch(start, "read", "read {}")
        rest = args[len(starts) :]
        for i, arg in enumerate(rest):
            if arg == "-delete":
                self.report.flag("deletes_files", f"find deletes files under {_quote_all(starts)}")
                for start in starts:
                    self.report.touch(posixpath.join(start, NAME), "delete", "delete {}")
            elif arg in ("-exec", "-execdir", "-ok", "-okdir"):
                self.report.flag("process_control", f"find {arg} runs a command for each file",
                                 _Event("process", "run a command for each file found"))
                inner = list(itertools.takewhile(lambda a: a not in (";", "+"), rest[i + 1 :]))
                self.scan([found if a == "{}" else a.replace("{}", found) for a in inner])
            elif arg in ("-fprint", "-fprint0", "-fprintf", "-fls") and i + 1 < len(rest):
                self.report.flag("writes_files", f"find writes to {_quote(rest[i + 1])}")
                self.report.touch(rest[i + 1], "write", "write to {}")

    def xargs(self, name: str, args: list[str]) -> None:
        """xargs runs its command with arguments read from its input."""
        self.report.flag("process_control", "xargs runs a command with words read at run time",
                         _Event("process", "run a command with words it reads at run time"))
        value_opts = frozenset({"-I", "-i", "-n", "-P", "-d", "-L", "-l", "-s", "-a", "-E", "--delimiter"})
        index, replace = 0, None
        while index < len(args) and args[index].startswith("-"):
            if args[index] == "-I" and index + 1 < len(args):
                replace = args[index + 1]
            index += 2 if args[index] in value_opts else 1
        inner = args[index:] or ["echo"]
        if replace:
            self.scan([a.replace(replace, HOLE) for a in inner])
        else:
            self.scan([*inner, HOLE])

    def read(self, name: str, args: list[str]) -> None:
        """Read-only commands; their file operands are still checked against the sandbox."""
        operands = _operands(args, _READ_VALUE_OPTS)
        if name in _PATTERN_READERS and not any(a in ("-e", "-f") for a in args):
            operands = operands[1:]
        if any(a.startswith(("--compress-program", "--pre", "--preprocessor")) for a in args):
            self.report.flag("process_control", f"{name} is told to run another program",
                             _Event("process", f"run programs from {name}"))
        for i, arg in enumerate(args[:-1]):
            if arg in ("-f", "--file") and name in _PATTERN_READERS:
                self.report.touch(args[i + 1], "read", "read {}")
            elif arg in ("--rawfile", "--slurpfile") and i + 2 < len(args):
                self.report.touch(args[i + 2], "read", "read {}")
        if name == "locate":
            self.report.touch("/", "read", "search {}")
        outputs = [args[i + 1] for i, a in enumerate(args[:-1]) if a in _READER_OUTPUT_OPTS.get(name, ())]
        outputs += [a.split("=", 1)[1] for a in args if a.startswith("--output=")]
        if name in ("uniq", "xxd") and len(operands) > 1:
            outputs.append(operands.pop())
        if name == "file" and "-C" in args:
            outputs.append(HOLE)
        for target in operands:
            self.report.touch(target, "read", "read {}" if name != "cd" else "go to {}")
        for target in outputs:
            self.report.flag("writes_files", f"{name} writes {_quote(target)}")
            self.report.touch(target, "write", "write to {}")

    # -- network, packages, programs

    def network(self, name: str, args: list[str]) -> None:
        """curl, wget, ssh ...: network; curl -o / wget also write the download."""
        hosts = _hosts_in(args) or [""]
        template = "download from {}" if name in ("curl", "wget", "aria2c") else "connect to {}"
        for host in hosts:
            self.report.flag("network", f"{name} uses the network", _Event("network", template, host, "the internet"))
        output = _download_target(name, args)
        if output is not None:
            self.report.flag("writes_files", f"{name} saves the download")
            self.report.touch(output, "write", "write to {}")

    def git(self, name: str, args: list[str]) -> None:
        """git: clone/pull/fetch/push use the network; read-only subcommands read; the rest writes."""
        operands = _operands(args, frozenset({"-C", "-c", "--git-dir", "--work-tree"}))
        sub = operands[0] if operands else ""
        runs = ("-c", "--config-env", "--exec-path", "--upload-pack", "--receive-pack", "--output", "-O",
                "--open-files-in-pager", "--ext-diff", "-x", "--exec", "--extcmd", "--tool", "--git-dir",
                "--work-tree")
        config_write = sub == "config" and not any(a in ("--get", "--get-all", "--get-regexp", "--list", "-l")
                                                     for a in args)
        if config_write or any(a.startswith(runs) for a in args) or sub in (
                "difftool", "mergetool", "filter-branch", "bisect", "rebase", "daemon", "instaweb", "credential",
                "send-email", "archive", "hook", "var", "help") or operands[1:2] == ["foreach"]:
            self.report.flag("process_control", f"git {sub or 'command'} can run programs",
                             _Event("process", "run programs through git"))
        if "--no-index" in args:
            for target in operands[1:]:
                self.report.touch(target, "read", "read {}")
        if sub in _GIT_NETWORK:
            self.network("git", operands[1:])
            if sub in ("clone", "pull", "submodule"):
                self.report.flag("writes_files", f"git {sub} writes files", _Event("write", "change files with git"))
        elif sub not in _GIT_READ:
            self.report.flag("writes_files", f"git {sub or 'command'} changes the repository",
                             _Event("write", "change files with git"))

    def install(self, name: str, args: list[str]) -> None:
        """Package managers: installs_packages, naming the packages after install/add."""
        operands = _operands(args, frozenset({"-r", "-c", "-i", "-t", "-e", "-f", "--index-url", "--target"}))
        if name in ("uv", "pipx", "conda", "mamba") and operands[:1] in (["pip"], ["run"]):
            operands = operands[1:]
        verbs = {"install": "install", "add": "install", "i": "install", "get": "install", "-S": "install",
                 "remove": "remove", "uninstall": "remove", "purge": "remove", "rm": "remove"}
        sub = operands[0] if operands else ""
        verb = verbs.get(sub, "use")
        packages = operands[1:] if sub in verbs else operands[:1] if name in ("npx", "uvx") else []
        template = f"{verb} {{}} with {name}" if verb != "use" else f"use the package manager {name}"
        self.report.flag("installs_packages", f"{name} manages packages")
        for package in packages or [""]:
            self.report.note(_Event("install", template, package, "packages"))

    def python(self, name: str, args: list[str], stdin_code: str | None) -> None:
        """python -c CODE is classified as Python; -m pip installs; a script file is an unknown program."""
        option = _interpreter_option(args, "cm", frozenset({"-W", "-X", "--check-hash-based-pycs"}), attached=True)
        if option or stdin_code is not None:
            self.report.flag("process_control", f"{name} starts another Python interpreter",
                             _Event("process", "start another Python interpreter"))
        if option and option[0] == "c":
            _scan_python(option[1], self.report, self.depth + 1)
        elif option:
            self.python_module(option[1], option[2])
        elif stdin_code is not None and not _operands(args)[:1]:
            _scan_python(stdin_code, self.report, self.depth + 1)
        else:
            self.run_script(name, (_operands(args) or [""])[0], "Python")

    def python_module(self, module: str, args: list[str]) -> None:
        """python -m MODULE."""
        if module in ("pip", "pip3", "ensurepip"):
            self.install("pip", args)
        elif module in _PY_MODULE_CLAUSES:
            category, clause = _PY_MODULE_CLAUSES[module]
            kind = "write" if category == "writes_files" else "network"
            self.report.flag(category, f"python -m {module}", _Event(kind, clause))
        elif module not in _PY_READ_MODULES:
            self.report.flag("process_control", f"runs the Python module {_quote(module)}",
                             _Event("process", "run {}", f"the Python module {module}", "a Python module"))

    def shell(self, name: str, args: list[str], stdin_code: str | None) -> None:
        """sh -c CODE and here-documents are classified as shell; a script file is an unknown program."""
        option = _interpreter_option(args, "c", frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"}))
        if option or stdin_code is not None:
            self.report.flag("process_control", f"{name} starts another shell",
                             _Event("process", "start another shell"))
        if option:
            _scan_shell(option[1], self.report, self.depth + 1)
        elif stdin_code is not None and not _operands(args):
            _scan_shell(stdin_code, self.report, self.depth + 1)
        else:
            self.run_script(name, (_operands(args) or [""])[0], "shell")

    def run_script(self, name: str, script: str, language: str) -> None:
        """An interpreter runs a script file, or code from its input, that we can't see."""
        if script:
            self.report.flag("process_control", f"{name} runs {_quote(script)}",
                             _Event("process", "run {}", f"the {language} script {script}", f"a {language} script"))
            self.report.touch(script, "read", "read {}")
        else:
            self.report.flag("process_control", f"{name} runs code from its input",
                             _Event("process", f"run {language} code from its input"))

    def wrapper(self, name: str, args: list[str]) -> None:
        """sudo, nohup, exec, timeout, env ...: classify the wrapped command too."""
        clause, value_opts, skip = _WRAPPERS[name]
        if clause is not None:
            self.report.flag("process_control", f"uses {name}", _Event("process", clause))
        if name == "command" and any(a in ("-v", "-V") for a in args):
            return
        index = 0
        while index < len(args) and (args[index].startswith("-") or (name == "env" and "=" in args[index])):
            index += 2 if args[index] in value_opts else 1
        self.scan(args[index + skip :])

    def su(self, name: str, args: list[str]) -> None:
        """su [-c COMMAND] [user]."""
        self.report.flag("process_control", "uses su", _Event("process", "run a command as administrator"))
        if "-c" in args[:-1]:
            _scan_shell(args[args.index("-c") + 1], self.report, self.depth + 1)

    def eval(self, name: str, args: list[str]) -> None:
        """eval runs its arguments as shell code."""
        self.report.flag("process_control", "eval runs code built at run time",
                         _Event("process", "run a command I can't check in advance"))
        if args:
            _scan_shell(" ".join(args), self.report, self.depth + 1)

    def source(self, name: str, args: list[str]) -> None:
        """source / . runs a script in the current shell."""
        script = (args or [HOLE])[0]
        self.report.flag("process_control", f"{name} runs {_quote(script)}",
                         _Event("process", "run {}", f"the shell script {script}", "a shell script"))
        self.report.touch(script, "read", "read {}")

    def unknown(self, name: str, args: list[str]) -> None:
        """Programs we don't know are not assumed to be harmless."""
        self.report.flag("process_control", f"runs {_quote(name)}, a program I don't know",
                         _Event("process", "run {}", f"the program {name}", "an unknown program"))


_TABLE = {
    **dict.fromkeys(("rm", "rmdir", "unlink", "shred", "truncate"), "delete"),
    **dict.fromkeys(("cp", "mv", "ln", "install", "rsync"), "copy"),
    **dict.fromkeys(("mkdir", "touch", "mktemp", "mkfifo"), "create"),
    **dict.fromkeys(("chmod", "chown", "chgrp"), "chmod"),
    **dict.fromkeys(("awk", "gawk", "mawk", "nawk"), "awk"),
    **dict.fromkeys(("tar", "zip", "unzip", "gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "7z", "zstd",
                     "patch", "split", "csplit"), "archive"),
    "tee": "tee",
    "dd": "dd",
    "sed": "sed",
    "find": "find",
    "xargs": "xargs",
    "git": "git",
    "su": "su",
    "eval": "eval",
    "source": "source",
    ".": "source",
}


# Options of read-only tools that name a file they write.
_READER_OUTPUT_OPTS = {"sort": ("-o", "--output"), "shuf": ("-o", "--output"), "tree": ("-o",),
                       "less": ("-o", "-O", "--log-file", "--LOG-FILE"), "more": ("-o",)}


# Quiet commands whose arguments are text, never files.
_TEXT_COMMANDS = frozenset({"echo", "printf", "expr", "test", "[", "export", "unset", "local", "declare", "typeset",
                            "readonly", "let", "set", "shift", "return", "exit", "break", "continue", ":", "true",
                            "false", "alias", "type", "which", "whereis", "hash", "read", "seq", "factor"})


def _rule_for(name: str) -> str:
    """The name of the :class:`_Commands` method for a program that is not an interpreter."""
    if name in _TABLE:
        return _TABLE[name]
    families = ((_WRAPPERS, "wrapper"), (_NETWORK, "network"), (_INSTALLERS, "install"), (_READERS, "read"),
                (_PATTERN_READERS, "read"))
    return next((rule for names, rule in families if name in names), "unknown")


def _interpreter_option(
    args: Sequence[str], letters: str, value_opts: frozenset[str], attached: bool = False
) -> tuple[str, str, list[str]] | None:
    """The first ``-c CODE``/``-m MODULE`` style option before the script name: (letter, value, later args).

    Options after the script name belong to the script (``python evil.py -c x`` runs evil.py). With
    ``attached``, the value may follow the letter in the same word (``-cprint(1)``), as Python allows.
    """
    index = 0
    while index < len(args):
        arg = args[index]
        if arg in ("-", "--") or not arg.startswith(("-", "+")):
            return None  # the script (or standard input) comes first
        if arg in value_opts:
            index += 2
            continue
        if not arg.startswith("--"):
            for position, letter in enumerate(arg[1:], start=2):
                if letter in letters:
                    rest = arg[position:] if attached else ""
                    if rest:
                        return letter, rest, list(args[index + 1 :])
                    if index + 1 < len(args):
                        return letter, args[index + 1], list(args[index + 2 :])
                    return None
        index += 1
    return None


def _is_remote(arg: str) -> bool:
    """rsync/scp style ``host:path`` or a URL."""
    return bool(_URL.match(arg)) or bool(re.match(r"^[\w.@-]+:", arg))


def _download_target(name: str, args: list[str]) -> str | None:
    """Where curl/wget save a download (None when it goes to standard output)."""
    if name == "curl":
        for i, arg in enumerate(args):
            if arg in ("-o", "--output") and i + 1 < len(args):
                return None if args[i + 1] == "-" else args[i + 1]
            if arg in ("-O", "--remote-name"):
                return NAME
        return None
    if name != "wget":
        return None
    for i, arg in enumerate(args):
        if arg.startswith("--output-document="):
            value = arg.split("=", 1)[1]
        elif re.fullmatch(r"-[a-zA-Z]*O", arg):
            value = args[i + 1] if i + 1 < len(args) else "-"
        elif re.fullmatch(r"-[a-zA-Z]*O.+", arg):
            value = arg.split("O", 1)[1]
        else:
            continue
        return None if value == "-" else value
    return NAME


def _command_shape(qualname: str) -> tuple[str, int]:
    """How a process-starting function takes its command: ("shell" | "words" | "varargs", argument index).

    "shell": a string of shell code; "words": a list of words (a string is read as shell code too);
    "varargs": one word per positional argument from the index on.
    """
    function = qualname.rsplit(".", 1)[-1]
    if qualname in _SHELL_RUNNERS:
        return "shell", 0
    if qualname == "asyncio.create_subprocess_exec":
        return "varargs", 0
    if function.startswith("exec"):
        return ("words" if function[4:5] == "v" else "varargs"), 1
    if function.startswith("spawn"):
        return ("words" if function[5:6] == "v" else "varargs"), 2
    if function.startswith("posix_spawn"):
        return "words", 1
    return "words", 0


# --------------------------------------------------------------------------------------------- python

# Names a persistent Jupyter kernel may know without an import in this block (an earlier block imported them).
_DEFAULT_NAMES = {
    **{m: m for m in ("os", "sys", "shutil", "subprocess", "socket", "signal", "ctypes", "multiprocessing",
                      "importlib", "pathlib", "glob", "io", "codecs", "tempfile", "urllib", "http", "requests",
                      "httpx", "aiohttp", "ftplib", "smtplib", "telnetlib", "pty", "runpy", "pip", "o1_ha",
                      "asyncio", "zipfile", "tarfile", "numpy", "pandas", "builtins")},
    "Path": "pathlib.Path",
    "np": "numpy",
    "pd": "pandas",
    "system": "os.system",
    "popen": "os.popen",
    "rmtree": "shutil.rmtree",
    "Popen": "subprocess.Popen",
    "check_output": "subprocess.check_output",
    "check_call": "subprocess.check_call",
    "urlopen": "urllib.request.urlopen",
}
_BUILTINS = frozenset(
    {"open", "eval", "exec", "compile", "__import__", "getattr", "print", "globals", "locals", "vars",
     "breakpoint", "str", "repr", "len", "input", "setattr", "delattr", "format", "isinstance", "int", "float"}
)
# (qualified name; "mod.*" = the module and everything in it, "prefix*" = any name starting so), category,
# summary template ("{}" is a host for network rules), fallback object.
_PY_RULES: tuple[tuple[str, str, str, str], ...] = (
    ("os.system", "process_control", "run a shell command", ""),
    ("os.popen", "process_control", "run a shell command", ""),
    ("os.fork", "process_control", "start copies of this program", ""),
    ("os.forkpty", "process_control", "start copies of this program", ""),
    ("os.kill", "process_control", "stop running programs", ""),
    ("os.killpg", "process_control", "stop running programs", ""),
    ("os.exec*", "process_control", "replace this program with another one", ""),
    ("os.spawn*", "process_control", "start other programs", ""),
    ("os.posix_spawn*", "process_control", "start other programs", ""),
    ("os.startfile", "process_control", "start other programs", ""),
    ("subprocess.*", "process_control", "run other programs", ""),
    ("asyncio.create_subprocess*", "process_control", "run other programs", ""),
    ("asyncio.subprocess*", "process_control", "run other programs", ""),
    ("signal.*", "process_control", "send or catch process signals", ""),
    ("multiprocessing.*", "process_control", "start other processes", ""),
    ("concurrent.futures.ProcessPoolExecutor", "process_control", "start other processes", ""),
    ("ctypes.*", "process_control", "call native code directly", ""),
    ("cffi.*", "process_control", "call native code directly", ""),
    ("pty.*", "process_control", "start programs in a terminal", ""),
    ("importlib.*", "process_control", "load code by name at run time", ""),
    ("__import__", "process_control", "load code by name at run time", ""),
    ("runpy.*", "process_control", "run other Python code", ""),
    ("sys.modules", "process_control", "load code by name at run time", ""),
    ("operator.attrgetter", "process_control", "load code by name at run time", ""),
    ("operator.methodcaller", "process_control", "load code by name at run time", ""),
    ("code.*", "process_control", "run other Python code", ""),
    ("codeop.*", "process_control", "run other Python code", ""),
    ("_posixsubprocess.*", "process_control", "start other programs", ""),
    ("_winapi.*", "process_control", "start other programs", ""),
    ("_ctypes.*", "process_control", "call native code directly", ""),
    ("_thread.*", "process_control", "start threads", ""),
    ("threading.*", "process_control", "start threads", ""),
    ("concurrent.*", "process_control", "start other processes", ""),
    ("resource.*", "process_control", "change the limits on running programs", ""),
    ("gc.*", "process_control", "reach into Python internals", ""),
    ("inspect.*", "process_control", "reach into Python internals", ""),
    ("types.FunctionType", "process_control", "build code objects", ""),
    ("types.CodeType", "process_control", "build code objects", ""),
    ("types.LambdaType", "process_control", "build code objects", ""),
    ("types.ModuleType", "process_control", "build code objects", ""),
    ("traceback.*", "process_control", "reach into Python internals", ""),
    ("atexit.*", "process_control", "run code when Python exits", ""),
    ("sys._*", "process_control", "reach into Python internals", ""),
    ("sys.set*", "process_control", "reach into Python internals", ""),
    ("sys.path*", "process_control", "load code by name at run time", ""),
    ("sys.meta_path", "process_control", "load code by name at run time", ""),
    ("sys.addaudithook", "process_control", "reach into Python internals", ""),
    ("sys.call_tracing", "process_control", "reach into Python internals", ""),
    ("builtins", "process_control", "reach into Python internals", ""),
    ("pickle.*", "process_control", "load pickled objects, which can run code", ""),
    ("_pickle.*", "process_control", "load pickled objects, which can run code", ""),
    ("cPickle.*", "process_control", "load pickled objects, which can run code", ""),
    ("marshal.*", "process_control", "load compiled code", ""),
    ("shelve.*", "process_control", "load pickled objects, which can run code", ""),
    ("dill.*", "process_control", "load pickled objects, which can run code", ""),
    ("cloudpickle.*", "process_control", "load pickled objects, which can run code", ""),
    ("joblib.*", "process_control", "load pickled objects, which can run code", ""),
    ("copyreg.*", "process_control", "change how objects are loaded", ""),
    ("imp.*", "process_control", "load code by name at run time", ""),
    ("zipimport.*", "process_control", "load code by name at run time", ""),
    ("pkgutil.*", "process_control", "load code by name at run time", ""),
    ("pydoc.*", "process_control", "start other programs", ""),
    ("webbrowser.*", "process_control", "start other programs", ""),
    ("pdb.*", "process_control", "run other Python code", ""),
    ("bdb.*", "process_control", "run other Python code", ""),
    ("timeit.*", "process_control", "run other Python code", ""),
    ("trace.*", "process_control", "run other Python code", ""),
    ("profile.*", "process_control", "run other Python code", ""),
    ("cProfile.*", "process_control", "run other Python code", ""),
    ("site.*", "process_control", "load code by name at run time", ""),
    ("sysconfig.*", "process_control", "reach into Python internals", ""),
    ("logging.config.*", "process_control", "load code by name at run time", ""),
    ("fcntl.*", "process_control", "control files and terminals directly", ""),
    ("termios.*", "process_control", "control files and terminals directly", ""),
    ("tty.*", "process_control", "control files and terminals directly", ""),
    ("mmap.*", "process_control", "map memory directly", ""),
    ("faulthandler.*", "process_control", "reach into Python internals", ""),
    ("tracemalloc.*", "process_control", "reach into Python internals", ""),
    ("posix.*", "process_control", "reach the operating system directly", ""),
    ("nt.*", "process_control", "reach the operating system directly", ""),
    ("numpy.load", "process_control", "load pickled objects, which can run code", ""),
    ("pandas.read_pickle", "process_control", "load pickled objects, which can run code", ""),
    ("_socket.*", "network", "connect to {}", "the internet"),
    ("ssl.*", "network", "connect to {}", "the internet"),
    ("select.*", "network", "connect to {}", "the internet"),
    ("selectors.*", "network", "connect to {}", "the internet"),
    ("asyncio.*", "network", "connect to {}", "the internet"),
    ("http.*", "network", "connect to {}", "the internet"),
    ("pip.*", "installs_packages", "install {} with pip", "packages"),
    ("ensurepip.*", "installs_packages", "install {} with pip", "packages"),
    ("smtplib.*", "network", "send email through {}", "a mail server"),
    ("socket.*", "network", "connect to {}", "the internet"),
    ("urllib.*", "network", "connect to {}", "the internet"),
    ("urllib3.*", "network", "connect to {}", "the internet"),
    ("http.client.*", "network", "connect to {}", "the internet"),
    ("http.server.*", "network", "share files on the network", ""),
    ("socketserver.*", "network", "share files on the network", ""),
    ("requests.*", "network", "connect to {}", "the internet"),
    ("httpx.*", "network", "connect to {}", "the internet"),
    ("aiohttp.*", "network", "connect to {}", "the internet"),
    ("ftplib.*", "network", "connect to {}", "the internet"),
    ("telnetlib.*", "network", "connect to {}", "the internet"),
    ("poplib.*", "network", "connect to {}", "the internet"),
    ("imaplib.*", "network", "connect to {}", "the internet"),
    ("nntplib.*", "network", "connect to {}", "the internet"),
    ("xmlrpc.*", "network", "connect to {}", "the internet"),
    ("websocket.*", "network", "connect to {}", "the internet"),
    ("websockets.*", "network", "connect to {}", "the internet"),
    ("paramiko.*", "network", "connect to {}", "the internet"),
    ("asyncio.open_connection", "network", "connect to {}", "the internet"),
    ("asyncio.start_server", "network", "share files on the network", ""),
)
# Read-only facts about the machine (issue 12: "how many CPU cores"), in modules that are otherwise risky.
_PY_SAFE = ("urllib.parse.*", "urllib.error.*", "multiprocessing.cpu_count")
# Modules with a safe part: importing them is not flagged, every use of the module or its names still is
# (a reference to the module itself, as in ``getattr(multiprocessing, name)``, included).
_JUDGED_BY_USE = frozenset({"multiprocessing"})
_SHELL_RUNNERS = frozenset(
    {"os.system", "os.popen", "subprocess.getoutput", "subprocess.getstatusoutput", "asyncio.create_subprocess_shell"}
)
_ARGV_RUNNERS = frozenset(
    {"subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output", "subprocess.Popen",
     "asyncio.create_subprocess_exec", "pty.spawn"}
)


def _runs_command(qualname: str | None) -> bool:
    """Whether a function starts a program given as a command string or words."""
    if qualname in _SHELL_RUNNERS or qualname in _ARGV_RUNNERS:
        return True
    return bool(qualname) and qualname.startswith(("os.exec", "os.spawn", "os.posix_spawn"))  # type: ignore[union-attr]
_OPENERS = {  # qualified name -> default mode
    "open": "r", "io.open": "r", "codecs.open": "r", "gzip.open": "rb", "bz2.open": "rb", "lzma.open": "rb",
    "tarfile.open": "r", "zipfile.ZipFile": "r", "shelve.open": "c", "dbm.open": "r",
}
_DELETERS = {  # qualified name -> spoken template
    "os.remove": "delete {}", "os.unlink": "delete {}", "os.rmdir": "delete {}", "os.removedirs": "delete {}",
    "shutil.rmtree": "delete {}", "shutil.move": "move {}", "os.truncate": "empty {}",
}
_WRITERS = {  # qualified name -> (index of the written path, spoken template); other path arguments are read
    "os.mkdir": (0, "create {}"), "os.makedirs": (0, "create {}"), "os.mkfifo": (0, "create {}"),
    "os.mknod": (0, "create {}"), "os.rename": (1, "rename files to {}"), "os.renames": (1, "rename files to {}"),
    "os.replace": (1, "rename files to {}"), "os.symlink": (1, "create a link at {}"),
    "os.link": (1, "create a link at {}"),
    "os.chmod": (0, "change the permissions of {}"), "os.chown": (0, "change the owner of {}"),
    "os.lchown": (0, "change the owner of {}"), "os.utime": (0, "change {}"),
    "shutil.copy": (1, "copy files to {}"), "shutil.copy2": (1, "copy files to {}"),
    "shutil.copyfile": (1, "copy files to {}"), "shutil.copytree": (1, "copy files to {}"),
    "shutil.copymode": (1, "change the permissions of {}"), "shutil.copystat": (1, "change {}"),
    "shutil.chown": (0, "change the owner of {}"), "shutil.make_archive": (0, "create the archive {}"),
    "shutil.unpack_archive": (1, "unpack files into {}"), "numpy.save": (0, "write to {}"),
    "numpy.savetxt": (0, "write to {}"), "numpy.savez": (0, "write to {}"),
    "numpy.savez_compressed": (0, "write to {}"),
}
_PATH_BUILDERS = frozenset(
    {"os.path.join", "posixpath.join", "pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath", "pathlib.PurePosixPath"}
)
_PATH_DELETE_METHODS = frozenset({"unlink", "rmdir"})
_PATH_READ_METHODS = frozenset({"read_text", "read_bytes"})
_PATH_QUERY_METHODS = frozenset(
    {"read_text", "read_bytes", "exists", "is_file", "is_dir", "is_symlink", "is_mount", "stat", "lstat", "iterdir",
     "glob", "rglob", "samefile", "owner", "group", "readlink", "is_block_device", "is_char_device", "is_fifo",
     "is_socket"}
)
_PATH_WRITE_METHODS = {
    "write_text": "write to {}", "write_bytes": "write to {}", "touch": "create {}", "mkdir": "create {}",
    "symlink_to": "create a link at {}", "hardlink_to": "create a link at {}", "chmod": "change the permissions of {}",
    "lchmod": "change the permissions of {}", "link_to": "create a link at {}",
}
_SAVE_METHODS = frozenset(
    {"savefig", "save", "to_csv", "to_excel", "to_json", "to_parquet", "to_pickle", "to_feather", "to_hdf",
     "to_html", "to_latex", "to_markdown", "to_stata", "to_xml", "to_file"}
)
_PROCESS_METHODS = frozenset({"system", "popen", "fork", "forkpty", "kill", "killpg"})
# Calls whose string arguments are text rather than paths (not checked against the sandbox).
_TEXT_CALLS = frozenset({"print", "str", "repr", "len", "format", "input", "isinstance", "int", "float",
                         "shutil.disk_usage"})  # disk_usage reads only the size of the disk holding the path
_TEXT_PREFIXES = ("logging.", "re.", "o1_ha.", "json.", "datetime.", "time.", "urllib.parse.")
_TEXT_METHODS = frozenset(
    {"split", "rsplit", "join", "replace", "startswith", "endswith", "strip", "lstrip", "rstrip", "partition",
     "rpartition", "count", "find", "rfind", "index", "rindex", "format", "removeprefix", "removesuffix", "encode",
     "decode", "center", "ljust", "rjust", "translate", "get", "append", "extend", "add", "insert", "pop",
     "setdefault", "write", "writelines", "sub", "match", "search", "fullmatch", "findall", "info", "debug",
     "warning", "error", "strftime", "strptime", "update"}
)
_HA_READS = allowlist.HA_READS  # read-only o1_ha calls
# o1_ha's public functions (agent/helpers/o1_ha.py); any other name reached through the module is suspect.
_HA_FUNCTIONS = allowlist.HA_READS | allowlist.HA_ACTIONS
_DYNAMIC_CODE = frozenset({"eval", "exec", "compile"})
_REFLECTION = frozenset({"getattr", "setattr", "delattr", "globals", "locals", "vars", "breakpoint"})
_OS_OPEN = frozenset({"os.open"})
_FORKS = frozenset({"os.fork", "os.forkpty"})
_SAFE_DUNDERS = frozenset(
    {"__name__", "__doc__", "__file__", "__init__", "__version__", "__qualname__", "__module__", "__enter__",
     "__exit__", "__len__", "__str__", "__repr__", "__main__", "__all__", "__annotations__"}
)


def _rule_matches(pattern: str, qualname: str) -> bool:
    """``mod.*`` matches the module and its members, ``prefix*`` any name so starting, else exact."""
    if pattern.endswith(".*"):
        base = pattern[:-2]
        return qualname == base or qualname.startswith(base + ".")
    if pattern.endswith("*"):
        return qualname.startswith(pattern[:-1])
    return qualname == pattern


_CHDIR = frozenset({"os.chdir", "os.fchdir", "os.chroot", "contextlib.chdir"})
_DATE_NOW = frozenset({"datetime.date.today", "datetime.datetime.now", "datetime.datetime.today",
                       "datetime.datetime.utcnow", "time.time", "time.time_ns", "time.monotonic"})
_BUILTIN_NAMES = frozenset(dir(__import__("builtins")))


def _module_exports(module: str) -> frozenset[str]:
    """The names ``from module import *`` binds, for modules on the allowlist (empty for others)."""
    if module not in allowlist.IMPORTABLE or module == "o1_ha":
        return frozenset()
    try:
        imported = __import__("importlib").import_module(module)
    except ImportError:
        return frozenset()
    names = getattr(imported, "__all__", None)
    return frozenset(names if names is not None else (n for n in dir(imported) if not n.startswith("_")))


def _star_safe(module: str) -> bool:
    """Whether every name ``from module import *`` binds is on the allowlist."""
    exports = _module_exports(module)
    return bool(exports) and all(f"{module}.{n}" in allowlist.SAFE_NAMES for n in exports)
_STDLIB = frozenset(sys.stdlib_module_names) | {"requests", "httpx", "aiohttp", "urllib3", "numpy", "pandas"}
# Submodules reached as attributes of their package (``os.path.join``), not modules reached through another.
_SUBMODULES = frozenset({"os.path", "collections.abc", "urllib.parse", "urllib.request", "urllib.error",
                         "http.client", "http.server", "concurrent.futures", "importlib.util", "logging.config",
                         "xml.etree", "email.mime", "json.decoder", "json.encoder"})


def _is_known(qualname: str) -> bool:
    """Whether the classifier itself categorises a name (file, process, network, Home Assistant functions)."""
    if any(_rule_matches(p, qualname) for p, *_ in _PY_RULES):
        return True
    if qualname.startswith("o1_ha."):
        return qualname[6:] in allowlist.HA_READS | allowlist.HA_ACTIONS
    tables = (_OPENERS, _DELETERS, _WRITERS, _OS_OPEN, _FORKS, _DYNAMIC_CODE, _REFLECTION, allowlist.PATH_READERS,
              _CHDIR, _PATH_BUILDERS)
    return any(qualname in table for table in tables) or _runs_command(qualname) or qualname == "__import__"


def _name_status(qualname: str) -> str:
    """How the allowlist sees a dotted name: ``safe``, ``known`` (categorised by the classifier), ``walk`` (a
    module or private member reached through another module, e.g. ``o1_ha.os``) or ``unknown``."""
    if qualname in allowlist.SAFE_NAMES or qualname in allowlist.SAFE_BUILTINS:
        return "safe"
    parts = qualname.split(".")
    for i in range(len(parts) - 1, 0, -1):
        prefix = ".".join(parts[:i])
        if prefix in allowlist.SAFE_NAMES or prefix in allowlist.SAFE_BUILTINS:
            if all(p in allowlist.SAFE_ATTRS for p in parts[i:]):
                return "safe"
            break
    if _is_known(qualname):
        return "known"
    for i, part in enumerate(parts[1:], start=1):
        if part.startswith("_") and not (part.startswith("__") and part.endswith("__")):
            return "walk"
        if part in _STDLIB and ".".join(parts[: i + 1]) not in _SUBMODULES:
            return "walk"
    return "unknown"


def _walked_module(qualname: str) -> str:
    """The part of a walked name from the module reached on (``o1_ha.os.system`` -> ``os.system``)."""
    parts = qualname.split(".")
    for i, part in enumerate(parts[1:], start=1):
        if part in _STDLIB and ".".join(parts[: i + 1]) not in _SUBMODULES:
            return ".".join(parts[i:])
    return qualname


def _bound_names(tree: ast.AST) -> frozenset[str]:
    """Every name the code binds itself (assignments, loops, parameters, functions, classes, except, with)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            names.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names.add(node.rest)
    return frozenset(names)


def _bind_counts(tree: ast.AST) -> dict[str, int]:
    """How many places bind each name (assignments, loops, parameters, imports, walrus ...)."""
    counts: dict[str, int] = {}
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names = [node.id]
        elif isinstance(node, ast.arg):
            names = [node.arg]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [node.name]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [(a.asname or a.name).split(".")[0] for a in node.names]
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            names = [node.name]
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names = list(node.names) * 2  # changed from elsewhere
        for name in names:
            counts[name] = counts.get(name, 0) + 1
    return counts


def _user_attrs(tree: ast.AST) -> frozenset[str]:
    """Attribute names the code defines itself: class members, ``obj.x = ...``, namedtuple fields, setattr."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    names.add(item.name)
                for target in (item.targets if isinstance(item, ast.Assign) else
                               [item.target] if isinstance(item, ast.AnnAssign) else []):
                    names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load):
            names.add(node.attr)
        elif isinstance(node, ast.Call):
            names |= {k.arg for k in node.keywords if k.arg}
            for arg in node.args[1:3]:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    names |= set(re.findall(r"[A-Za-z_]\w*", arg.value))
                elif isinstance(arg, (ast.List, ast.Tuple)):
                    names |= {e.value for e in arg.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    return frozenset(n for n in names if not (n.startswith("__") and n.endswith("__"))) - allowlist.NEVER_ATTRS


def _scan_python(code: str, report: _Report, depth: int) -> None:
    """Classify Python code; a SyntaxError (after IPython ``!``/``%`` lines are set aside) is ``unparseable``."""
    if _too_deep(report, depth):
        return
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError) as exc:
        tree = _parse_ipython(code, report, depth)
        if tree is None:
            line = getattr(exc, "lineno", None)
            where = f" on line {line}" if line else ""
            report.flag("unparseable", f"Python syntax error{where}",
                        _Event("unparseable", "run Python code I can't check"))
            return
    _PythonScanner(report, depth, tree).visit(tree)


def _parse_ipython(code: str, report: _Report, depth: int) -> ast.Module | None:
    """Parse code with IPython ``!cmd`` / ``%magic`` lines; classify those lines. None if it still fails."""
    split = _split_ipython(code)
    if split is None:
        return None
    python, shell, magics = split
    try:
        tree = ast.parse(python)
    except (SyntaxError, ValueError):
        return None
    for command in shell:
        _scan_shell(command, report, depth + 1)
    for magic in magics:
        report.flag("process_control", f"uses the IPython magic %{magic}",
                    _Event("process", "run {}", f"the notebook command {magic}", "a notebook command"))
    return tree


_MAGIC_SHELLS = {"pip": "pip", "conda": "conda", "mamba": "mamba", "uv": "uv", "sx": "", "system": "", "cd": "cd"}
_MAGIC_PYTHON = frozenset({"time", "timeit", "prun"})
_MAGIC_HARMLESS = frozenset({"matplotlib", "who", "whos", "pwd", "ls", "config", "precision", "pprint", "load_ext"})


def _split_ipython(code: str) -> tuple[str, list[str], list[str]] | None:
    """Set aside IPython syntax (Open Interpreter runs Python in a Jupyter kernel).

    Returns (Python code with those lines replaced by ``pass``, shell commands, other magic names), or None
    when there is no IPython syntax.
    """
    lines = code.splitlines()
    first = lines[0].strip() if lines else ""
    if first.startswith(("%%bash", "%%sh", "%%script", "%%shell", "%%system")):
        return "", ["\n".join(lines[1:])], []
    if first.startswith("%%"):
        return "", [], [first[2:].split()[0] if first[2:].split() else "cell magic"]
    python, shell, magics = [], [], []
    for line in lines:
        stripped = line.lstrip()
        indent = line[: len(line) - len(stripped)]
        assigned = re.match(r"([A-Za-z_]\w*)\s*=\s*!(.*)", stripped)
        if stripped.startswith("!"):
            shell.append(stripped.lstrip("!"))
            python.append(indent + "pass")
        elif assigned:
            shell.append(assigned.group(2))
            python.append(f"{indent}{assigned.group(1)} = []")
        elif stripped.startswith("%"):
            name, _, rest = stripped.lstrip("%").partition(" ")
            if name in _MAGIC_SHELLS:
                shell.append(f"{_MAGIC_SHELLS[name]} {rest}".strip())
            elif name not in _MAGIC_HARMLESS | _MAGIC_PYTHON:
                magics.append(name or "magic")
            python.append(indent + (rest if name in _MAGIC_PYTHON and rest else "pass"))
        else:
            python.append(line)
    if not (shell or magics) and python == lines:
        return None
    return "\n".join(python), shell, magics


class _Scope:
    """What the Python scanner knows about names: import aliases and the possible string values of variables."""

    def __init__(self) -> None:
        self.aliases: dict[str, str] = {}
        self.env: dict[str, tuple[str, ...]] = {}
        self.shadowed: set[str] = set()  # names bound here, so not the kernel's modules of the same name
        self.volatile: set[str] = set()  # names changed where the scanner can't follow (global, exec): unknown
        self.local_names: frozenset[str] = frozenset()  # names the code binds other than by import
        self.import_names: set[str] = set()  # names bound by import: they keep resolving to the module
        self.path_names: set[str] = set()  # names bound to pathlib paths

    # -- names

    def qualname(self, node: ast.AST) -> str | None:
        """The dotted name an expression refers to (``sp.run`` -> ``subprocess.run``), or None."""
        if isinstance(node, ast.Name):
            name = self.aliases.get(node.id)
            if name is None and node.id not in self.shadowed:
                name = _DEFAULT_NAMES.get(node.id)
            if name is None and node.id in _BUILTINS and (
                    node.id in allowlist.DANGEROUS_BUILTINS  # rebinding exec on some path doesn't make it safe
                    or (node.id not in self.shadowed and node.id not in self.local_names)):
                name = node.id
            return name.removeprefix("builtins.") if name else None
        if isinstance(node, ast.Attribute):
            base = self.qualname(node.value)
            return f"{base}.{node.attr}".removeprefix("builtins.") if base else None
        if isinstance(node, ast.Call):
            return self.call_result_name(node)
        return None

    def trusted(self, node: ast.AST) -> str | None:
        """The dotted name of a function whose *result* is trusted (``os.getcwd()`` is '.'), or None when its
        first name is also bound by the code itself (``def getcwd(): ...``, ``class date: ...``)."""
        base = node
        while isinstance(base, (ast.Attribute, ast.Call)):
            base = base.value if isinstance(base, ast.Attribute) else base.func
        if isinstance(base, ast.Name) and base.id in self.local_names:
            return None
        return self.qualname(node)

    def call_result_name(self, node: ast.Call) -> str | None:
        """``__import__('os')`` -> ``os``; ``getattr(os, 'sys' + 'tem')`` -> ``os.system``."""
        func = self.qualname(node.func)
        if func in ("__import__", "importlib.import_module") and node.args:
            values = self.values(node.args[0])
            return values[0] if len(values) == 1 and HOLE not in values[0] else None
        if func == "getattr" and len(node.args) >= 2:
            base = self.qualname(node.args[0])
            names = self.values(node.args[1])
            if base and len(names) == 1 and HOLE not in names[0]:
                return f"{base}.{names[0]}"
        return None

    def module_ref(self, node: ast.AST) -> str | None:
        """The qualified name when ``node`` names a module or function (for ``s = os.system`` aliases)."""
        if isinstance(node, (ast.Name, ast.Attribute, ast.Call)):
            name = self.qualname(node)
            if name and (isinstance(node, ast.Call) or "." in name or name in _DEFAULT_NAMES.values()):
                return name
        return None

    # -- values

    def values(self, node: ast.AST | None) -> tuple[str, ...]:
        """The possible string values of an expression; unknown parts are HOLE; () when nothing is known."""
        if node is None:
            return ()
        handler = getattr(self, f"values_{type(node).__name__}", None)
        result = handler(node) if handler else ()
        return tuple(dict.fromkeys(result))[:MAX_VALUES]

    def values_Constant(self, node: ast.Constant) -> tuple[str, ...]:
        return (node.value,) if isinstance(node.value, str) else ()

    def values_Name(self, node: ast.Name) -> tuple[str, ...]:
        return () if node.id in self.volatile else self.env.get(node.id, ())

    def values_JoinedStr(self, node: ast.JoinedStr) -> tuple[str, ...]:
        parts = [self.values(v.value if isinstance(v, ast.FormattedValue) else v)
                 or ((NAME,) if isinstance(v, ast.FormattedValue) and self.slash_free(v) else (HOLE,))
                 for v in node.values]
        return _combine(parts, "".join)

    def slash_free(self, node: ast.FormattedValue) -> bool:
        """Whether an f-string field can't hold ``/`` or ``..``: a number (``{n:03d}``, ``{len(x)}``) or a
        date or time of the standard library (``{date.today()}``)."""
        spec = node.format_spec
        if isinstance(spec, ast.JoinedStr) and all(isinstance(v, ast.Constant) for v in spec.values):
            text = "".join(str(v.value) for v in spec.values)  # type: ignore[attr-defined]
            if re.fullmatch(r"[<>=^]?[+ -]?#?0?\d*[,_]?(\.\d+)?[bdoxXneEfFgG%]", text) and node.conversion == -1:
                return True
        value = node.value
        if isinstance(value, ast.Constant):
            return isinstance(value.value, (int, float)) and not isinstance(value.value, bool)
        if isinstance(value, ast.Call):
            name = self.trusted(value.func)
            if name in ("int", "len", "float") or name in _DATE_NOW:
                return True
            if (isinstance(value.func, ast.Attribute) and value.func.attr == "strftime" and isinstance(
                    value.func.value, ast.Call) and self.trusted(value.func.value.func) in _DATE_NOW and value.args):
                fmt = self.values(value.args[0])
                return len(fmt) == 1 and re.fullmatch(r"([^/%\\.]|%[YmdHMSjyIpfaAbBUWGuVz%])*", fmt[0]) is not None
        return False

    def values_BinOp(self, node: ast.BinOp) -> tuple[str, ...]:
        left, right = self.values(node.left), self.values(node.right)
        if not (left or right):
            return ()
        if isinstance(node.op, ast.Add):
            return _combine([left or (HOLE,), right or (HOLE,)], "".join)
        if isinstance(node.op, ast.Div):
            return _combine([left or (HOLE,), right or (HOLE,)], lambda p: posixpath.join(*p))
        return ()

    def values_IfExp(self, node: ast.IfExp) -> tuple[str, ...]:
        return self.values(node.body) + self.values(node.orelse)

    def values_List(self, node: ast.List | ast.Tuple | ast.Set) -> tuple[str, ...]:
        return tuple(itertools.chain.from_iterable(self.values(e) for e in node.elts))

    values_Tuple = values_Set = values_List

    def values_Subscript(self, node: ast.Subscript) -> tuple[str, ...]:
        if self.qualname(node.value) == "os.environ" and self.values(node.slice) == ("HOME",):
            return ("~",)
        return ()

    def values_Attribute(self, node: ast.Attribute) -> tuple[str, ...]:
        name = self.qualname(node)
        if name == "sys.executable":
            return ("python",)
        if name == "os.sep":
            return ("/",)
        if node.attr == "parent":
            return tuple(posixpath.dirname(v.rstrip("/")) or "." for v in self.values(node.value))
        if node.attr in ("name", "stem"):
            return tuple(NAME if NAME in v else posixpath.basename(v.rstrip("/")) for v in self.values(node.value))
        if node.attr == "path":
            return self.values(node.value)
        return ()

    def values_Call(self, node: ast.Call) -> tuple[str, ...]:
        func = self.trusted(node.func)
        if func is None and isinstance(node.func, ast.Name) and node.func.id not in self.local_names:
            func = node.func.id
        args = [self.values(a) or (HOLE,) for a in node.args if not isinstance(a, ast.Starred)]
        if func in _PATH_BUILDERS:
            return _combine(args, lambda p: posixpath.join(*p)) if args else (".",)
        if func in ("pathlib.Path.home",):
            return ("~",)
        if func in ("pathlib.Path.cwd", "os.getcwd"):
            return (".",)
        if func in ("os.getenv", "os.environ.get") and args and args[0] == ("HOME",):
            return ("~",)
        if func in ("str", "os.fspath", "os.path.abspath", "os.path.normpath", "os.path.realpath",
                    "os.path.expanduser", "os.path.expandvars", "glob.glob", "glob.iglob", "sorted", "list", "tuple",
                    "set", "frozenset", "reversed", "iter", "next") and node.args:
            return self.values(node.args[0])
        if func == "filter" and len(node.args) == 2:
            return self.values(node.args[1])
        if func == "os.listdir":
            return (NAME,)
        if func == "os.scandir":
            return tuple(posixpath.join(b, NAME) for b in (self.values(node.args[0]) if node.args else (".",)))
        if isinstance(node.func, ast.Attribute):
            return self.method_values(node.func.attr, node.func.value, node.args)
        return ()

    def method_values(self, method: str, receiver: ast.AST, args: list[ast.expr]) -> tuple[str, ...]:
        """Path and string methods: joinpath, glob, iterdir, resolve, str.join ..."""
        base = self.values(receiver)
        if not base:
            return ()
        arg_values = [self.values(a) or (HOLE,) for a in args]
        if method in ("joinpath", "glob", "rglob"):
            return _combine([base, *arg_values], lambda p: posixpath.join(*p))
        if method in ("iterdir", "scandir"):
            return tuple(posixpath.join(b, NAME) for b in base)
        if method in ("resolve", "absolute", "expanduser", "with_suffix", "lower", "strip"):
            return base
        if method == "join" and len(args) == 1 and isinstance(args[0], (ast.List, ast.Tuple)):
            parts = [self.values(e) or (HOLE,) for e in args[0].elts]
            return tuple(sep.join(p) for sep in base for p in itertools.islice(itertools.product(*parts), MAX_VALUES))
        return ()


def _combine(parts: Sequence[tuple[str, ...]], join: object) -> tuple[str, ...]:
    """All combinations of the parts' possible values, joined (at most MAX_VALUES)."""
    combos = itertools.islice(itertools.product(*parts), MAX_VALUES)
    return tuple(join(list(c)) for c in combos)  # type: ignore[operator]


class _PythonScanner(ast.NodeVisitor):
    """Walks a Python AST: imports, names, calls, assignments and loops."""

    def __init__(self, report: _Report, depth: int, tree: ast.AST | None = None) -> None:
        self.report = report
        self.depth = depth
        self.scope = _Scope()
        self.loops = 0
        self.commands = _Commands(report, depth)
        self.called: set[int] = set()  # ids of call targets whose call was analysed with its arguments
        self.nested = 0  # depth of function, class and comprehension bodies
        self.local_names = _bound_names(tree) if tree is not None else frozenset()
        self.scope.local_names = self.local_names
        self.user_attrs = _user_attrs(tree) if tree is not None else frozenset()
        self.modules: set[str] = set()  # names bound by ``import x`` (modules)
        self.star_modules: list[str] = []  # modules imported with ``from m import *``
        self.chain_inner: set[int] = set()  # inner nodes of a dotted module name (checked with the whole name)
        self.assigned: set[str] = set()  # names bound so far
        self.lambda_values: dict[int, dict[str, tuple[str, ...]]] = {}  # lambda parameters given listed items
        self.bind_counts = _bind_counts(tree) if tree is not None else {}
        self.attr_bases: set[int] = set()  # names that start a dotted module name

    # -- rules by name

    def apply_rules(self, qualname: str | None) -> None:
        """Flag a qualified name that matches a rule (imports, references and calls alike)."""
        if not qualname or any(_rule_matches(p, qualname) for p in _PY_SAFE) or _name_status(qualname) == "safe":
            return
        for pattern, category, template, fallback in _PY_RULES:
            if _rule_matches(pattern, qualname):
                label = pattern.rstrip(".*")
                kind = {"process_control": "process", "network": "network", "installs_packages": "install"}[category]
                self.report.flag(category, f"uses {label}", _Event(kind, template, "", fallback))
                return

    def unchecked(self, what: str) -> None:
        """Something that is not on the allowlist: the block can't be ``read_only`` (fails closed)."""
        self.report.flag("unparseable", f"{what}, which is not on my list of things I can check",
                         _Event("unparseable", "run code I can't check"))

    def internals(self, what: str) -> None:
        """Reaching interpreter internals or a callable by an indirect route: process_control."""
        self.report.flag("process_control", what, _Event("process", "run code I can't check in advance"))

    def check_import(self, module: str) -> None:
        """A module outside the allowlist (and not one the rules categorise) is ``unparseable``."""
        if module in allowlist.IMPORTABLE or any(_rule_matches(p, module) for p in _PY_SAFE):
            return
        if any(_rule_matches(p, module) for p, *_ in _PY_RULES) or _is_known(module):
            return  # flagged as network / process_control / installs_packages by the rules
        self.unchecked(f"imports {module}")

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            top = alias.name.split(".")[0]
            bound = alias.asname or top
            self.scope.aliases[bound] = alias.name if alias.asname else top
            self.scope.import_names.add(bound)
            self.modules.add(bound)
            self.apply_rules(alias.name)
            self.check_import(alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            self.unchecked("imports a module relative to a package")
            return
        module = node.module or ""
        self.check_import(module)
        for alias in node.names:
            if alias.name == "*":
                self.apply_rules(module)
                if module in ("os", "shutil", "subprocess", "builtins", "importlib", "ctypes"):
                    self.report.flag("process_control", f"imports everything from {module}",
                                     _Event("process", "run code I can't check in advance"))
                elif module not in allowlist.IMPORTABLE or not _star_safe(module):
                    self.unchecked(f"imports everything from {module}")
                self.star_modules.append(module)
                continue
            qualname = f"{module}.{alias.name}"
            self.scope.aliases[alias.asname or alias.name] = qualname
            self.scope.import_names.add(alias.asname or alias.name)
            self.apply_rules(qualname)
            if qualname in _SUBMODULES:
                self.modules.add(alias.asname or alias.name)
            else:
                self.check_name(qualname, node, called=True)

    def check_name(self, qualname: str, node: ast.AST, called: bool) -> None:
        """Check a dotted name against the allowlist; ``called``: it is the target of an analysed call."""
        status = _name_status(qualname)
        if status == "safe":
            return
        if status == "known":
            if not called:
                self.indirect(qualname)
            return
        if status == "walk":
            self.internals(f"reaches {_quote(_walked_module(qualname))} through another module")
            self.apply_rules(_walked_module(qualname))
            return
        self.unchecked(f"uses {qualname}")

    def indirect(self, qualname: str) -> None:
        """A known file, code or Home Assistant function used without calling it (aliased, passed on, stored):
        what it will be called with can't be followed, so its paths count as outside the sandbox."""
        method = qualname.rsplit(".", 1)[-1] if qualname.startswith("pathlib.") else ""
        if qualname in _DELETERS or method in _PATH_DELETE_METHODS:
            self.report.flag("deletes_files", f"uses {qualname}", _Event("delete", "delete {}", "", "some files"))
            self.report.touch(HOLE, "delete", "delete {}")
        elif qualname in _WRITERS or qualname in _OPENERS or qualname in _OS_OPEN or method in _PATH_WRITE_METHODS:
            self.report.flag("writes_files", f"uses {qualname}", _Event("write", "change {}", "", "some files"))
            self.report.touch(HOLE, "write", "write to {}")
        elif qualname in allowlist.PATH_READERS:
            self.report.touch(HOLE, "read", "read {}")
        elif qualname in _CHDIR:
            self.report.flag("outside_sandbox", f"uses {qualname}", _Event("outside", "leave my working folder"))
        elif qualname.startswith("o1_ha.") and qualname[6:] not in allowlist.HA_READS:
            self.report.flag("home_assistant", f"uses {qualname}",
                             _Event("home_assistant", "ask Home Assistant to {}", "", "do something"))
        if qualname in _PATH_BUILDERS:
            return
        self.internals(f"uses {qualname} without calling it directly")

    def visit_Name(self, node: ast.Name) -> None:
        if not isinstance(node.ctx, ast.Load):
            if not self.nested:
                self.scope.shadowed.add(node.id)
            return
        name = node.id
        if name in ("__builtins__", "__loader__", "__spec__", "__build_class__"):
            self.report.flag("process_control", f"reaches into {name}",
                             _Event("process", "run code I can't check in advance"))
            return
        qualname = self.scope.qualname(node)
        self.reference(node, qualname)
        if name in allowlist.DANGEROUS_BUILTINS and name not in self.scope.aliases:
            if name == "help":
                self.unchecked("uses help")  # imports modules by name and starts a pager
            elif id(node) not in self.called:
                self.indirect(name)
            return
        if id(node) in self.attr_bases:
            return  # checked with the whole dotted name
        if name in self.scope.aliases:
            if name in self.modules:
                self.internals(f"passes the module {self.scope.aliases[name]} around")
            else:
                self.check_name(qualname or self.scope.aliases[name], node, id(node) in self.called)
            return
        if name in self.local_names:
            return
        if name in allowlist.SAFE_BUILTINS:
            return
        if name in _BUILTIN_NAMES:
            self.unchecked(f"uses {name}")
        elif name in _DEFAULT_NAMES:
            if _DEFAULT_NAMES[name] == name:
                self.internals(f"passes the module {name} around")
            else:
                self.check_name(_DEFAULT_NAMES[name], node, id(node) in self.called)
        else:
            for module in self.star_modules:
                if name in _module_exports(module):
                    self.check_name(f"{module}.{name}", node, id(node) in self.called)
                    return
            # Any other free name does not exist when the block starts (each block is a new process).

    def visit_Attribute(self, node: ast.Attribute) -> None:
        attr = node.attr
        if attr.startswith("__") and attr.endswith("__") and attr not in _SAFE_DUNDERS:
            self.report.flag("process_control", f"reaches into Python internals ({attr})",
                             _Event("process", "run code I can't check in advance"))
        elif attr in allowlist.NEVER_ATTRS:
            self.internals(f"reaches into Python internals ({attr})")
        qualname = self.scope.qualname(node)
        if id(node) not in self.chain_inner:
            if qualname is not None:
                inner = node.value
                while isinstance(inner, ast.Attribute):
                    self.chain_inner.add(id(inner))
                    inner = inner.value
                if isinstance(inner, ast.Name):
                    self.attr_bases.add(id(inner))
            self.check_attribute(node, qualname)
        self.reference(node, qualname)
        self.generic_visit(node)

    def check_attribute(self, node: ast.Attribute, qualname: str | None) -> None:
        """The allowlist check of ``x.attr``: a module member by its dotted name, any other value's attribute
        by name (safe attributes, attributes the code defines, path methods that were analysed)."""
        attr = node.attr
        if (attr.startswith("__") and attr.endswith("__") and attr not in _SAFE_DUNDERS) or attr in allowlist.NEVER_ATTRS:
            return  # already process_control
        if not isinstance(node.ctx, ast.Load):
            base = self.scope.qualname(node.value)
            if base is not None and not isinstance(node.value, ast.Call):
                self.internals(f"changes {base}.{attr}")
            return
        if qualname is not None:
            self.check_name(qualname, node, id(node) in self.called)
            return
        if attr in allowlist.PATH_METHODS or attr in _PROCESS_METHODS or attr in _SAVE_METHODS:
            if id(node) not in self.called:
                self.internals(f"uses .{attr} without calling it directly")
            return
        if attr in allowlist.SAFE_ATTRS or attr in self.user_attrs or attr in _SAFE_DUNDERS:
            return
        self.unchecked(f"uses .{attr}")

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        """A function's body runs later, when outer names may hold other values: inside it a name bound more
        than once in the block, or a parameter, is unknown. Its own bindings don't leak out."""
        for decorator in getattr(node, "decorator_list", []):
            self.visit(decorator)
        self.visit(node.args)
        returns = getattr(node, "returns", None)
        if returns is not None:
            self.visit(returns)
        params = {a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)}
        body: list[ast.AST] = list(node.body) if isinstance(node.body, list) else [node.body]
        self.deferred(params, body, self.lambda_values.pop(id(node), {}))

    visit_AsyncFunctionDef = visit_Lambda = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        """A class body runs now, in its own namespace: its bindings don't leak out."""
        for child in [*node.decorator_list, *node.bases, *node.keywords]:
            self.visit(child)
        saved = self.save()
        self.nested += 1
        try:
            for statement in node.body:
                self.visit(statement)
        finally:
            self.nested -= 1
            self.restore(saved)

    def deferred(self, params: set[str], body: list[ast.AST], known: dict[str, tuple[str, ...]] | None = None) -> None:
        """Visit code that runs later (function, lambda, generator): outer values that may change are unknown.
        ``known``: parameters whose values are known (a lambda given to sorted/map gets the listed items)."""
        saved = self.save()
        for name in params | {n for n, count in self.bind_counts.items() if count > 1}:
            self.scope.env.pop(name, None)
        for name, values in (known or {}).items():
            if values:
                self.scope.env[name] = values
        self.nested += 1
        try:
            for statement in body:
                self.visit(statement)
        finally:
            self.nested -= 1
            self.restore(saved)

    def save(self) -> tuple[dict[str, tuple[str, ...]], frozenset[str]]:
        """The current values of names (to restore or join later)."""
        return dict(self.scope.env), frozenset(self.assigned)

    def restore(self, saved: tuple[dict[str, tuple[str, ...]], frozenset[str]]) -> None:
        self.scope.env = dict(saved[0])
        self.assigned = set(saved[1])

    def join(self, start: tuple[dict[str, tuple[str, ...]], frozenset[str]],
             *ends: tuple[dict[str, tuple[str, ...]], frozenset[str]]) -> None:
        """After branches: a name keeps values only if every branch knows them (their union); a name first
        bound in some branch keeps what those branches know."""
        env: dict[str, tuple[str, ...]] = {}
        names = set().union(*(e[0] for e in ends))
        for name in names:
            known = [e[0].get(name) for e in ends if name in e[0] or name in start[1] or name in e[1]]
            if known and all(v is not None for v in known):
                env[name] = tuple(dict.fromkeys(itertools.chain.from_iterable(known)))[:MAX_VALUES]  # type: ignore[arg-type]
        self.scope.env = env
        self.assigned = set().union(*(e[1] for e in ends))

    def forget(self, nodes: Iterable[ast.AST], only_assigned: bool = True) -> None:
        """Make names bound anywhere in ``nodes`` unknown (those bound before, or all)."""
        for name in set().union(*(_bound_names(n) for n in nodes)):
            if not only_assigned or name in self.assigned:
                self.scope.env.pop(name, None)

    def visit_If(self, node: ast.If) -> None:
        self.visit(node.test)
        start = self.save()
        for statement in node.body:
            self.visit(statement)
        after_body = self.save()
        self.restore(start)
        for statement in node.orelse:
            self.visit(statement)
        self.join(start, after_body, self.save())

    def visit_Try(self, node: ast.Try) -> None:
        """Any statement of the body may raise: handlers and what follows can't rely on its bindings."""
        for statement in node.body:
            self.visit(statement)
        for handler in node.handlers:
            self.forget([*node.body, *node.handlers], only_assigned=False)
            self.visit(handler)
        for statement in node.orelse:
            self.visit(statement)
        self.forget([*node.body, *node.handlers, *node.orelse], only_assigned=False)
        for statement in node.finalbody:
            self.visit(statement)

    visit_TryStar = visit_Try  # type: ignore[assignment]

    def visit_Match(self, node: ast.Match) -> None:
        self.visit(node.subject)
        start = self.save()
        ends = [start]
        for case in node.cases:
            self.restore(start)
            self.forget([case.pattern], only_assigned=False)
            self.visit(case.pattern)
            if case.guard is not None:
                self.visit(case.guard)
            for statement in case.body:
                self.visit(statement)
            ends.append(self.save())
        self.join(start, *ends)

    def visit_Global(self, node: ast.Global | ast.Nonlocal) -> None:
        self.scope.volatile |= set(node.names)

    visit_Nonlocal = visit_Global

    def visit_Delete(self, node: ast.Delete) -> None:
        self.generic_visit(node)
        for target in node.targets:
            self.forget([target], only_assigned=False)

    def reference(self, node: ast.expr, qualname: str | None) -> None:
        """A name used as a value: rules apply to it (imports, references and calls alike)."""
        if qualname:
            self.apply_rules(qualname)

    # -- assignments and loops

    def bind(self, target: ast.AST, value: ast.AST | None, values: tuple[str, ...]) -> None:
        """Remember what a name now holds; names in a tuple target get their element, or nothing known."""
        if isinstance(target, (ast.Tuple, ast.List)):
            elements = value.elts if isinstance(value, (ast.Tuple, ast.List)) else None
            if elements is not None and len(elements) == len(target.elts) and not any(
                    isinstance(e, ast.Starred) for e in [*elements, *target.elts]):
                for element, item in zip(target.elts, elements):
                    self.bind(element, item, self.scope.values(item))
            else:
                for name in _bound_names(target):
                    self.bind(ast.Name(id=name, ctx=ast.Store()), None, ())
            return
        if isinstance(target, ast.Starred):
            self.bind(target.value, None, ())
            return
        if not isinstance(target, ast.Name):
            return
        if not self.nested:
            self.scope.shadowed.add(target.id)
        self.assigned.add(target.id)
        self.scope.env.pop(target.id, None)
        if target.id not in self.scope.import_names:
            # an imported name rebound (maybe only on some path) still resolves to what was imported: calls
            # through it are judged as that module's, never as harmless methods of an unknown value
            self.scope.aliases.pop(target.id, None)
        if value is not None and self.is_path(value):
            self.scope.path_names.add(target.id)  # never removed: a name that may hold a path is checked as one
        if values:
            self.scope.env[target.id] = values
        ref = self.scope.module_ref(value) if value is not None else None
        if ref:
            self.scope.aliases[target.id] = ref

    def bind_loop(self, target: ast.AST, iterable: ast.AST) -> None:
        """Bind a loop variable to what the iterable yields; tuples from enumerate, zip and os.walk too."""
        if not isinstance(target, (ast.Tuple, ast.List)):
            self.bind(target, None, self.scope.values(iterable))
            return
        func = self.scope.qualname(iterable.func) if isinstance(iterable, ast.Call) else None
        args = iterable.args if isinstance(iterable, ast.Call) else []
        items: list[tuple[str, ...]] = [()] * len(target.elts)
        if func == "enumerate" and args and len(items) == 2:
            items[1] = self.scope.values(args[0])
        elif func == "zip":
            items = [self.scope.values(a) for a in args[: len(items)]] + items[len(args):]
        elif func == "os.walk" and len(items) == 3:
            top = self.scope.values(args[0]) if args else (".",)
            items = [tuple(posixpath.join(t, NAME) for t in top), (NAME,), (NAME,)]
        for element, values in zip(target.elts, items):
            self.bind(element, None, values)

    def visit_With(self, node: ast.With) -> None:
        for item in node.items:
            self.visit(item.context_expr)
            if item.optional_vars is not None:
                self.visit(item.optional_vars)
                self.bind(item.optional_vars, item.context_expr, self.scope.values(item.context_expr))
        for statement in node.body:
            self.visit(statement)
        self.forget(node.body)  # a context manager may stop the body early (contextlib.suppress)

    visit_AsyncWith = visit_With  # type: ignore[assignment]

    def visit_Assign(self, node: ast.Assign) -> None:
        self.generic_visit(node)
        values = self.scope.values(node.value)
        for target in node.targets:
            self.bind(target, node.value, values)
        self.check_strings(node.value)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self.generic_visit(node)
        if node.value is not None:
            self.bind(node.target, node.value, self.scope.values(node.value))
            self.check_strings(node.value)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        """``:=`` often sits in a condition that may not run: a name bound before keeps both values."""
        self.generic_visit(node)
        name = node.target.id
        before = self.scope.env.get(name) if name not in self.assigned or name in self.scope.env else None
        was_assigned = name in self.assigned
        self.bind(node.target, node.value, self.scope.values(node.value))
        now = self.scope.env.get(name)
        if was_assigned:
            if before is None or now is None:
                self.scope.env.pop(name, None)
            else:
                self.scope.env[name] = tuple(dict.fromkeys(before + now))[:MAX_VALUES]

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self.generic_visit(node)
        if isinstance(node.target, ast.Name) and isinstance(node.op, ast.Add):
            old = self.scope.env.get(node.target.id, ())
            new = self.scope.values(node.value)
            combined = _combine([old or (HOLE,), new or (HOLE,)], "".join) if old or new else ()
            self.bind(node.target, None, combined)

    def loop(self, node: ast.AST, target: ast.AST | None = None, iterable: ast.AST | None = None) -> None:
        """Visit a loop body knowing we are in a loop; bind a ``for`` variable to the iterable's values.

        A later turn of the loop sees what an earlier one bound, and the loop may not run at all: names bound
        in it that had values before are unknown inside it and after it."""
        body = [*getattr(node, "body", []), *([node.test] if isinstance(node, ast.While) else [])]
        if iterable is not None:
            self.visit(iterable)
            self.check_strings(iterable)
        start = self.save()
        self.forget(body)
        if target is not None:
            self.bind_loop(target, iterable)  # type: ignore[arg-type]
        self.loops += 1
        try:
            for field in ("test", "body"):
                value = getattr(node, field, None)
                for child in value if isinstance(value, list) else [value] if value is not None else []:
                    self.visit(child)
        finally:
            self.loops -= 1
        self.join(start, start, self.save())
        self.forget(body)
        for child in getattr(node, "orelse", []):
            self.visit(child)

    def visit_For(self, node: ast.For) -> None:
        self.loop(node, node.target, node.iter)

    visit_AsyncFor = visit_For

    def visit_While(self, node: ast.While) -> None:
        self.loop(node)

    def visit_comprehension_node(self, node: ast.AST) -> None:
        """List/set/dict comprehensions and generators: generators first, then the element. Their loop
        variables are their own; a generator expression runs later, when outer names may have changed."""
        generators = node.generators  # type: ignore[attr-defined]
        self.visit(generators[0].iter)  # evaluated at once, in the enclosing scope
        saved = self.save()
        if isinstance(node, ast.GeneratorExp):
            for name in {n for n, count in self.bind_counts.items() if count > 1}:
                self.scope.env.pop(name, None)
        self.loops += 1
        self.nested += 1
        try:
            for index, generator in enumerate(generators):
                if index:
                    self.visit(generator.iter)
                self.bind_loop(generator.target, generator.iter)
                for condition in generator.ifs:
                    self.visit(condition)
            for field in ("elt", "key", "value"):
                if getattr(node, field, None) is not None:
                    self.visit(getattr(node, field))
        finally:
            self.loops -= 1
            self.nested -= 1
            targets = set().union(*(_bound_names(g.target) for g in generators))
            for name in targets:  # restore the enclosing scope's values of the loop variables
                self.scope.env.pop(name, None)
                if name in saved[0]:
                    self.scope.env[name] = saved[0][name]

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_comprehension_node

    # -- calls

    def visit_Call(self, node: ast.Call) -> None:
        qualname = self.scope.qualname(node.func)
        self.apply_rules(qualname)
        handler = self.call_handler(node, qualname)
        self.called.add(id(node.func))  # called directly: what it gets is analysed here or harmless
        if handler is not None:
            handler(node, qualname)  # type: ignore[arg-type]
        builtin = node.func.id if isinstance(node.func, ast.Name) and node.func.id not in self.local_names else None
        if builtin in ("map", "filter", "sorted", "max", "min"):
            self.callback(node, builtin)
        if qualname in _PATH_BUILDERS:
            self.check_strings(node)  # the joined path, not its pieces
        elif not self.is_text_call(node, qualname):
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                self.check_strings(arg)
        self.generic_visit(node)

    def call_handler(self, node: ast.Call, qualname: str | None) -> Callable[[ast.Call, str], None] | None:
        """The method that analyses this call's arguments, or None."""
        if qualname is None:
            return self.call_method if isinstance(node.func, ast.Attribute) else None
        tables = ((_OPENERS, self.call_open), (_DELETERS, self.call_delete), (_WRITERS, self.call_write),
                  (_REFLECTION, self.call_reflection), (_DYNAMIC_CODE, self.call_eval),
                  (_OS_OPEN, self.call_os_open), (_FORKS, self.call_fork),
                  (allowlist.PATH_READERS, self.call_read), (_CHDIR, self.call_chdir))
        handler = next((h for table, h in tables if qualname in table), None)
        if handler is None and _runs_command(qualname):
            handler = self.call_command
        if handler is None and qualname.startswith("pathlib.") and qualname.rsplit(".", 1)[-1] in (
                allowlist.PATH_METHODS | set(_PATH_WRITE_METHODS) | _PATH_DELETE_METHODS):
            handler = self.call_path_unbound
        if handler is None and qualname.startswith("o1_ha.") and _is_known(qualname):
            handler = self.call_home_assistant
        return handler

    def call_path_unbound(self, node: ast.Call, qualname: str) -> None:
        """``pathlib.Path.write_text(p, 'x')``: the same as ``p.write_text('x')``."""
        receiver = self.arg(node, 0, "self") or ast.Name(id=HOLE, ctx=ast.Load())
        method = ast.Attribute(value=receiver, attr=qualname.rsplit(".", 1)[-1], ctx=ast.Load())
        self.call_method(ast.Call(func=method, args=node.args[1:], keywords=node.keywords), None)

    def callback(self, node: ast.Call, qualname: str) -> None:
        """map(os.remove, files), sorted(files, key=os.path.getsize): the function gets each listed path."""
        if qualname in ("map", "filter"):
            function, iterable = self.arg(node, 0), self.arg(node, 1)
        else:
            function = next((k.value for k in node.keywords if k.arg == "key"), None)
            iterable = self.arg(node, 0)
        if isinstance(function, ast.Lambda) and function.args.args and iterable is not None:
            self.lambda_values[id(function)] = {function.args.args[0].arg: self.scope.values(iterable)}
            return
        name = self.scope.qualname(function) if function is not None else None
        if name is None or len(node.args) > (2 if qualname in ("map", "filter") else 1):
            return
        paths = self.paths(iterable)
        if name in _DELETERS:
            self.called.add(id(function))
            self.report.flag("deletes_files", f"{name} deletes {_quote_all(paths)}")
            for path in paths:
                self.report.touch(path, "delete", _DELETERS[name])
        elif name in allowlist.PATH_READERS:
            self.called.add(id(function))
            for path in paths:
                self.report.touch(path, "read", "read {}")

    def call_read(self, node: ast.Call, qualname: str) -> None:
        """os.listdir, os.stat, os.path.getsize, glob.glob ...: the path they read is checked like open()'s."""
        path = self.arg(node, allowlist.PATH_READERS[qualname], "path", "pathname", "top", "filename", "s")
        paths = ((".",) if path is None and qualname in allowlist.PATH_DEFAULT_CWD else self.paths(path))
        for value in paths:
            self.report.touch(value, "read", "read {}" if not qualname.endswith(("listdir", "scandir", "walk"))
                              else "list {}")
        if qualname == "os.path.samefile":
            for value in self.paths(self.arg(node, 1, "f2")):
                self.report.touch(value, "read", "read {}")

    def call_chdir(self, node: ast.Call, qualname: str) -> None:
        """os.chdir and friends: relative paths after it can't be judged, so it counts as leaving the sandbox."""
        self.report.flag("outside_sandbox", f"{qualname} changes the working folder",
                         _Event("outside", "leave my working folder"))
        if qualname == "os.chroot":
            self.internals("os.chroot changes the root folder")

    def is_text_call(self, node: ast.Call, qualname: str | None) -> bool:
        """Calls whose string arguments are text, not paths (print, logging, str methods, commands)."""
        if qualname in _TEXT_CALLS or _runs_command(qualname):
            return True
        if qualname and qualname.startswith(_TEXT_PREFIXES):
            return True
        return qualname is None and isinstance(node.func, ast.Attribute) and node.func.attr in _TEXT_METHODS

    def check_strings(self, node: ast.AST) -> None:
        """Check string values in an expression: paths against the sandbox, URLs as network."""
        if isinstance(node, ast.Dict):
            for value in node.values:
                self.check_strings(value)
            return
        for text in self.scope.values(node):
            if _URL.match(text):
                host = _host_of(text)
                self.report.flag("network", f"uses the address {_quote(text)}",
                                 _Event("network", "connect to {}", host, "the internet"))
            else:
                self.report.candidate(text)

    def arg(self, node: ast.Call, index: int, *names: str) -> ast.expr | None:
        """Positional argument ``index`` or the first keyword of ``names``; with ``*args`` or ``**kwargs`` in the
        call, an argument not given plainly is a value known only at run time."""
        starred = [i for i, a in enumerate(node.args) if isinstance(a, ast.Starred)]
        if index < len(node.args) and not (starred and starred[0] <= index):
            return node.args[index]
        found = next((k.value for k in node.keywords if k.arg in names), None)
        if found is None and (starred or any(k.arg is None for k in node.keywords)):
            return ast.Name(id=HOLE, ctx=ast.Load())  # bound to nothing: its values are unknown
        return found

    def paths(self, node: ast.AST | None) -> tuple[str, ...]:
        """Possible paths of an argument (HOLE when nothing is known)."""
        return self.scope.values(node) or (HOLE,)

    def call_open(self, node: ast.Call, qualname: str) -> None:
        """open(path, mode): a mode with w, a, x or + writes; an unreadable mode counts as writing."""
        modes = self.scope.values(self.arg(node, 1, "mode")) if self.arg(node, 1, "mode") else (_OPENERS[qualname],)
        writes = not modes or any(set(m) & set("wax+c") or HOLE in m for m in modes)
        self.open_paths(self.paths(self.arg(node, 0, "file", "name", "filename")), writes, qualname)

    def open_paths(self, paths: tuple[str, ...], writes: bool, what: str) -> None:
        """Record files opened for reading or writing."""
        if writes:
            self.report.flag("writes_files", f"{what} writes {_quote_all(paths)}")
        for path in paths:
            self.report.touch(path, "write" if writes else "read", "write to {}" if writes else "read {}")

    def call_os_open(self, node: ast.Call, qualname: str) -> None:
        """os.open(path, flags): anything but O_RDONLY counts as writing."""
        flags = self.arg(node, 1, "flags")
        read_only = isinstance(flags, ast.Attribute) and flags.attr == "O_RDONLY"
        self.open_paths(self.paths(self.arg(node, 0, "path")), not read_only, qualname)

    def call_delete(self, node: ast.Call, qualname: str) -> None:
        """os.remove, shutil.rmtree, shutil.move ... (move also writes its destination)."""
        targets = self.paths(self.arg(node, 0, "path", "src"))
        self.report.flag("deletes_files", f"{qualname} deletes {_quote_all(targets)}")
        for target in targets:
            self.report.touch(target, "delete", _DELETERS[qualname])
        if qualname == "shutil.move":
            dest = self.paths(self.arg(node, 1, "dst"))
            self.report.flag("writes_files", f"{qualname} writes {_quote_all(dest)}")
            for path in dest:
                self.report.touch(path, "write", "move files to {}")

    def call_write(self, node: ast.Call, qualname: str) -> None:
        if qualname == "shutil.unpack_archive":  # members named ../x or /x land wherever they say (3.11 tarfile)
            self.report.flag("outside_sandbox", "an archive's files may land outside the sandbox",
                             _Event("outside", "unpack files that may land outside my working folder"))
        self.call_write_paths(node, qualname)

    def call_write_paths(self, node: ast.Call, qualname: str) -> None:
        """os.mkdir, os.rename, shutil.copy ...: the written path, other path arguments are read."""
        index, template = _WRITERS[qualname]
        names = ("dst", "dest", "base_name", "extract_dir") if index else ("path", "name", "file", "fname", "base_name")
        written = self.paths(self.arg(node, index, *names))
        self.report.flag("writes_files", f"{qualname} writes {_quote_all(written)}")
        for path in written:
            self.report.touch(path, "write", template)
        if index:
            for path in self.paths(self.arg(node, 0, "src")):
                self.report.touch(path, "read", "read {}")

    def call_command(self, node: ast.Call, qualname: str) -> None:
        """os.system, subprocess.run, os.execv ...: classify the command itself (a string is shell code)."""
        shape, index = _command_shape(qualname)
        if shape == "varargs":
            words = [self.scope.values(a) for a in node.args[index:]]
            argv = [w[0] if len(w) == 1 else HOLE for w in words]
            if argv:
                self.commands.scan(argv)
            else:
                self.command_node(None, qualname)
        else:
            self.command_node(self.arg(node, index, "args", "cmd", "command", "argv"), qualname)

    def command_node(self, argv_node: ast.AST | None, qualname: str) -> None:
        """A command given as a string (shell) or a list of words."""
        if isinstance(argv_node, (ast.List, ast.Tuple)):
            words = [self.scope.values(e) for e in argv_node.elts]
            self.commands.scan([w[0] if len(w) == 1 else HOLE for w in words])
            return
        commands = self.scope.values(argv_node)
        if not commands or all(c == HOLE for c in commands):
            self.report.flag("process_control", f"{qualname} runs a command I can't read",
                             _Event("process", "run a command I can't check in advance"))
        for command in commands:
            _scan_shell(command, self.report, self.depth + 1)

    def call_eval(self, node: ast.Call, qualname: str) -> None:
        """eval/exec/compile of a literal is classified as Python; of anything else is dynamic code."""
        source = self.arg(node, 0, "source", "object")
        values = self.scope.values(source) if isinstance(source, (ast.Constant, ast.Name)) else ()
        if len(values) == 1 and HOLE not in values[0]:
            _scan_python(values[0], self.report, self.depth + 1)
            try:  # the code runs in this block's namespace: names it binds are unknown from here on
                self.scope.volatile |= _bound_names(ast.parse(values[0]))
            except (SyntaxError, ValueError):
                pass
        else:
            self.report.flag("process_control", f"{qualname} runs code built at run time",
                             _Event("process", "run code I can't check in advance"))

    def call_reflection(self, node: ast.Call, qualname: str) -> None:
        """getattr/setattr with a computed name or on a module, globals(), vars() ...: dynamic code."""
        if qualname in ("getattr", "setattr", "delattr") and len(node.args) >= 2:
            resolved = self.scope.call_result_name(node) if qualname == "getattr" else None
            if resolved:
                self.attr_bases.add(id(node.args[0]))
                self.apply_rules(resolved)
                self.check_name(resolved, node, id(node) in self.called)
                return
            names = self.scope.values(node.args[1])
            static_name = len(names) == 1 and HOLE not in names[0] and names[0].isidentifier()
            if static_name and self.scope.qualname(node.args[0]) is None:
                # getattr(obj, "name") on an ordinary object: the same check as obj.name
                attribute = ast.Attribute(value=node.args[0], attr=names[0],
                                          ctx=ast.Load() if qualname == "getattr" else ast.Store())
                if names[0].startswith("__") and names[0].endswith("__") and names[0] not in _SAFE_DUNDERS:
                    self.internals(f"reaches into Python internals ({names[0]})")
                elif names[0] in allowlist.NEVER_ATTRS:
                    self.internals(f"reaches into Python internals ({names[0]})")
                elif qualname == "getattr":
                    if id(node) in self.called:
                        self.called.add(id(attribute))
                    self.check_attribute(attribute, None)
                return
        self.report.flag("process_control", f"{qualname} looks up names at run time",
                         _Event("process", "run code I can't check in advance"))

    def call_fork(self, node: ast.Call, qualname: str) -> None:
        """os.fork inside a loop is a fork bomb."""
        if self.loops:
            self.report.flag("process_control", f"{qualname} inside a loop, like a fork bomb",
                             _Event("fork_bomb", "start a fork bomb that floods the computer with processes"))

    def call_home_assistant(self, node: ast.Call, qualname: str) -> None:
        """o1_ha.get_state reads; every other o1_ha function acts on the home; anything else reached through
        the module (``o1_ha.os.system``, ``o1_ha._socket``...) is not a Home Assistant call at all."""
        function = qualname.split(".", 1)[1]
        if function not in _HA_FUNCTIONS:
            self.report.flag("process_control", f"o1_ha.{function} is not one of o1_ha's functions",
                             _Event("process", "start or control other programs"))
            return
        if function in _HA_READS:
            return
        action = _ha_action(self.scope, node) if function == "call_service" else ""
        fallback = f"run {function.replace('_', ' ')}"
        self.report.flag("home_assistant", f"o1_ha.{function} acts on Home Assistant",
                         _Event("home_assistant", "ask Home Assistant to {}", action, fallback))

    def call_method(self, node: ast.Call, qualname: str | None) -> None:
        """Methods on objects we can't name: Path.unlink/write_text/open, DataFrame.to_csv, ``x.system``.

        A path method on a receiver whose path is unknown gets the path HOLE (outside the sandbox)."""
        func = node.func
        assert isinstance(func, ast.Attribute)
        method, receiver = func.attr, self.scope.values(func.value)
        one_arg = len(node.args) == 1 and not node.keywords
        if method in _PATH_DELETE_METHODS:
            targets = receiver or (HOLE,)
            self.report.flag("deletes_files", f"{method} deletes {_quote_all(targets)}")
            for target in targets:
                self.report.touch(target, "delete", "delete {}")
        elif method in _PATH_WRITE_METHODS or method == "rename" or (
                method == "replace" and (self.is_path(func.value) or (one_arg and not receiver))):
            self.path_write(method, receiver, node)
        elif method in _PATH_QUERY_METHODS:
            for path in receiver or (HOLE,):
                self.report.touch(path, "read", "read {}")
            if method == "samefile":
                for path in self.paths(self.arg(node, 0, "other_path")):
                    self.report.touch(path, "read", "read {}")
        elif method == "open":
            mode = self.arg(node, 0, "mode")
            modes = self.scope.values(mode) if mode is not None else ("r",)
            writes = not modes or any(set(m) & set("wax+") or HOLE in m for m in modes)
            self.open_paths(receiver or (HOLE,), writes, method)
        elif method in ("format", "format_map"):
            self.check_format(receiver)
        elif method in _SAVE_METHODS and (node.args or node.keywords):
            target = self.arg(node, 0, "path", "fname", "path_or_buf", "excel_writer")
            self.open_paths(self.paths(target), True, method)
        elif method in _PROCESS_METHODS:
            self.report.flag("process_control", f"calls .{method}()",
                             _Event("process", "start or control other programs"))

    def check_format(self, templates: tuple[str, ...]) -> None:
        """str.format reads attributes and items named in its text (``'{0.__globals__}'``): check those names
        like attributes in code; a text only known at run time can't be checked."""
        if not templates or any(HOLE in t for t in templates):
            self.unchecked("formats a text that is only known at run time")
            return
        for template in templates:
            try:
                fields = [f for _, f, _, _ in string.Formatter().parse(template) if f]
            except ValueError:
                continue  # str.format raises the same error before reading anything
            for field in fields:
                for attr in re.findall(r"\.([^.\[]*)", field):
                    if attr.startswith("_") or attr in allowlist.NEVER_ATTRS:
                        self.internals(f"reaches into Python internals ({attr}) through a format string")
                    elif attr not in allowlist.SAFE_ATTRS and attr not in self.user_attrs:
                        self.unchecked(f"formats the attribute .{attr}")

    def is_path(self, node: ast.AST) -> bool:
        """Whether an expression is a pathlib path (``Path(...)``, ``p / 'x'`` or a name bound to one)."""
        if isinstance(node, ast.Name):
            return node.id in self.scope.path_names
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            return self.is_path(node.left)
        if isinstance(node, ast.Call):
            name = self.scope.qualname(node.func)
            return bool(name) and name.startswith("pathlib.")  # type: ignore[union-attr]
        return False

    def path_write(self, method: str, receiver: tuple[str, ...], node: ast.Call) -> None:
        """Path.write_text, touch, mkdir, rename ... on a path (rename also writes its destination)."""
        if method in ("rename", "replace"):
            written = self.paths(self.arg(node, 0, "target"))
            template = "rename files to {}"
            for path in receiver or (HOLE,):
                self.report.touch(path, "write", "move {}")
        elif method in ("symlink_to", "hardlink_to", "link_to"):
            written, template = receiver or (HOLE,), _PATH_WRITE_METHODS.get(method, "create a link at {}")
            for path in self.paths(self.arg(node, 0, "target")):
                self.report.touch(path, "read", "link to {}")
        else:
            written, template = receiver or (HOLE,), _PATH_WRITE_METHODS[method]
        self.report.flag("writes_files", f"{method} writes {_quote_all(written)}")
        for path in written:
            self.report.touch(path, "write", template)


def _ha_action(scope: _Scope, node: ast.Call) -> str:
    """'turn on light kitchen' from o1_ha.call_service('light', 'turn_on', entity_id='light.kitchen')."""
    texts = [v[0] if len(v) == 1 else "" for v in (scope.values(a) for a in node.args)]
    if texts and "." in texts[0]:
        service, rest = texts[0].split(".", 1)[1], texts[1:]
    elif len(texts) >= 2:
        service, rest = texts[1], texts[2:]
    else:
        return ""
    entity = next((t for t in rest if "." in t), "")
    for keyword in node.keywords:
        if keyword.arg == "entity_id":
            values = scope.values(keyword.value)
            entity = values[0] if len(values) == 1 else entity
        elif isinstance(keyword.value, ast.Dict):
            entity = _dict_entity(scope, keyword.value) or entity
    for arg in node.args:
        if isinstance(arg, ast.Dict):
            entity = _dict_entity(scope, arg) or entity
    words = " ".join(w for w in (service.replace("_", " "), entity.replace(".", " ").replace("_", " ")) if w)
    return words if HOLE not in words else ""


def _dict_entity(scope: _Scope, node: ast.Dict) -> str:
    """The entity_id in a service data / target dict literal."""
    for key, value in zip(node.keys, node.values, strict=True):
        if key is not None and scope.values(key) == ("entity_id",):
            values = scope.values(value)
            return values[0] if len(values) == 1 else ""
    return ""
