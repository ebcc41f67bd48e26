"""The Python rule tables, as data: which qualified names are files, processes, network, Home Assistant.

What is safe without a rule is in :mod:`.allowlist`; :func:`_name_status` combines both for one dotted name.
"""

from __future__ import annotations

import sys

from . import allowlist

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
# Read-only facts about the machine ("how many CPU cores?"), in modules that are otherwise risky.
_PY_SAFE = ("urllib.parse.*", "urllib.error.*", "multiprocessing.cpu_count")

_SHELL_RUNNERS = frozenset(
    {"os.system", "os.popen", "subprocess.getoutput", "subprocess.getstatusoutput", "asyncio.create_subprocess_shell"}
)
_ARGV_RUNNERS = frozenset(
    {
        "subprocess.run",
        "subprocess.call",
        "subprocess.check_call",
        "subprocess.check_output",
        "subprocess.Popen",
        "asyncio.create_subprocess_exec",
        "pty.spawn",
    }
)
_DYNAMIC_CODE = frozenset({"eval", "exec", "compile"})
_REFLECTION = frozenset({"getattr", "setattr", "delattr", "globals", "locals", "vars", "breakpoint"})
_FORKS = frozenset({"os.fork", "os.forkpty"})
_PROCESS_METHODS = frozenset({"system", "popen", "fork", "forkpty", "kill", "killpg"})
_CHDIR = frozenset({"os.chdir", "os.fchdir", "os.chroot", "contextlib.chdir"})

_OPENERS = {  # qualified name -> default mode
    "open": "r",
    "io.open": "r",
    "codecs.open": "r",
    "gzip.open": "rb",
    "bz2.open": "rb",
    "lzma.open": "rb",
    "tarfile.open": "r",
    "zipfile.ZipFile": "r",
    "shelve.open": "c",
    "dbm.open": "r",
}
_OS_OPEN = frozenset({"os.open"})
_DELETERS = {  # qualified name -> spoken template
    "os.remove": "delete {}",
    "os.unlink": "delete {}",
    "os.rmdir": "delete {}",
    "os.removedirs": "delete {}",
    "shutil.rmtree": "delete {}",
    "shutil.move": "move {}",
    "os.truncate": "empty {}",
}
_WRITERS = {  # qualified name -> (index of the written path, spoken template); other path arguments are read
    "os.mkdir": (0, "create {}"),
    "os.makedirs": (0, "create {}"),
    "os.mkfifo": (0, "create {}"),
    "os.mknod": (0, "create {}"),
    "os.rename": (1, "rename files to {}"),
    "os.renames": (1, "rename files to {}"),
    "os.replace": (1, "rename files to {}"),
    "os.symlink": (1, "create a link at {}"),
    "os.link": (1, "create a link at {}"),
    "os.chmod": (0, "change the permissions of {}"),
    "os.chown": (0, "change the owner of {}"),
    "os.lchown": (0, "change the owner of {}"),
    "os.utime": (0, "change {}"),
    "shutil.copy": (1, "copy files to {}"),
    "shutil.copy2": (1, "copy files to {}"),
    "shutil.copyfile": (1, "copy files to {}"),
    "shutil.copytree": (1, "copy files to {}"),
    "shutil.copymode": (1, "change the permissions of {}"),
    "shutil.copystat": (1, "change {}"),
    "shutil.chown": (0, "change the owner of {}"),
    "shutil.make_archive": (0, "create the archive {}"),
    "shutil.unpack_archive": (1, "unpack files into {}"),
    "numpy.save": (0, "write to {}"),
    "numpy.savetxt": (0, "write to {}"),
    "numpy.savez": (0, "write to {}"),
    "numpy.savez_compressed": (0, "write to {}"),
}
_PATH_BUILDERS = frozenset(
    {"os.path.join", "posixpath.join", "pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath", "pathlib.PurePosixPath"}
)
_PATH_DELETE_METHODS = allowlist.PATH_DELETE_METHODS
_PATH_QUERY_METHODS = allowlist.PATH_QUERY_METHODS
_PATH_WRITE_METHODS = allowlist.PATH_WRITE_METHODS
_SAVE_METHODS = frozenset(
    {
        "savefig",
        "save",
        "to_csv",
        "to_excel",
        "to_json",
        "to_parquet",
        "to_pickle",
        "to_feather",
        "to_hdf",
        "to_html",
        "to_latex",
        "to_markdown",
        "to_stata",
        "to_xml",
        "to_file",
    }
)

