"""Labels proven by effects: blocks from a grammar of realistic parts, run in the real sandbox, judged by what they did.

Python and shell blocks are built by hypothesis strategies from the idioms small models write (``open`` with
literal and computed modes, pathlib, ``os``/``shutil``, ``json.dump``, loops and comprehensions over listings;
``rm``, ``mv``, ``cp``, redirections, ``sed -i``, ``tee``, archives, ``cd``/``pushd``/subshells, ``find``,
``xargs``, ``curl``) and mutated (names moved through variables, literals split, f-strings, a wrapping
function, dead code). :class:`Box` seeds a conversation folder, classifies a block, runs it with
``sandbox.run_code`` and returns its :class:`Effects`: the folder's snapshots compared (created, appended,
replaced, emptied, deleted, renamed over), the processes the box's PID namespace allocated
(the box's last PID, found at exit) and the connections a listener on 127.0.0.1 accepted.
:func:`mismatches` says where the label falls short of the effects; :func:`over_asked` where it says more.
"""

from __future__ import annotations

import hashlib
import os
import select
import shutil
import socket
import stat
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import strategies as st

from o1_server.agent.policy import classify
from o1_server.agent.sandbox import Limits, conversation_dir, run_code

SEEDS = {
    "notes.txt": "milk\neggs\n",
    "todo.txt": "call mum\nwater plants\n",
    "data.json": '{"milk": 2}\n',
    "report.csv": "name,count\nmilk,2\n",
    "old.log": "boot ok\n",
    "sub/a.txt": "alpha\n",
    "sub/b.csv": "x,y\n1,2\n",
}
EXISTING = tuple(SEEDS)
NEW = ("new.txt", "out.json", "copy.txt", "fresh.csv", "sub/new.txt")
IN_SUB = ("a.txt", "b.csv", "c.txt")  # names used after a change into sub/
PORT = "__PORT__"  # replaced by the listener's port before the block is classified and run
MARK = "__O1_PIDS__"
# The box has its own PID namespace, so its PIDs count the processes started in it. A block that may use the
# network gets no procfs (/proc/sys/kernel/ns_last_pid is not there), so the last PID used is read from one more
# child made at exit: its PID minus one (Python: a fork that exits at once; bash: a command substitution's
# subshell, whose $BASHPID is its own).
PY_PRELUDE = (
    "import atexit as _o1_atexit, os as _o1_os\n"
    "def _o1_last():\n"
    "    child = _o1_os.fork()\n"
    "    if child == 0:\n"
    "        _o1_os._exit(0)\n"
    "    _o1_os.waitpid(child, 0)\n"
    f"    print({MARK!r}, _o1_os.getpid(), child - 1, flush=True)\n"
    "_o1_atexit.register(_o1_last)\n"
)
SH_PRELUDE = f"trap '_o1=$(echo $BASHPID); echo \"{MARK} $$ $((_o1 - 1))\"' EXIT\n"
WEAK = frozenset({"unparseable"})  # "code I can't check" claims nothing about effects


# ---------------------------------------------------------------- effects


@dataclass(frozen=True)
class Entry:
    """One entry of a folder snapshot: kind (``f`` file, ``d`` folder, ``l`` link), size, content, inode."""

    kind: str
    size: int
    digest: str
    inode: int
    data: bytes = b""


def snapshot(root: Path) -> dict[str, Entry]:
    """Every entry under ``root`` (relative path -> Entry), links not followed."""
    out: dict[str, Entry] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath, name)
            info = path.lstat()
            rel = str(path.relative_to(root))
            if stat.S_ISLNK(info.st_mode):
                out[rel] = Entry("l", 0, os.readlink(path), info.st_ino)
            elif stat.S_ISDIR(info.st_mode):
                out[rel] = Entry("d", 0, "", info.st_ino)
            else:
                data = path.read_bytes() if info.st_size <= 1 << 20 else b""
                out[rel] = Entry("f", info.st_size, hashlib.sha256(data).hexdigest(), info.st_ino, data[:65536])
    return out


