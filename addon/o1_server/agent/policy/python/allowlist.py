"""The allowlist behind the Python scanner: what Python may use and still be ``read_only``.

A module, name or attribute that is neither listed here nor categorised by a rule (:mod:`.rules`) makes the
block ``unparseable``, so a new way to run code fails closed. Whole modules are read from the running
interpreter at import. The shapes of the lists and why they are sound: docs/policy.md.
"""

from __future__ import annotations

import builtins
import importlib
import inspect

SAFE_BUILTINS = frozenset(
    {
        "Ellipsis",
        "False",
        "None",
        "NotImplemented",
        "True",
        "__debug__",
        "__name__",
        "__doc__",
        "abs",
        "aiter",
        "all",
        "anext",
        "any",
        "ascii",
        "bin",
        "bool",
        "bytearray",
        "bytes",
        "callable",
        "chr",
        "classmethod",
        "complex",
        "dict",
        "dir",
        "divmod",
        "enumerate",
        "exit",
        "filter",
        "float",
        "format",
        "frozenset",
        "hasattr",
        "hash",
        "hex",
        "id",
        "input",
        "int",
        "isinstance",
        "issubclass",
        "iter",
        "len",
        "list",
        "map",
        "max",
        "memoryview",
        "min",
        "next",
        "object",
        "oct",
        "ord",
        "pow",
        "print",
        "property",
        "quit",
        "range",
        "repr",
        "reversed",
        "round",
        "set",
        "slice",
        "sorted",
        "staticmethod",
        "str",
        "sum",
        "super",
        "tuple",
        "type",
        "zip",
    }
    | {
        n
        for n in dir(builtins)
        if isinstance(getattr(builtins, n), type) and issubclass(getattr(builtins, n), BaseException)
    }
)
# Builtins that run code, reach objects by name or open files: allowed only as the direct target of a call
# the classifier analyses (open('notes.txt'), exec('literal code')); any other use is process_control.
DANGEROUS_BUILTINS = frozenset(
    {
        "exec",
        "eval",
        "compile",
        "getattr",
        "setattr",
        "delattr",
        "vars",
        "globals",
        "locals",
        "__import__",
        "breakpoint",
        "open",
        "__build_class__",
        "__loader__",
        "__spec__",
        "__builtins__",
        "help",
    }
)

