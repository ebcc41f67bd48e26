"""Property tests of the safety classifier (o1_server.agent.policy): it fails closed.

Hypothesis composes every dangerous callable with every indirection (alias, getattr with a computed name,
subscripts of builtins, lambda, list, dict, decorator, default argument, class attribute, walrus ...): none of
them may be ``read_only``. Runtime-built paths are never inside the sandbox. ``classify`` never raises, on any
text in any language.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from o1_server.agent.policy import CATEGORIES, classify

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# (import prelude, expression that evaluates to something that runs code, touches files or the network)
DANGEROUS = [
    ("", "exec"), ("", "eval"), ("", "compile"), ("", "__import__"), ("", "getattr"), ("", "vars"),
    ("", "globals"), ("", "locals"), ("", "breakpoint"), ("", "open"), ("", "setattr"),
    ("import os", "os.system"), ("import os", "os.popen"), ("import os", "os.execv"), ("import os", "os.spawnl"),
    ("import os", "os.posix_spawn"), ("import os", "os.fork"), ("import os", "os.kill"), ("import os", "os.remove"),
    ("import os", "os.chdir"), ("import os", "os.putenv"), ("import os", "os.environ.get"), ("import posix", "posix.system"),
    ("import nt", "nt.system"), ("import subprocess", "subprocess.run"), ("import subprocess", "subprocess.Popen"),
    ("import socket", "socket.socket"), ("import _socket", "_socket.socket"), ("import ctypes", "ctypes.CDLL"),
    ("import pickle", "pickle.loads"), ("import marshal", "marshal.loads"),
    ("import importlib", "importlib.import_module"), ("import runpy", "runpy.run_path"),
    ("import code", "code.interact"), ("import codeop", "codeop.compile_command"), ("import pty", "pty.spawn"),
    ("import multiprocessing", "multiprocessing.Process"), ("import threading", "threading.Thread"),
    ("import signal", "signal.signal"), ("import shutil", "shutil.rmtree"), ("import o1_ha", "o1_ha.call_service"),
    ("import o1_ha", "o1_ha.os.system"), ("import sys", "sys.modules.get"), ("import json", "json.codecs.open"),
    ("import random", "random._os.system"), ("import textwrap", "textwrap.re.sys"), ("import asyncio", "asyncio.run"),
    ("import _posixsubprocess", "_posixsubprocess.fork_exec"), ("import resource", "resource.setrlimit"),
    ("from os import system", "system"), ("from subprocess import run as go", "go"),
    ("import platform", "platform.os.system"), ("import gc", "gc.get_objects"), ("import inspect", "inspect.stack"),
]
INDIRECTIONS = [
    "g = {f}\ng(input())",
    "[{f}][0](input())",
    "{{'k': {f}}}['k'](input())",
    "(lambda: {f})()(input())",
    "@{f}\ndef h():\n    pass",
    "def h(x={f}):\n    return x(input())\nh()",
    "class C:\n    m = staticmethod({f})\nC.m(input())",
    "(g := {f})(input())",
    "a, b = {f}, 1\na(input())",
    "for g in [{f}]:\n    g(input())",
    "import functools\nfunctools.partial({f}, input())()",
    "list(map({f}, [input()]))",
    "sorted([input()], key={f})",
    "def h():\n    return {f}\nh()(input())",
    "[g(input()) for g in [{f}]]",
    "({f} if len('a') else print)(input())",
    "(None or {f})(input())",
    "class C:\n    pass\nc = C()\nc.m = {f}\nc.m(input())",
    "def h():\n    global g\n    g = {f}\nh()\ng(input())",
    "try:\n    g = {f}\nexcept Exception:\n    g = print\ng(input())",
    "import contextlib\nwith contextlib.nullcontext({f}) as g:\n    g(input())",
    "match {f}:\n    case g:\n        g(input())",
    "type('X', (), {{'m': staticmethod({f})}}).m(input())",
    "dict(a={f})['a'](input())",
    "next(iter([{f}]))(input())",
    "max([{f}], key=id)(input())",
    "print(*[{f}])",
    "print = {f}\nprint(input())",
    "{f}(input())",
]
# Ways to name a builtin without writing it as a plain name.
BUILTIN_ROUTES = [
    "__builtins__['{name}']", "__builtins__.{name}", "vars(__builtins__)['{name}']", "globals()['__builtins__']",
    "getattr(__builtins__, '{name}')", "print.__self__.{name}", "().__class__.__base__.__subclasses__()",
    "(x for x in []).gi_frame.f_builtins['{name}']", "getattr(__import__('builtins'), '{name}')",
    "getattr(print, '__self__')", "'{{0.__self__}}'.format(print)",
]
BUILTIN_NAMES = ["exec", "eval", "open", "__import__", "compile", "getattr"]


@pytest.fixture
def sandbox(tmp_path: Path) -> Path:
    root = tmp_path / "sandbox"
    root.mkdir()
    (root / "notes.txt").write_text("milk\n")
    return root


@SETTINGS
@given(danger=st.sampled_from(DANGEROUS), shape=st.sampled_from(INDIRECTIONS))
def test_dangerous_callable_through_any_indirection_is_never_read_only(sandbox: Path, danger, shape) -> None:
    prelude, expression = danger
    code = (prelude + "\n" if prelude else "") + shape.format(f=expression)
    found = classify("python", code, sandbox)
    assert "read_only" not in found.categories, (code, found.reasons)


@SETTINGS
@given(route=st.sampled_from(BUILTIN_ROUTES), name=st.sampled_from(BUILTIN_NAMES),
       shape=st.sampled_from(INDIRECTIONS[:4] + ["{f}"]))
def test_builtins_reached_any_other_way_are_never_read_only(sandbox: Path, route, name, shape) -> None:
    code = shape.format(f=route.format(name=name))
    found = classify("python", code, sandbox)
    assert "read_only" not in found.categories, (code, found.reasons)
    assert found.categories & {"process_control", "unparseable"}, (code, found.reasons)


# Ways to build a path at run time; each is joined with what follows in the sandbox-relative path.
RUNTIME_PIECES = ["chr(47)", "input()", "os.environ['HOME']", "os.getenv('X', '')", "sys.argv[0]", "str(len(x))[:0] + y",
                  "''.join(['/', 'etc'])", "'/'.join(['', 'tmp'])", "bytes([47]).decode()", "y", "z.strip()"]
PATH_USERS = ["open({p}, 'w')", "open({p})", "open(file={p}, mode='a')", "Path({p}).write_text('x')",
              "Path({p}).read_text()", "os.remove({p})", "os.listdir({p})", "os.stat({p})", "shutil.copy('notes.txt', {p})",
              "os.symlink({p}, 'link')", "Path('link').symlink_to({p})", "os.rename('notes.txt', {p})",
              "os.mkdir({p})", "Path({p}).unlink()", "open('notes.txt').close() or open({p}, 'rb')"]


@SETTINGS
@given(piece=st.sampled_from(RUNTIME_PIECES), suffix=st.sampled_from(["", " + 'tmp/x'", " + '/x'", " + '.txt'"]),
       user=st.sampled_from(PATH_USERS))
def test_paths_known_only_at_run_time_are_outside_the_sandbox(sandbox: Path, piece, suffix, user) -> None:
    prelude = "import os, sys, shutil\nfrom pathlib import Path\nx = []\ny = input()\nz = input()\n"
    code = prelude + user.format(p=piece + suffix)
    found = classify("python", code, sandbox)
    assert "outside_sandbox" in found.categories, (code, found.reasons)


LEGIT = [
    "print(2 + 2)", "print(sum(range(10)) / 3)", "import math\nprint(round(math.pi * 2 ** 2, 2))",
    "import datetime\nprint(datetime.date.today().strftime('%A'))",
    "from datetime import datetime, timedelta\nprint((datetime.now() + timedelta(hours=3)).isoformat())",
    "import calendar\nprint(calendar.isleap(2024))", "import statistics\nprint(statistics.median([3, 1, 2]))",
    "import os\nprint(os.listdir('.'))", "import os\nfor f in sorted(os.listdir('.')):\n    print(f, os.path.getsize(f))",
    "from pathlib import Path\nprint([p.name for p in Path('.').iterdir()])",
    "print(open('notes.txt').read())", "with open('notes.txt') as f:\n    print(len(f.readlines()))",
    "import o1_ha\nprint(o1_ha.get_state('light.kitchen')['state'])",
    "import json\nprint(json.dumps({'a': [1, 2]}))", "import re\nprint(re.findall(r'\\w+', 'a b c'))",
    "from collections import Counter\nprint(Counter('banana').most_common(1))",
    "import random\nprint(random.randint(1, 6))", "import time\nprint(time.strftime('%H:%M'))",
    "words = 'a b'.split()\nprint(', '.join(w.upper() for w in words))",
    "class Box:\n    def __init__(self, n):\n        self.n = n\n    def double(self):\n        return self.n * 2\nprint(Box(2).double())",
    "import shutil\nprint(shutil.disk_usage('/').free // 2**30)", "import platform\nprint(platform.system())",
    "from collections import namedtuple\nP = namedtuple('P', 'x y')\nprint(P(1, 2).x)",
    "import dataclasses\n@dataclasses.dataclass\nclass A:\n    x: int\nprint(A(1).x)",
    "import glob\nfor f in glob.glob('*.txt'):\n    print(f, open(f).read())",
    "import datetime, os\nprint(datetime.datetime.fromtimestamp(os.path.getmtime('notes.txt')))",
    "import zoneinfo, datetime\nprint(datetime.datetime.now(zoneinfo.ZoneInfo('Asia/Tokyo')).strftime('%H:%M'))",
    "from datetime import date\ntoday = date.today()\nprint((date(today.year, 12, 25) - today).days)",
    "import os\nfor entry in os.scandir('.'):\n    if entry.is_file():\n        print(entry.name, entry.stat().st_size)",
    "import os\nwith os.scandir('.') as it:\n    for entry in it:\n        print(entry.name)",
    "from pathlib import Path\nprint(sorted(Path('.').iterdir(), key=lambda p: p.stat().st_mtime))",
    "try:\n    x = 1 / 0\nexcept ZeroDivisionError as e:\n    print('error', e)",
    "if __name__ == '__main__':\n    print(f'{1234567:,}')",
]


@pytest.mark.parametrize("code", LEGIT)
def test_everyday_code_stays_read_only(sandbox: Path, code: str) -> None:
    found = classify("python", code, sandbox)
    assert found.categories == {"read_only"}, (code, found.reasons)


@SETTINGS
@given(language=st.sampled_from(["python", "shell", "bash", "ruby", "", "PY"]), code=st.text(max_size=300))
def test_classify_never_raises_on_random_text(sandbox: Path, language: str, code: str) -> None:
    found = classify(language, code, sandbox)
    assert found.categories and found.categories <= set(CATEGORIES)
    assert found.summary


@SETTINGS
@given(code=st.lists(st.sampled_from(["import os", "os.system('id')", "x = exec", "print(1)", "def f():", "    pass",
                                      "open('a', 'w')", "getattr(os, 'a' + 'b')", "lambda: 0", "class A:", "  x = 1",
                                      "'{0.__class__}'.format(1)", "for i in range(3):", "with open('n') as f:",
                                      "@property", "(x := 1)", "__builtins__", "  ", "\\", "'''", "#", ":"]),
                     max_size=12).map("\n".join))
def test_classify_never_raises_on_python_soup(sandbox: Path, code: str) -> None:
    found = classify("python", code, sandbox)
    assert found.categories and found.categories <= set(CATEGORIES)


def test_every_dangerous_callable_with_every_indirection(sandbox: Path) -> None:
    """The whole product, not a sample: every pair is checked."""
    failures = []
    for prelude, expression in DANGEROUS:
        for shape in INDIRECTIONS:
            code = (prelude + "\n" if prelude else "") + shape.format(f=expression)
            if "read_only" in classify("python", code, sandbox).categories:
                failures.append(code)
    for route in BUILTIN_ROUTES:
        for name in BUILTIN_NAMES:
            for shape in INDIRECTIONS:
                code = shape.format(f=route.format(name=name))
                if "read_only" in classify("python", code, sandbox).categories:
                    failures.append(code)
    assert not failures, failures[:10]