@dataclass
class Effects:
    """What one block did. Paths are relative to its folder; ``processes`` is None when not seen."""

    created: list[str] = field(default_factory=list)
    appended: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)  # an existing file's content no longer there (emptied too)
    emptied: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    renamed_over: list[str] = field(default_factory=list)  # same path, another inode
    moved: list[str] = field(default_factory=list)  # "old -> new": the file itself under a new name
    processes: int | None = None
    connections: int = 0
    sent: int = 0
    status: int = 0
    output: str = ""

    @property
    def destroyed(self) -> list[str]:
        return self.deleted + self.replaced

    @property
    def wrote(self) -> list[str]:
        return self.created + self.appended

    @property
    def changed(self) -> bool:
        return bool(self.destroyed or self.wrote or self.renamed_over or self.moved)


def compare(before: dict[str, Entry], after: dict[str, Entry]) -> Effects:
    """The file effects between two snapshots of one folder."""
    fx = Effects()
    fresh = {(e.inode, e.digest): rel for rel, e in after.items() if rel not in before}
    for rel, old in before.items():
        new = after.get(rel)
        if (new is None or new.kind != old.kind) and (old.inode, old.digest) in fresh and old.kind == "f":
            fx.moved.append(f"{rel} -> {fresh[(old.inode, old.digest)]}")  # renamed: its content is kept
            continue
        if new is None or new.kind != old.kind:
            fx.deleted.append(rel)
            continue
        if new.inode != old.inode:
            fx.renamed_over.append(rel)
        if old.kind == "d" or new.digest == old.digest:
            continue
        if old.kind == "f" and new.size > old.size and new.data.startswith(old.data):
            fx.appended.append(rel)
        else:
            fx.replaced.append(rel)
            if new.size == 0:
                fx.emptied.append(rel)
    fx.created = sorted(set(after) - set(before))
    return fx


class Listener:
    """A TCP listener on 127.0.0.1 counting accepted connections and received bytes; answers HTTP 200."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0), backlog=32)
        self.port = self.sock.getsockname()[1]
        self.accepts = 0
        self.bytes = 0
        self.busy = False
        self._lock = threading.Lock()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with self._lock:
                self.accepts += 1
                self.busy = True
            try:
                conn.settimeout(0.3)
                data = conn.recv(65536)
                with self._lock:
                    self.bytes += len(data)
                conn.sendall(b"HTTP/1.0 200 OK\r\nContent-Length: 3\r\n\r\nok\n")
            except OSError:
                pass
            finally:
                conn.close()
                with self._lock:
                    self.busy = False

    def take(self) -> tuple[int, int]:
        """(accepts, bytes) since the last call, once no connection is waiting or being handled."""
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            pending = select.select([self.sock], [], [], 0.01)[0]
            if not pending and not self.busy:
                break
        with self._lock:
            counts = (self.accepts, self.bytes)
            self.accepts = self.bytes = 0
        return counts

    def close(self) -> None:
        self.sock.close()


class Box:
    """A conversation folder in the real sandbox, seeded with :data:`SEEDS` before every block."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="o1-labels-"))
        self.root.chmod(0o755)
        self.folder = conversation_dir(self.root / "sandbox", "labels")
        self.listener = Listener()

    def seed(self) -> None:
        for entry in list(self.folder.iterdir()):
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
        for rel, text in SEEDS.items():
            (self.folder / rel).parent.mkdir(exist_ok=True)
            (self.folder / rel).write_text(text)

    def code(self, template: str) -> str:
        return template.replace(PORT, str(self.listener.port))

    def run(self, language: str, template: str) -> tuple[frozenset[str], Effects, str]:
        """Seed, classify and run one block; return (its categories, its effects, the code run)."""
        code = self.code(template)
        self.seed()
        found = classify(language, code, self.folder)
        self.listener.take()
        before = snapshot(self.folder)
        prelude = PY_PRELUDE if language == "python" else SH_PRELUDE
        result = run_code(language, prelude + code, self.folder, Limits(seconds=5, output_chars=20000), network=True)
        fx = compare(before, snapshot(self.folder))
        fx.connections, fx.sent = self.listener.take()
        fx.status, fx.output = result.exit_status, result.output
        for line in result.output.splitlines():
            words = line.split()
            if len(words) == 3 and words[0] == MARK and words[1].isdigit() and words[2].isdigit():
                fx.processes = int(words[2]) - int(words[1])
        return frozenset(found.categories), fx, code

    def close(self) -> None:
        self.listener.close()
        shutil.rmtree(self.root, ignore_errors=True)