# Whole modules whose public, non-module members are all side-effect free (minus the exceptions).
_WHOLE_MODULES: dict[str, frozenset[str]] = {
    "math": frozenset(),
    "cmath": frozenset(),
    "statistics": frozenset(),
    "decimal": frozenset(),
    "fractions": frozenset(),
    "numbers": frozenset(),
    "random": frozenset(),
    "itertools": frozenset(),
    "collections": frozenset(),
    "collections.abc": frozenset(),
    "heapq": frozenset(),
    "bisect": frozenset(),
    "datetime": frozenset(),
    "calendar": frozenset({"main"}),
    "textwrap": frozenset(),
    "re": frozenset(),
    "string": frozenset({"Formatter"}),  # Formatter.get_field walks attributes named in a text
    "fnmatch": frozenset(),
    "difflib": frozenset(),
    "unicodedata": frozenset(),
    "hashlib": frozenset(),
    "hmac": frozenset(),
    "secrets": frozenset(),
    "base64": frozenset(),
    "binascii": frozenset(),
    "struct": frozenset(),
    "enum": frozenset(),
    "abc": frozenset(),
    "copy": frozenset(),
    "pprint": frozenset(),
    "reprlib": frozenset(),
    "html": frozenset(),
    "zlib": frozenset(),
    "csv": frozenset(),
    "functools": frozenset(),
    "operator": frozenset({"attrgetter", "methodcaller"}),  # look names up by text
    "urllib.parse": frozenset(),
    "__future__": frozenset(),
}
# Modules of which only the listed members are allowed.
_EXPLICIT: dict[str, tuple[str, ...]] = {
    "time": (
        "time",
        "time_ns",
        "sleep",
        "monotonic",
        "monotonic_ns",
        "perf_counter",
        "perf_counter_ns",
        "process_time",
        "process_time_ns",
        "thread_time",
        "localtime",
        "gmtime",
        "mktime",
        "strftime",
        "strptime",
        "ctime",
        "asctime",
        "timezone",
        "altzone",
        "daylight",
        "tzname",
        "struct_time",
        "get_clock_info",
    ),
    "sys": (
        "version",
        "version_info",
        "platform",
        "maxsize",
        "maxunicode",
        "float_info",
        "int_info",
        "hash_info",
        "byteorder",
        "implementation",
        "hexversion",
        "getsizeof",
        "getrecursionlimit",
        "getdefaultencoding",
        "getfilesystemencoding",
        "exit",
        "stdout",
        "stderr",
        "stdin",
        "argv",
        "float_repr_style",
        "api_version",
        "executable",
    ),
    "os": (
        "getcwd",
        "sep",
        "linesep",
        "curdir",
        "pardir",
        "extsep",
        "altsep",
        "pathsep",
        "devnull",
        "name",
        "cpu_count",
        "getpid",
        "getppid",
        "getuid",
        "getgid",
        "geteuid",
        "getegid",
        "uname",
        "urandom",
        "fspath",
        "fsencode",
        "fsdecode",
        "strerror",
        "getloadavg",
        "times",
        "get_terminal_size",
        "stat_result",
        "terminal_size",
        "DirEntry",
        "SEEK_SET",
        "SEEK_CUR",
        "SEEK_END",
        "O_RDONLY",
        # path readers (the classifier checks their path against the sandbox)
        "listdir",
        "scandir",
        "stat",
        "lstat",
        "walk",
        "access",
        "R_OK",
        "W_OK",
        "X_OK",
        "F_OK",
    ),
    "os.path": (
        "join",
        "basename",
        "dirname",
        "split",
        "splitext",
        "splitdrive",
        "normpath",
        "normcase",
        "isabs",
        "commonpath",
        "commonprefix",
        "relpath",
        "abspath",
        "expanduser",
        "sep",
        "curdir",
        "pardir",
        "extsep",
        "altsep",
        "pathsep",
        "devnull",
        # path readers
        "exists",
        "lexists",
        "isfile",
        "isdir",
        "islink",
        "ismount",
        "getsize",
        "getmtime",
        "getatime",
        "getctime",
        "samefile",
        "realpath",
    ),
    "platform": (
        "system",
        "release",
        "version",
        "machine",
        "node",
        "python_version",
        "python_version_tuple",
        "python_implementation",
        "python_compiler",
        "platform",
        "uname",
        "processor",
        "architecture",
        "freedesktop_os_release",
        "libc_ver",
    ),
    "pathlib": ("Path", "PurePath", "PosixPath", "PurePosixPath", "PureWindowsPath"),
    "glob": ("glob", "iglob", "escape"),
    "shutil": ("disk_usage", "which", "get_terminal_size"),
    "io": ("StringIO", "BytesIO", "SEEK_SET", "SEEK_CUR", "SEEK_END", "UnsupportedOperation"),
    "json": ("loads", "dumps", "load", "dump", "JSONDecoder", "JSONEncoder", "JSONDecodeError"),
    "contextlib": (
        "suppress",
        "redirect_stdout",
        "redirect_stderr",
        "nullcontext",
        "contextmanager",
        "closing",
        "ExitStack",
    ),
    "dataclasses": (
        "dataclass",
        "field",
        "fields",
        "asdict",
        "astuple",
        "replace",
        "is_dataclass",
        "FrozenInstanceError",
        "InitVar",
        "KW_ONLY",
        "MISSING",
    ),
    "types": ("SimpleNamespace",),
    "warnings": ("warn", "filterwarnings", "simplefilter", "catch_warnings", "resetwarnings"),
    "zoneinfo": ("ZoneInfo", "available_timezones", "ZoneInfoNotFoundError"),
    "uuid": ("uuid3", "uuid4", "uuid5", "UUID", "NAMESPACE_DNS", "NAMESPACE_URL", "NAMESPACE_OID", "NAMESPACE_X500"),
    "shlex": ("split", "quote", "join"),
    "typing": (
        "Any",
        "List",
        "Dict",
        "Set",
        "Tuple",
        "Optional",
        "Union",
        "Callable",
        "Iterable",
        "Iterator",
        "Sequence",
        "Mapping",
        "NamedTuple",
        "TypedDict",
        "Literal",
        "Generator",
        "DefaultDict",
        "Deque",
        "FrozenSet",
        "Type",
        "TypeVar",
        "Generic",
        "cast",
        "overload",
        "Final",
        "ClassVar",
        "Protocol",
        "MutableMapping",
        "MutableSequence",
        "Counter",
        "OrderedDict",
        "NoReturn",
    ),
}
# numpy (installed with the server, so the box can import it) on numbers: building arrays and computing with
# them. Nothing that reads or writes files (loadtxt, fromfile, save, tofile, dump), takes a callable or a
# format (vectorize, frompyfunc, set_printoptions), or reaches memory or native code (ctypeslib, lib,
# frombuffer, as_strided, ndarray itself).
_NUMPY = """array asarray arange linspace logspace zeros ones full eye identity zeros_like ones_like full_like
mean median average std var sum prod min max amin amax argmin argmax cumsum cumprod percentile quantile ptp
nanmean nanmedian nanstd nanvar nansum nanmin nanmax nanpercentile sqrt cbrt square power exp exp2 expm1 log
log10 log2 log1p abs absolute fabs sign floor ceil round around rint trunc sin cos tan arcsin arccos arctan
arctan2 sinh cosh tanh hypot degrees radians deg2rad rad2deg pi e inf nan isnan isinf isfinite nan_to_num
maximum minimum add subtract multiply divide true_divide floor_divide mod remainder fmod divmod negative
reciprocal gcd lcm sort argsort unique clip diff ediff1d gradient convolve dot vdot matmul inner outer cross
corrcoef cov correlate polyfit polyval roots interp histogram bincount digitize where select concatenate stack
vstack hstack column_stack reshape transpose flip roll count_nonzero allclose isclose array_equal all any
logical_and logical_or logical_not searchsorted repeat tile split array_split ravel squeeze expand_dims meshgrid
trapezoid cumulative_sum int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 float32 float64 complex128
bool_ integer floating number"""
_NUMPY_RANDOM = "rand randn randint random choice seed shuffle permutation normal uniform default_rng"
_NUMPY_LINALG = "norm inv det solve eig eigvals svd matrix_rank"
# Attributes of numpy arrays and random generators on that list (by name, as every attribute): computing only.
_NUMPY_ARRAY = """mean std var sum prod min max argmin argmax cumsum cumprod round reshape flatten ravel tolist astype
shape dtype ndim size T transpose argsort clip dot any all item squeeze nonzero diagonal trace real imag conj itemsize
nbytes integers random normal uniform choice shuffle permutation"""
_EXPLICIT["numpy"] = tuple(_NUMPY.split())
_EXPLICIT["numpy.random"] = tuple(_NUMPY_RANDOM.split())
_EXPLICIT["numpy.linalg"] = tuple(_NUMPY_LINALG.split())
_NUMPY_ATTRS = set(_NUMPY_ARRAY.split())

