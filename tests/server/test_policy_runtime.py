"""The classifier against what code really does: whatever it calls ``read_only`` must have no side effect.

Hypothesis writes small Python programs from fragments: safe calls, dangerous callables (``exec``,
``os.system``, ``posix.system``, ``getattr``, ``open`` ...), indirections (aliases, lists, lambdas,
``getattr`` with computed names, dunder and frame walks) and paths built at run time. Every program the
classifier calls ``read_only`` is then run in its own Python process inside a temporary sandbox folder, with a
PEP 578 audit hook (https://peps.python.org/pep-0578/, events listed in the "Audit events table" of the
Python documentation) recording what the interpreter did. None of these may appear: starting or signalling
processes, sockets, native code, unpickling, changing or deleting files, opening a file for writing, reading
outside the sandbox, changing the working folder or the environment, tracing. (Frame and code-object events
are not checked here: the standard library raises them itself, for namedtuple and dataclasses; the block's
own code can't reach frames or dunders, which the static tests cover. Loading a module's ``.pyc`` is the
import system, not the block.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from o1_server.agent.policy import classify
from o1_server.agent.sandbox import HELPERS_DIR

HARNESS = r"""
import os, sys
fd = os.open(sys.argv[2], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
started = []
def hook(event, args):
    if started:
        try:
            os.write(fd, (repr((event, [a if isinstance(a, (str, int, bytes)) else type(a).__name__ for a in args[:3]]))
                          + "\n").encode())
        except Exception:
            pass
sys.path.insert(0, sys.argv[3])
for name in sys.argv[4].split(","):  # imported before recording: loading modules is not the block's doing
    __import__(name)
sys.addaudithook(hook)
source = open(sys.argv[1]).read()
code = compile(source, "<block>", "exec")
started.append(1)
exec(code, {"__name__": "__main__"})
"""
FORBIDDEN_PREFIXES = (
    "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "os.kill", "os.killpg",
    "subprocess.", "pty.", "socket.", "ctypes.", "pickle.", "marshal.", "os.remove", "os.unlink", "os.rename",
    "os.rmdir", "os.mkdir", "os.symlink", "os.link", "os.chmod", "os.chown", "os.utime", "os.truncate",
    "os.chdir", "os.chroot", "os.putenv", "os.unsetenv", "shutil.", "sys.settrace",
    "sys.setprofile", "object.__delattr__", "code.__new__",
    "function.__new__", "builtins.breakpoint", "webbrowser.", "urllib.", "http.client.", "sys.addaudithook",
    "os.startfile", "os.setsid", "os.setuid", "resource.", "signal.",
)


def _allowed_read(path: str, sandbox: Path) -> bool:
    """Reads the interpreter does on its own (stdlib modules, time zones) or inside the sandbox."""
    resolved = os.path.realpath(os.path.join(sandbox, path))
    roots = [str(sandbox.resolve()), str(HELPERS_DIR), sys.base_prefix, sys.prefix, "/usr/share/zoneinfo", "/etc/localtime",
             "/dev/null", "/dev/urandom", "/usr/lib/locale", "/usr/lib/python3"]
    return any(resolved == r or resolved.startswith(r.rstrip("/") + "/") for r in roots)


def _violations(events: list[tuple[str, list]], sandbox: Path) -> list[tuple[str, list]]:
    """The forbidden events; ``marshal.loads`` right after opening a ``.pyc`` is Python importing a module."""
    bad, previous = [], ("", [])
    for event, args in events:
        loading = event == "marshal.loads" and previous[0] == "open" and str(previous[1][:1]).endswith(".pyc']")
        if not loading and _forbidden(event, list(args), sandbox):
            bad.append((event, args))
        previous = (event, list(args))
    return bad


def _forbidden(event: str, args: list, sandbox: Path) -> bool:
    if event.startswith(FORBIDDEN_PREFIXES):
        return True
    if event == "open":
        path, mode, flags = (args + [None, None, None])[:3]
        writes = (isinstance(mode, str) and set(mode) & set("wax+")) or (
            isinstance(flags, int) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC))
        outside = not isinstance(path, str) or not _allowed_read(path, sandbox)
        return bool(writes) or outside
    if event in ("os.listdir", "os.scandir", "glob.glob"):
        return not isinstance(args[0], str) or not _allowed_read(args[0], sandbox)
    return False


# --- program fragments
STRINGS = ["'notes.txt'", "'sys' + 'tem'", "chr(47) + 'tmp/o1-x'", "'echo owned'", "\"print(1)\"", "'__class__'",
           "'upper'", "'../x'", "input()", "'a' * 3", "str(len('ab'))"]
DANGERS = ["exec", "eval", "getattr", "open", "vars", "globals", "compile", "__import__", "os.system", "os.popen",
           "posix.system", "os.remove", "os.chdir", "subprocess.run", "o1_ha.os", "random._os",
           "json.codecs", "sys.modules", "importlib.import_module", "pickle.loads", "functools.partial"]
SAFES = ["print", "len", "str", "sorted", "math.sqrt", "json.dumps", "abs", "max", "repr", "list"]
ATTRS = ["system", "__class__", "__globals__", "gi_frame", "f_globals", "read", "upper", "write", "__self__",
         "__dict__", "_os", "path", "environ", "__subclasses__", "__builtins__", "codecs", "join"]
IMPORTS = ["os", "sys", "math", "json", "random", "functools", "o1_ha", "textwrap", "posix", "subprocess"]


def expressions() -> st.SearchStrategy[str]:
    leaf = st.one_of(st.sampled_from(STRINGS), st.sampled_from(DANGERS), st.sampled_from(SAFES),
                     st.sampled_from(["x", "y", "1", "[]", "(i for i in [1])"]))

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(inner, inner).map(lambda t: f"{t[0]}({t[1]})"),
            st.tuples(inner, st.sampled_from(ATTRS)).map(lambda t: f"({t[0]}).{t[1]}"),
            st.tuples(inner, inner).map(lambda t: f"getattr({t[0]}, {t[1]})"),
            inner.map(lambda e: f"[{e}][0]"),
            inner.map(lambda e: f"(lambda: {e})()"),
            st.tuples(inner, inner).map(lambda t: f"{t[0]} + {t[1]}"),
            st.tuples(inner, st.sampled_from(STRINGS)).map(lambda t: f"({t[0]})[{t[1]}]"),
            st.tuples(inner, st.sampled_from(["'w'", "'r'", "'a'"])).map(lambda t: f"open({t[0]}, {t[1]})"),
        )

    return st.recursive(leaf, extend, max_leaves=5)


def programs() -> st.SearchStrategy[str]:
    imports = st.lists(st.sampled_from(IMPORTS), max_size=4, unique=True).map(
        lambda names: "".join(f"import {n}\n" for n in names))
    statement = st.one_of(
        expressions().map(lambda e: f"x = {e}"),
        expressions().map(lambda e: f"y = {e}"),
        expressions(),
        expressions().map(lambda e: f"print({e})"),
        st.tuples(st.sampled_from(["x", "y", "str", "len", "o1_ha", "os", "exec"]), expressions()).map(
            lambda t: f"if len('a') > 5:\n    {t[0]} = {t[1]}"),
        st.tuples(st.sampled_from(["str", "len", "int", "getcwd", "x"]), expressions()).map(
            lambda t: f"def {t[0]}(*a):\n    return {t[1]}"),
        expressions().map(lambda e: f"for x in [{e}]:\n    y = x"),
    )
    body = st.lists(statement, min_size=1, max_size=4).map(lambda lines: "\n".join(lines))
    return st.tuples(imports, body).map("".join)


def _run_and_audit(code: str, sandbox: Path) -> list[tuple[str, list]]:
    """Run ``code`` in its own interpreter (cwd = sandbox) and return the audit events it raised."""
    block, log = sandbox / ".block.py", sandbox.parent / "audit-events.log"
    block.write_text(code)
    log.write_text("")
    try:
        subprocess.run([sys.executable, "-I", "-c", HARNESS, str(block), str(log), str(HELPERS_DIR), ",".join(IMPORTS)],
                       cwd=sandbox, timeout=20,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       env={"PATH": "/usr/bin:/bin", "HOME": str(sandbox), "LANG": "C.UTF-8"},
                       start_new_session=True)
    except subprocess.TimeoutExpired:
        pass
    events = []
    for line in log.read_text().splitlines():
        try:
            events.append(eval(line, {"__builtins__": {}}))  # noqa: S307 - our own repr() of str/int/bytes
        except Exception:  # noqa: BLE001 - a line cut short by a crash
            continue
    return events


@pytest.fixture
def sandbox(tmp_path: Path) -> Path:
    root = tmp_path / "sandbox"
    root.mkdir()
    (root / "notes.txt").write_text("milk\n")
    return root


@settings(max_examples=int(os.environ.get("O1_RUNTIME_EXAMPLES", "150")), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=programs())
def test_what_the_classifier_calls_read_only_does_nothing_forbidden(sandbox: Path, body: str) -> None:
    found = classify("python", body, sandbox)
    event("read_only" if found.categories == {"read_only"} else "not read_only")
    if found.categories != {"read_only"}:
        return
    bad = _violations(_run_and_audit(body, sandbox), sandbox)
    assert not bad, (code, bad)


def test_the_harness_sees_side_effects(sandbox: Path) -> None:
    """The audit harness itself works: forbidden effects of plainly dangerous code are recorded."""
    code = ("import os\nos.system('true')\nopen('made.txt', 'w').close()\nopen('/etc/hostname').read()\n"
            "import socket\nsocket.socket()")
    names = {e[0] for e in _violations(_run_and_audit(code, sandbox), sandbox)}
    assert {"os.system", "open", "socket.__new__"} <= names, events
    assert json.dumps(sorted(names))


def test_everyday_read_only_code_really_only_reads(sandbox: Path) -> None:
    """The allowlist's promise, checked by effect: everyday code it passes raises no forbidden audit event."""
    from tests.server.test_policy_properties import LEGIT

    (sandbox / "a.csv").write_text("name\nmilk\n")
    for code in LEGIT:
        assert classify("python", code, sandbox).categories == {"read_only"}, code
        bad = _violations(_run_and_audit(code, sandbox), sandbox)
        assert not bad, (code, bad)