def mismatches(language: str, categories: frozenset[str], fx: Effects) -> list[str]:
    """Where the label claims less than the block did (empty: the label holds)."""
    if categories & WEAK:
        return []
    found = []
    if categories == {"read_only"} and fx.changed:
        found.append(f"read_only, yet wrote {fx.wrote}, destroyed {fx.destroyed}, renamed over {fx.renamed_over}")
    if fx.destroyed and "deletes_files" not in categories:
        found.append(f"deleted {fx.deleted} / replaced {fx.replaced} without deletes_files")
    if fx.wrote and not categories & {"writes_files", "deletes_files"}:
        found.append(f"wrote {fx.wrote} without writes_files")
    if language == "python" and fx.processes and "process_control" not in categories:
        found.append(f"started {fx.processes} process(es) without process_control")
    if fx.connections and "network" not in categories:
        found.append(f"made {fx.connections} connection(s) without network")
    return found


def over_asked(categories: frozenset[str], fx: Effects) -> bool:
    """A block labelled deletes_files that destroyed nothing (counted, not a failure)."""
    return "deletes_files" in categories and not fx.destroyed


def label(categories: frozenset[str]) -> str:
    return "+".join(sorted(categories))


# ---------------------------------------------------------------- Python grammar

PY_VARS = ("name", "target", "fname", "path", "item", "src", "entry", "p")
MODES = ("r", "w", "a", "x", "r+", "w+", "a+", "wb", "ab")
IMPORTS = {
    "os": "import os",
    "Path": "from pathlib import Path",
    "json": "import json",
    "shutil": "import shutil",
    "glob": "import glob",
    "subprocess": "import subprocess",
    "socket": "import socket",
    "urllib": "import urllib.request",
}


@dataclass
class Py:
    """A Python fragment: the modules it needs and its lines."""

    needs: set[str]
    lines: list[str]


@st.composite
def py_path(draw: st.DrawFn, name: str) -> Py:
    """An expression for ``name`` (its setup lines first, the expression last)."""
    form = draw(st.sampled_from(("literal", "literal", "concat", "var", "fstring", "join", "path")))
    folder, _, base = name.rpartition("/")
    if form == "concat":
        cut = draw(st.integers(1, len(name) - 1))
        return Py(set(), [f"{name[:cut]!r} + {name[cut:]!r}"])
    if form == "var":
        var = draw(st.sampled_from(PY_VARS))
        return Py(set(), [f"{var} = {name!r}", var])
    if form == "fstring":
        stem, _, ext = base.rpartition(".")
        var = draw(st.sampled_from(PY_VARS))
        return Py(set(), [f"{var} = {stem!r}", f"f'{folder + '/' if folder else ''}{{{var}}}.{ext}'"])
    if form == "join":
        parts = name.split("/") if folder else [".", name]
        return Py({"os"}, [f"os.path.join({', '.join(map(repr, parts))})"])
    if form == "path":
        parts = name.split("/")
        return Py({"Path"}, ["Path(" + repr(parts[0]) + ")" + "".join(f" / {p!r}" for p in parts[1:])])
    return Py(set(), [repr(name)])


@st.composite
def py_mode(draw: st.DrawFn) -> tuple[str, list[str], str]:
    """(the mode, setup lines, an expression for it)."""
    mode = draw(st.sampled_from(MODES))
    form = draw(st.sampled_from(("literal", "literal", "lower", "strip", "var", "join", "format", "slice")))
    if form == "lower":
        return mode, [], f"{mode.upper()!r}.lower()"
    if form == "strip":
        return mode, [], f"' {mode} '.strip()"
    if form == "var":
        var = draw(st.sampled_from(("mode", "how", "m")))
        return mode, [f"{var} = {mode!r}"], var
    if form == "join":
        return mode, [], "''.join(" + repr(list(mode)) + ")"
    if form == "format":
        return mode, [], f"'{{}}'.format({mode!r})"
    if form == "slice":
        return mode, [], f"{'_' + mode!r}[1:]"
    return mode, [], repr(mode)


def _names() -> st.SearchStrategy[str]:
    return st.sampled_from(EXISTING + NEW)