# Path functions that read the file system: the classifier checks the path argument (index) like open().
PATH_READERS: dict[str, int] = {
    **dict.fromkeys(
        (
            "os.listdir",
            "os.scandir",
            "os.stat",
            "os.lstat",
            "os.walk",
            "os.access",
            "glob.glob",
            "glob.iglob",
            "os.path.exists",
            "os.path.lexists",
            "os.path.isfile",
            "os.path.isdir",
            "os.path.islink",
            "os.path.ismount",
            "os.path.getsize",
            "os.path.getmtime",
            "os.path.getatime",
            "os.path.getctime",
            "os.path.samefile",
            "os.path.realpath",
        ),
        0,
    ),
}
# Readers whose path argument may be left out: it is then the working directory.
PATH_DEFAULT_CWD = frozenset({"os.listdir", "os.scandir", "os.walk"})


def _whole_module(name: str, exclude: frozenset[str]) -> set[str]:
    """Public members of a standard library module that are not modules themselves."""
    try:
        module = importlib.import_module(name)
    except ImportError:
        return set()
    return {
        f"{name}.{member}"
        for member in dir(module)
        if not member.startswith("_") and member not in exclude and not inspect.ismodule(getattr(module, member, None))
    }


def _safe_names() -> frozenset[str]:
    names: set[str] = set()
    for module, exclude in _WHOLE_MODULES.items():
        names |= _whole_module(module, exclude)
    for module, members in _EXPLICIT.items():
        names |= {f"{module}.{m}" for m in members}
    return frozenset(names)