# Calls whose string arguments are text rather than paths (not checked against the sandbox).
_TEXT_CALLS = frozenset(
    {"print", "str", "repr", "len", "format", "input", "isinstance", "int", "float", "shutil.disk_usage"}
)  # disk_usage reads only the size of the disk holding the path
_TEXT_PREFIXES = ("logging.", "re.", "o1_ha.", "json.", "datetime.", "time.", "urllib.parse.")
_TEXT_METHODS = frozenset(
    {
        "split",
        "rsplit",
        "join",
        "replace",
        "startswith",
        "endswith",
        "strip",
        "lstrip",
        "rstrip",
        "partition",
        "rpartition",
        "count",
        "find",
        "rfind",
        "index",
        "rindex",
        "format",
        "removeprefix",
        "removesuffix",
        "encode",
        "decode",
        "center",
        "ljust",
        "rjust",
        "translate",
        "get",
        "append",
        "extend",
        "add",
        "insert",
        "pop",
        "setdefault",
        "write",
        "writelines",
        "sub",
        "match",
        "search",
        "fullmatch",
        "findall",
        "info",
        "debug",
        "warning",
        "error",
        "strftime",
        "strptime",
        "update",
    }
)
_DATE_NOW = frozenset(
    {
        "datetime.date.today",
        "datetime.datetime.now",
        "datetime.datetime.today",
        "datetime.datetime.utcnow",
        "time.time",
        "time.time_ns",
        "time.monotonic",
    }
)

_HA_READS = allowlist.HA_READS  # read-only o1_ha calls
# o1_ha's public functions (agent/helpers/o1_ha.py); any other name reached through the module is suspect.
_HA_FUNCTIONS = allowlist.HA_READS | allowlist.HA_ACTIONS

_SAFE_DUNDERS = frozenset(
    {
        "__name__",
        "__doc__",
        "__file__",
        "__init__",
        "__version__",
        "__qualname__",
        "__module__",
        "__enter__",
        "__exit__",
        "__len__",
        "__str__",
        "__repr__",
        "__main__",
        "__all__",
        "__annotations__",
    }
)
_STDLIB = frozenset(sys.stdlib_module_names) | {"requests", "httpx", "aiohttp", "urllib3", "numpy", "pandas"}
# Submodules reached as attributes of their package (``os.path.join``), not modules reached through another.
_SUBMODULES = frozenset(
    {
        "os.path",
        "collections.abc",
        "urllib.parse",
        "urllib.request",
        "urllib.error",
        "http.client",
        "http.server",
        "concurrent.futures",
        "importlib.util",
        "logging.config",
        "xml.etree",
        "email.mime",
        "json.decoder",
        "json.encoder",
        "numpy.random",
        "numpy.linalg",
    }
)


def _rule_matches(pattern: str, qualname: str) -> bool:
    """``mod.*`` matches the module and its members, ``prefix*`` any name so starting, else exact."""
    if pattern.endswith(".*"):
        base = pattern[:-2]
        return qualname == base or qualname.startswith(base + ".")
    if pattern.endswith("*"):
        return qualname.startswith(pattern[:-1])
    return qualname == pattern


def _runs_command(qualname: str | None) -> bool:
    """Whether a function starts a program given as a command string or words."""
    if qualname in _SHELL_RUNNERS or qualname in _ARGV_RUNNERS:
        return True
    return qualname is not None and qualname.startswith(("os.exec", "os.spawn", "os.posix_spawn"))


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


def _is_known(qualname: str) -> bool:
    """Whether the classifier itself categorises a name (file, process, network, Home Assistant functions)."""
    if any(_rule_matches(p, qualname) for p, *_ in _PY_RULES):
        return True
    if qualname.startswith("o1_ha."):
        return qualname[6:] in allowlist.HA_READS | allowlist.HA_ACTIONS
    tables = (
        _OPENERS,
        _DELETERS,
        _WRITERS,
        _OS_OPEN,
        _FORKS,
        _DYNAMIC_CODE,
        _REFLECTION,
        allowlist.PATH_READERS,
        _CHDIR,
        _PATH_BUILDERS,
    )
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