@st.composite
def py_open(draw: st.DrawFn) -> Py:
    """open() / Path.open() / json.dump with a mode, writing or reading by the mode."""
    path = draw(py_path(draw(_names())))
    mode, setup, mode_expr = draw(py_mode())
    expr = path.lines[-1]
    needs = set(path.needs)
    opener = draw(st.sampled_from(("open", "open", "path_open")))
    call = f"Path({expr}).open({mode_expr})" if opener == "path_open" else f"open({expr}, {mode_expr})"
    if opener == "path_open":
        needs.add("Path")
    payload = "b'x\\n'" if "b" in mode else "'x\\n'"
    writes = mode != "r"
    shape = draw(st.sampled_from(("call", "with", "json", "print")))
    if shape == "json" and "b" not in mode:
        needs.add("json")
        body = [f"json.dump({{'k': 1}}, {call})"] if writes else [f"print(json.load({call}))"]
    elif shape == "with":
        body = [f"with {call} as fh:", f"    fh.write({payload})" if writes else "    print(fh.read())"]
    elif shape == "print" and writes and "b" not in mode:
        body = [f"print('x', file={call})"]
    else:
        body = [f"{call}.write({payload})" if writes else f"print({call}.read())"]
    return Py(needs, path.lines[:-1] + setup + body)


@st.composite
def py_file_op(draw: st.DrawFn) -> Py:
    """One call of pathlib, os or shutil on one or two paths."""
    op = draw(
        st.sampled_from(
            (
                "write_text",
                "write_bytes",
                "read_text",
                "touch",
                "unlink",
                "rename",
                "replace",
                "os.remove",
                "os.unlink",
                "os.replace",
                "os.rename",
                "shutil.move",
                "shutil.copy",
                "shutil.copyfile",
                "shutil.rmtree",
                "os.makedirs",
                "os.mkdir",
                "os.truncate",
                "getsize",
                "listdir",
            )
        )
    )
    src = draw(py_path(draw(_names())))
    dst = draw(py_path(draw(_names())))
    a, b = src.lines[-1], dst.lines[-1]
    setup = src.lines[:-1] + dst.lines[:-1]
    needs = src.needs | dst.needs
    if op in ("write_text", "write_bytes", "read_text", "touch", "unlink", "rename", "replace"):
        arg = {"write_text": "'new\\n'", "write_bytes": "b'new\\n'", "rename": b, "replace": b}.get(op, "")
        line = f"Path({a}).{op}({arg})"
        line = f"print({line})" if op == "read_text" else line
        return Py(needs | {"Path"}, [*setup, line])
    module = op.rpartition(".")[0]
    if op in ("os.replace", "os.rename", "shutil.move", "shutil.copy", "shutil.copyfile"):
        return Py(needs | {module}, [*setup, f"{op}({a}, {b})"])
    if op == "shutil.rmtree":
        folder = draw(st.sampled_from(("'sub'", "'sub' + ''", "os.path.join('.', 'sub')")))
        return Py({"shutil", "os"}, [f"shutil.rmtree({folder})"])
    if op in ("os.makedirs", "os.mkdir"):
        folder = draw(st.sampled_from(("'made'", "'made/inner'", "'sub/made'")))
        extra = ", exist_ok=True" if op == "os.makedirs" else ""
        return Py({"os"}, [f"{op}({folder}{extra})"])
    if op == "os.truncate":
        return Py(needs | {"os"}, [*setup, f"os.truncate({a}, {draw(st.sampled_from((0, 3, 100)))})"])
    if op == "getsize":
        return Py(needs | {"os"}, [*setup, f"print(os.path.getsize({a}))"])
    folder = draw(st.sampled_from(("'.'", "'sub'")))
    return Py({"os"}, [f"print(sorted(os.listdir({folder})))"])


LOOP_OPS = (
    "os.remove({n})",
    "open({n}, 'w').close()",
    "open({n}, 'a').write('x')",
    "print(open({n}).read())",
    "os.rename({n}, {n} + '.bak')",
    "Path({n}).unlink()",
    "Path({n}).write_text('')",
    "print(len({n}))",
    "shutil.copy({n}, {n} + '.copy')",
    "open({n}, {m}).close()",
)