SAFE_NAMES = _safe_names()
IMPORTABLE = frozenset(_WHOLE_MODULES) | frozenset(_EXPLICIT) | {"o1_ha"}

# Attributes that reach interpreter internals: frames (and through them every global and builtin), code
# objects, generator and coroutine state.
NEVER_ATTRS = frozenset(
    {
        "gi_frame",
        "gi_code",
        "gi_yieldfrom",
        "gi_running",
        "gi_suspended",
        "cr_frame",
        "cr_code",
        "cr_await",
        "cr_origin",
        "cr_running",
        "ag_frame",
        "ag_code",
        "ag_await",
        "ag_running",
        "f_globals",
        "f_locals",
        "f_builtins",
        "f_back",
        "f_code",
        "f_trace",
        "f_lasti",
        "f_lineno",
        "tb_frame",
        "tb_next",
        "tb_lasti",
        "co_code",
        "co_consts",
        "co_names",
        "co_varnames",
        "func_globals",
        "func_code",
        "im_func",
        "im_self",
        "obj",
    }
)
# Path methods by what they do to the path (the rules in ``rules.py`` speak of them by these tables).
PATH_QUERY_METHODS = frozenset(
    {
        "read_text",
        "read_bytes",
        "exists",
        "is_file",
        "is_dir",
        "is_symlink",
        "is_mount",
        "stat",
        "lstat",
        "iterdir",
        "glob",
        "rglob",
        "samefile",
        "owner",
        "group",
        "readlink",
        "is_block_device",
        "is_char_device",
        "is_fifo",
        "is_socket",
    }
)
PATH_DELETE_METHODS = frozenset({"unlink", "rmdir"})
PATH_WRITE_METHODS = {  # method -> spoken template
    "write_text": "write to {}",
    "write_bytes": "write to {}",
    "touch": "create {}",
    "mkdir": "create {}",
    "symlink_to": "create a link at {}",
    "hardlink_to": "create a link at {}",
    "chmod": "change the permissions of {}",
    "lchmod": "change the permissions of {}",
    "link_to": "create a link at {}",
}
# Names the classifier checks as path operations (or text formatting) rather than allowing by name.
PATH_METHODS = (
    PATH_QUERY_METHODS
    | PATH_DELETE_METHODS
    | frozenset(PATH_WRITE_METHODS)
    | frozenset({"open", "rename", "replace", "expanduser", "format", "format_map"})
)
# Hand-picked attributes of file objects (reading, and writing to files open() already classified).
_FILE_ATTRS = {
    "read",
    "readline",
    "readlines",
    "write",
    "writelines",
    "close",
    "closed",
    "name",
    "mode",
    "encoding",
    "seek",
    "tell",
    "flush",
    "readable",
    "writable",
    "seekable",
    "getvalue",
    "newlines",
    "errors",
    "isatty",
}
# Pure attributes of paths (no file system access).
_PATH_PURE_ATTRS = {
    "name",
    "stem",
    "suffix",
    "suffixes",
    "parent",
    "parents",
    "parts",
    "anchor",
    "root",
    "drive",
    "as_posix",
    "as_uri",
    "is_absolute",
    "is_relative_to",
    "joinpath",
    "match",
    "relative_to",
    "with_name",
    "with_stem",
    "with_suffix",
    "is_reserved",
    "home",
    "cwd",
    "resolve",
    "absolute",
}
_OTHER_ATTRS = {
    # methods of the o1_ha helper's results (helpers/o1_ha.py: History, Duration, Change, Statistics)
    "durations",
    "hours",
    "minutes",
    "change",
    "path",
    "is_file",
    "inode",
    "st_mode",
    "st_size",
    "st_mtime",
    "st_atime",
    "st_ctime",
    "st_uid",
    "st_gid",
    "st_nlink",
    "st_ino",
    "st_dev",
    "st_mtime_ns",
    "st_atime_ns",
    "st_ctime_ns",
    "tm_year",
    "tm_mon",
    "tm_mday",
    "tm_hour",
    "tm_min",
    "tm_sec",
    "tm_wday",
    "tm_yday",
    "tm_isdst",
    "tm_zone",
    "tm_gmtoff",
    "args",
    "errno",
    "strerror",
    "filename",
    "filename2",
    "msg",
    "lineno",
    "offset",
    "text",
    "add_note",
    "with_traceback",
    "send",
    "throw",
    "close",
    "_asdict",
    "_replace",
    "_fields",
    "_make",
    "_field_defaults",
    "total",
    "used",
    "free",
    "columns",
    "lines",
    "sysname",
    "nodename",
    "release",
    "version",
    "machine",
    "major",
    "minor",
    "micro",
    "releaselevel",
    "serial",
    "cache_info",
    "cache_clear",
    "func",
    "keywords",
}


