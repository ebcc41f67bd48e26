"""Reading a command's words: its name, operands, option values, hosts, ``-c`` code, sed scripts.

Pure functions of the words; classifying them is :mod:`.commands`' job.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

from ..paths import _URL, HOLE, NAME, host_of
from .programs import _FILE_VALUE_OPTS, _NET_VALUE_OPTS


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
    hosts = [host_of(a) for a in (urls or operands[:1])]
    return [h for h in hosts if h]


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