@st.composite
def py_loop(draw: st.DrawFn) -> Py:
    """A for loop or a comprehension over a listing, applying one operation to each name."""
    var = draw(st.sampled_from(("n", "f", "name", "fn", "entry")))
    source = draw(
        st.sampled_from(("os.listdir('.')", "glob.glob('*.txt')", "sorted(os.listdir('.'))", "glob.glob('*')"))
    )
    ext = draw(st.sampled_from(("'.txt'", "'.log'", "'.csv'", "")))
    op = draw(st.sampled_from(LOOP_OPS))
    _, setup, mode_expr = draw(py_mode())
    body = op.format(n=var, m=mode_expr)
    text = source + body + ("" if ext else " os.path")
    needs = {m for m in ("os", "glob", "Path", "shutil") if m + ("(" if m == "Path" else ".") in text}
    cond = f" if {var}.endswith({ext})" if ext else ""
    if draw(st.booleans()):
        return Py(needs, [*setup, f"[{body} for {var} in {source}{cond}]"])
    lines = [*setup, f"for {var} in {source}:"]
    if ext:
        lines += [f"    if {var}.endswith({ext}):", f"        {body}"]
    else:
        lines += [f"    if os.path.isfile({var}):", f"        {body}"]
    return Py(needs, lines)


@st.composite
def py_other(draw: st.DrawFn) -> Py:
    """Programs and connections: what the process and network accounting must see."""
    kind = draw(st.sampled_from(("run", "system", "popen", "connect", "urlopen", "print")))
    if kind == "run":
        return Py({"subprocess"}, ["subprocess.run(['ls'], capture_output=True)"])
    if kind == "system":
        return Py({"os"}, [f"os.system({draw(st.sampled_from(('true', 'ls', 'rm -f old.log')))!r})"])
    if kind == "popen":
        return Py({"os"}, ["print(os.popen('ls').read())"])
    if kind == "connect":
        return Py({"socket"}, [f"socket.create_connection(('127.0.0.1', {PORT})).close()"])
    if kind == "urlopen":
        return Py({"urllib"}, [f"print(urllib.request.urlopen('http://127.0.0.1:{PORT}/').read())"])
    return Py(set(), ["print('hello')"])


def py_statement() -> st.SearchStrategy[Py]:
    return st.one_of(py_open(), py_open(), py_file_op(), py_file_op(), py_loop(), py_other())


@st.composite
def python_blocks(draw: st.DrawFn) -> str:
    """A whole Python block: imports, 1-4 statements, then the mutations (function, dead code)."""
    parts = draw(st.lists(py_statement(), min_size=1, max_size=4))
    needs = set().union(*(p.needs for p in parts))
    body = [line for p in parts for line in p.lines]
    if draw(st.integers(0, 4)) == 0:
        dead = draw(st.sampled_from(("_unused = [i for i in range(3)]", "pass", "x_ = 'notes.txt'.upper()")))
        at = draw(st.integers(0, len(body)))
        body[at:at] = ["if False:", f"    {dead}"] if dead != "x_ = 'notes.txt'.upper()" else [dead]
    if draw(st.integers(0, 3)) == 0:
        fn = draw(st.sampled_from(("main", "run", "do_it", "tidy")))
        body = [f"def {fn}():", *("    " + line for line in body), f"{fn}()"]
    imports = [IMPORTS[n] for n in IMPORTS if n in needs]
    return "\n".join(imports + body)


# ---------------------------------------------------------------- shell grammar

SH_VARS = ("f", "file", "target", "name", "src", "dst")


@st.composite
def sh_word(draw: st.DrawFn, name: str) -> tuple[list[str], str]:
    """(setup lines, a shell word for ``name``)."""
    form = draw(st.sampled_from(("plain", "plain", "single", "double", "split", "var", "brace")))
    if form == "single":
        return [], f"'{name}'"
    if form == "double":
        return [], f'"{name}"'
    if form == "split":
        cut = draw(st.integers(1, len(name) - 1))
        return [], f"{name[:cut]}'{name[cut:]}'"
    if form in ("var", "brace"):
        var = draw(st.sampled_from(SH_VARS))
        return [f"{var}={name}"], f'"${var}"' if form == "var" else f"${{{var}}}"
    return [], name


GLOBS = ("*.txt", "*.log", "sub/*", "*.csv", "*")