def _type_attrs() -> set[str]:
    """Public attributes of the builtin value types and of the classes among the safe names."""
    import re

    types: list[type] = [
        str,
        bytes,
        bytearray,
        int,
        float,
        complex,
        bool,
        list,
        tuple,
        dict,
        set,
        frozenset,
        range,
        slice,
        memoryview,
        re.Pattern,
        re.Match,
        type({}.items()),
        type({}.keys()),
        type({}.values()),
    ]
    for qualname in SAFE_NAMES:
        module, _, member = qualname.rpartition(".")
        if module.startswith(("typing", "numpy")):  # numpy's types: only _NUMPY_ATTRS (not tofile, dump, ctypes)
            continue
        try:
            value = getattr(importlib.import_module(module), member)
        except (ImportError, AttributeError):
            continue
        if inspect.isclass(value):
            types.append(value)
    attrs: set[str] = set()
    for kind in types:
        attrs |= {a for a in dir(kind) if not a.startswith("_")}
    return attrs


SAFE_ATTRS = frozenset(
    (_type_attrs() | _FILE_ATTRS | _PATH_PURE_ATTRS | _OTHER_ATTRS | _NUMPY_ATTRS)
    - PATH_METHODS
    - NEVER_ATTRS
    - {"mro", "register", "fileno", "buffer", "raw", "detach", "truncate"}
)

# Documented functions of the o1_ha helper (helpers/o1_ha.py): reads, and actions on the home.
HA_READS = frozenset(
    {"get_state", "get_states", "states", "find", "entities"}
    | {"history", "time_on", "last_change", "statistics", "logbook"}  # the home's past (home/history.py)
)
HA_ACTIONS = frozenset(
    {"turn_on", "turn_off", "toggle", "lock", "unlock", "call_service", "tool"}
    | {"set_temperature", "set_position", "set_volume", "media"}  # intent data (home/targets.py)
)