@st.composite
def sh_command(draw: st.DrawFn, names: tuple[str, ...] = EXISTING + NEW) -> tuple[list[str], str]:
    """(setup lines, one command line) on one or two names."""
    setup_a, a = draw(sh_word(draw(st.sampled_from(names))))
    setup_b, b = draw(sh_word(draw(st.sampled_from(names))))
    g = draw(st.sampled_from(GLOBS))
    templates = (
        "cat {a}",
        "wc -l {a}",
        "head -n 1 {a}",
        "grep -c m {a}",
        "ls -la",
        "sort {a}",
        "du -sh .",
        "echo x > {a}",
        "echo x >> {a}",
        "printf 'x\\n' > {a}",
        ": > {a}",
        "> {a}",
        "touch {a}",
        "mkdir -p made",
        "cp {a} {b}",
        "cp -f {a} {b}",
        "mv {a} {b}",
        "mv -n {a} {b}",
        "echo x | tee {a}",
        "echo x | tee -a {a}",
        "sed -i 's/m/M/' {a}",
        "sed 's/m/M/' {a} > {b}",
        "truncate -s 0 {a}",
        "truncate -s +10 {a}",
        "rm {a}",
        "rm -f {a}",
        "rm -rf sub",
        "rm -f {g}",
        "rmdir sub",
        "find . -name '*.log' -delete",
        "find . -name '*.log' | xargs rm -f",
        "ls {g} | xargs cat",
        "tar -cf a.tar {a}",
        "tar -czf a.tgz sub",
        "tar --remove-files -cf a.tar {a}",
        "zip -q a.zip {a}",
        "zip -qm a.zip {a}",
        "gzip {a}",
        "gzip -k {a}",
        "gzip -c {a} > {b}.gz",
        "cat {a} > {b}",
        "cat {a} >> {b}",
        "sort -o {a} {a}",
        "cp /dev/null {a}",
        "ln -s {a} link.txt",
        "cat {g} > all.txt",
        "cp {g} sub/",
        "mv {g} sub/",
        f"curl -s http://127.0.0.1:{PORT}/",
        f"curl -s -o {{a}} http://127.0.0.1:{PORT}/",
        f"wget -q -O {{a}} http://127.0.0.1:{PORT}/",
        f"echo hi > /dev/tcp/127.0.0.1/{PORT}",
        f"exec 3<>/dev/tcp/127.0.0.1/{PORT}",
    )
    template = draw(st.sampled_from(templates))
    setup = (setup_a if "{a}" in template else []) + (setup_b if "{b}" in template else [])
    return setup, template.format(a=a, b=b, g=g)


@st.composite
def sh_part(draw: st.DrawFn) -> list[str]:
    """A command, or one run in sub/ by cd, pushd or a subshell."""
    where = draw(st.sampled_from(("here", "here", "here", "cd", "subshell", "pushd")))
    if where == "here":
        setup, line = draw(sh_command())
        return [*setup, line]
    setup, line = draw(sh_command(IN_SUB))
    if where == "cd":
        return [*setup, f"cd sub && {line}"]
    if where == "subshell":
        return [*setup, f"(cd sub; {line})"]
    return [*setup, "pushd sub > /dev/null", line, "popd > /dev/null"]


@st.composite
def shell_blocks(draw: st.DrawFn) -> str:
    """A whole shell block: 1-4 parts joined by lines, ``;`` or ``&&``, then the mutations."""
    parts = draw(st.lists(sh_part(), min_size=1, max_size=4))
    joiner = draw(st.sampled_from(("\n", "; ", " && ")))
    lines = [line for part in parts for line in part]
    body = joiner.join(lines) if joiner == "\n" or all("pushd" not in x for x in lines) else "\n".join(lines)
    if draw(st.integers(0, 4)) == 0:
        body = (
            draw(st.sampled_from(("if false; then rm -f notes.txt; fi\n", "true || rm -f todo.txt\n", "# tidy\n")))
            + body
        )
    if draw(st.integers(0, 3)) == 0:
        fn = draw(st.sampled_from(("tidy", "go", "main")))
        body = f"{fn}() {{\n{body}\n}}\n{fn}"
    return body


def blocks(language: str) -> st.SearchStrategy[str]:
    """The generated blocks of ``language`` ("python" or "shell")."""
    return python_blocks() if language == "python" else shell_blocks()
