"""One shell command judged by its words: the rules for files, network, packages and programs.

Used for every command in shell code and for commands Python starts (``subprocess.run([...])``). Code a
command runs (``bash -c``, ``python -c``, ``eval``) goes back through :mod:`..nested`.
"""

from __future__ import annotations

import itertools
import os
import posixpath
import re
from collections.abc import Sequence
from urllib.parse import urlsplit

from .. import nested
from ..categories import KIND
from ..findings import _Event, _Report
from ..paths import _SAFE_DEVICES, HOLE, NAME
from ..phrasing import _quote, _quote_all, _speak_path
from .args import (
    _command_name,
    _download_target,
    _hosts_in,
    _interpreter_option,
    _is_remote,
    _operands,
    _option_values,
    _sed_script_risky,
)
from .programs import (
    _COMPRESSOR_KEEP,
    _COMPRESSORS,
    _DELETING_OPTS,
    _FILE_VALUE_OPTS,
    _GIT_DELETES,
    _GIT_NETWORK,
    _GIT_READ,
    _PATTERN_READERS,
    _PIP_NAME,
    _PROCESS_PHRASES,
    _PY_MODULE_CLAUSES,
    _PY_READ_MODULES,
    _PYTHON_NAME,
    _QUIET,
    _READ_VALUE_OPTS,
    _READER_OUTPUT_OPTS,
    _RISKY_VARIABLE,
    _SHELLS,
    _TEXT_COMMANDS,
    _WRAPPERS,
    _rule_for,
)


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
        if (
            any(a.startswith(("--files0-from", "--files-from", "--exclude-from")) for a in args)
            or (name in ("tar", "cpio", "rsync") and "-T" in args)
            or (name.endswith("sum") and any(a in ("-c", "--check") for a in args))
        ):
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
            name in ("hostname", "history")
            and args
            and not all(a in ("-f", "-s", "-i", "-I", "-d", "-a", "-A") for a in args)
        ):
            self.report.flag("process_control", f"{name} changes the system", _Event("process", f"change the {name}"))
        elif name == "hash" and any(a.startswith("-") and "p" in a for a in args):
            self.report.flag(
                "process_control",
                "hash -p makes a command name run another program",
                _Event("process", "change which programs commands run"),
            )
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
        value_opts = _FILE_VALUE_OPTS - {"-s", "-d", "-n", "-r", "-m", "-e"} if name == "ln" else _FILE_VALUE_OPTS
        operands = _operands(args, value_opts)
        target_dir = next((args[i + 1] for i, a in enumerate(args[:-1]) if a == "-t"), None)
        dest = target_dir or (operands.pop() if len(operands) > 1 else HOLE)
        if name == "rsync" and any(_is_remote(a) for a in [*operands, dest]):
            self.network(name, [a for a in [*operands, dest] if _is_remote(a)])
            return
        if name == "rsync":
            self.deletes_as_side_effect(name, args)
        for source in operands:
            self.report.touch(source, "read", "read {}")
        spoken = _speak_path(operands[0]) if len(operands) == 1 else None
        verb = {"mv": "move", "ln": "link"}.get(name, "copy")
        template = f"{verb} {spoken} to {{}}" if spoken else f"{verb} files to {{}}"
        self.report.flag("writes_files", f"{name} writes to {_quote(dest)}")
        replaces = name != "ln" or any(a in ("-f", "--force") or re.fullmatch(r"-[a-z]*f[a-z]*", a) for a in args)
        full = dest if dest.startswith("/") else posixpath.join(self.report.sandbox, self.report.resolve(dest))
        into_folder = HOLE not in dest and os.path.isdir(full)
        if replaces and into_folder:  # the files of the same names in that folder are what gets replaced
            for source in operands:
                inner = posixpath.join(dest, posixpath.basename(source.rstrip("/")))
                if self.report.may_exist(self.report.resolve(inner)):
                    self.report.touch(inner, "replace", template)
        self.report.touch(dest, "replace" if replaces and not into_folder else "write", template)

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
        appends = any(a in ("-a", "--append") or re.fullmatch(r"-[a-z]*a[a-z]*", a) for a in args)
        for target in targets:
            self.report.touch(target, "write" if appends else "replace", "write to {}")

    def dd(self, name: str, args: list[str]) -> None:
        """dd reads ``if=`` and writes ``of=``."""
        options = dict(a.split("=", 1) for a in args if "=" in a)
        if "if" in options:
            self.report.touch(options["if"], "read", "read {}")
        target = options.get("of", "")
        if target not in _SAFE_DEVICES:
            self.report.flag("writes_files", f"dd writes to {_quote(target or 'its output')}")
            appends = "notrunc" in options.get("conv", "") or "append" in options.get("oflag", "")
            self.report.touch(target, "write" if appends else "replace", "write to {}")

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
            self.report.flag(
                "process_control",
                f"{name} script can run commands or write files I can't check",
                _Event("process", "run a sed script I can't check"),
            )
        in_place = any(
            a.startswith(("-i", "--in-place")) or (a.startswith("-") and not a.startswith("--") and "i" in a)
            for a in args
            if a not in ("-e", "-f")
        )
        for target in files or ([HOLE] if in_place else []):
            self.report.touch(target, "replace" if in_place else "read", "edit {}" if in_place else "read {}")
        if in_place:
            self.report.flag("writes_files", f"sed edits {_quote_all(files or [HOLE])} in place")

    def awk(self, name: str, args: list[str]) -> None:
        """awk is read-only unless its program runs commands (``system``, pipes) or prints into files."""
        operands = _operands(args, frozenset({"-F", "-v", "-f"}))
        program = operands[0] if operands and "-f" not in args else ""
        if not program or re.search(r"system|\||getline|@load|@include|ENVIRON\s*\[", program):
            self.report.flag(
                "process_control",
                f"{name} program runs commands or reads what I can't check",
                _Event("process", "run commands from awk"),
            )
        for match in re.finditer(r"\bprintf?\b[^;}\n]*?(>>?)\s*(\"([^\"]*)\"|[^\s;}]+)", program):
            self.report.flag("writes_files", f"{name} program writes files", _Event("write", "write files with awk"))
            kind = "write" if match.group(1) == ">>" else "replace"
            self.report.touch(match.group(3) if match.group(3) is not None else HOLE, kind, "write to {}")
        for target in operands[1 if program else 0 :]:
            self.report.touch(target, "read", "read {}")

    def archive(self, name: str, args: list[str]) -> None:
        """tar, zip, unzip, gzip ... change files; options that run a program are process_control; options
        that remove the sources (tar --remove-files, zip -m, a compressor without -k) delete files."""
        self.report.flag("writes_files", f"{name} changes files", _Event("write", f"change files with {name}"))
        self.deletes_as_side_effect(name, args)
        runs = (
            "--to-command",
            "--checkpoint-action",
            "--use-compress-program",
            "--rsh-command",
            "--info-script",
            "--new-volume-script",
            "-TT",
            "--unzip-command",
            "--filter",
        )
        if name == "tar" and any(
            a in ("-P", "--absolute-names") or re.fullmatch(r"-[A-Za-z]*P[A-Za-z]*", a) for a in args
        ):
            self.report.flag(
                "outside_sandbox",
                "tar -P writes absolute paths",
                _Event("outside", "unpack files outside my working folder"),
            )
        clustered = name == "tar" and any(re.fullmatch(r"-?[A-Za-z]*[IF][A-Za-z]*", a) for a in args[:1])
        if clustered or any(
            a.startswith(runs) or (name == "tar" and re.fullmatch(r"-[A-Za-z]*[IF][A-Za-z]*", a)) for a in args
        ):
            self.report.flag(
                "process_control",
                f"{name} is told to run another program",
                _Event("process", f"run programs from {name}"),
            )
        for i, arg in enumerate(args[:-1]):
            if arg in ("-C", "--directory", "-d"):
                self.report.touch(args[i + 1], "write", "unpack files into {}")

    def deletes_as_side_effect(self, name: str, args: list[str]) -> None:
        """Flag ``deletes_files`` when ``name`` with ``args`` removes files besides what it writes."""
        opts = _DELETING_OPTS.get(name, ())
        short = [o[1] for o in opts if len(o) == 2]
        clustered = [a for a in args if re.fullmatch(r"-[A-Za-z0-9]+", a)]
        deleting = any(a.split("=", 1)[0] in opts for a in args) or any(c in a[1:] for a in clustered for c in short)
        if name in _COMPRESSORS:
            keep_short = [o[1] for o in _COMPRESSOR_KEEP if len(o) == 2]
            kept = any(a in _COMPRESSOR_KEEP for a in args) or any(c in a[1:] for a in clustered for c in keep_short)
            deleting = not kept and bool(_operands(args))
        if name == "7z" and _operands(args)[:1] == ["d"]:
            deleting = True
        if deleting:
            targets = _operands(args, _FILE_VALUE_OPTS) or [HOLE]
            self.report.flag("deletes_files", f"{name} {' '.join(args[:3])} removes files")
            for target in targets:
                self.report.touch(target, "delete", "delete {}")

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
                self.report.flag(
                    "process_control",
                    f"find {arg} runs a command for each file",
                    _Event("process", "run a command for each file found"),
                )
                inner = list(itertools.takewhile(lambda a: a not in (";", "+"), rest[i + 1 :]))
                self.scan([found if a == "{}" else a.replace("{}", found) for a in inner])
            elif arg in ("-fprint", "-fprint0", "-fprintf", "-fls") and i + 1 < len(rest):
                self.report.flag("writes_files", f"find writes to {_quote(rest[i + 1])}")
                self.report.touch(rest[i + 1], "write", "write to {}")

    def xargs(self, name: str, args: list[str]) -> None:
        """xargs runs its command with arguments read from its input."""
        self.report.flag(
            "process_control",
            "xargs runs a command with words read at run time",
            _Event("process", "run a command with words it reads at run time"),
        )
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
            self.report.flag(
                "process_control",
                f"{name} is told to run another program",
                _Event("process", f"run programs from {name}"),
            )
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
            self.report.touch(target, "replace", "write to {}")

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
            kind = "replace"
            if output == NAME:  # named after the URL: wget keeps an existing file (it saves file.1), curl -O not
                urls = [urlsplit(a).path for a in args if "://" in a and HOLE not in a]
                kind = "write" if name == "wget" else "replace"
                output = posixpath.basename(urls[0]) if len(urls) == 1 and posixpath.basename(urls[0]) else output
            self.report.touch(output, kind, "write to {}")

    def git(self, name: str, args: list[str]) -> None:
        """git: clone/pull/fetch/push use the network; read-only subcommands read; the rest writes."""
        operands = _operands(args, frozenset({"-C", "-c", "--git-dir", "--work-tree"}))
        sub = operands[0] if operands else ""
        runs = (
            "-c",
            "--config-env",
            "--exec-path",
            "--upload-pack",
            "--receive-pack",
            "--output",
            "-O",
            "--open-files-in-pager",
            "--ext-diff",
            "-x",
            "--exec",
            "--extcmd",
            "--tool",
            "--git-dir",
            "--work-tree",
        )
        config_write = sub == "config" and not any(
            a in ("--get", "--get-all", "--get-regexp", "--list", "-l") for a in args
        )
        if (
            config_write
            or any(a.startswith(runs) for a in args)
            or sub
            in (
                "difftool",
                "mergetool",
                "filter-branch",
                "bisect",
                "rebase",
                "daemon",
                "instaweb",
                "credential",
                "send-email",
                "archive",
                "hook",
                "var",
                "help",
            )
            or operands[1:2] == ["foreach"]
        ):
            self.report.flag(
                "process_control",
                f"git {sub or 'command'} can run programs",
                _Event("process", "run programs through git"),
            )
        if "--no-index" in args:
            for target in operands[1:]:
                self.report.touch(target, "read", "read {}")
        if sub in _GIT_NETWORK:
            self.network("git", operands[1:])
            if sub in ("clone", "pull", "submodule"):
                self.report.flag("writes_files", f"git {sub} writes files", _Event("write", "change files with git"))
        elif sub not in _GIT_READ:
            self.report.flag(
                "writes_files",
                f"git {sub or 'command'} changes the repository",
                _Event("write", "change files with git"),
            )
        dry_run = any(a in ("-n", "--dry-run") for a in args)
        keeps = sub == "stash" and operands[1:2] in ([], ["list"], ["show"], ["push"], ["save"])
        if (
            sub in _GIT_DELETES
            and not dry_run
            and not keeps
            and not (sub in ("checkout", "switch", "reset") and not _git_discards(sub, args))
        ):
            self.report.flag(
                "deletes_files",
                f"git {sub} deletes files or discards their changes",
                _Event("delete", "delete files or throw away changes with git"),
            )

    def install(self, name: str, args: list[str]) -> None:
        """Package managers: installs_packages, naming the packages after install/add."""
        operands = _operands(args, frozenset({"-r", "-c", "-i", "-t", "-e", "-f", "--index-url", "--target"}))
        if name in ("uv", "pipx", "conda", "mamba") and operands[:1] in (["pip"], ["run"]):
            operands = operands[1:]
        verbs = {
            "install": "install",
            "add": "install",
            "i": "install",
            "get": "install",
            "-S": "install",
            "remove": "remove",
            "uninstall": "remove",
            "purge": "remove",
            "rm": "remove",
        }
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
            self.report.flag(
                "process_control",
                f"{name} starts another Python interpreter",
                _Event("process", "start another Python interpreter"),
            )
        if option and option[0] == "c":
            nested.scan("python", option[1], self.report, self.depth + 1)
        elif option:
            self.python_module(option[1], option[2])
        elif stdin_code is not None and not _operands(args)[:1]:
            nested.scan("python", stdin_code, self.report, self.depth + 1)
        else:
            self.run_script(name, (_operands(args) or [""])[0], "Python")

    def python_module(self, module: str, args: list[str]) -> None:
        """python -m MODULE."""
        if module in ("pip", "pip3", "ensurepip"):
            self.install("pip", args)
        elif module in _PY_MODULE_CLAUSES:
            category, clause = _PY_MODULE_CLAUSES[module]
            self.report.flag(category, f"python -m {module}", _Event(KIND[category], clause))
        elif module not in _PY_READ_MODULES:
            self.report.flag(
                "process_control",
                f"runs the Python module {_quote(module)}",
                _Event("process", "run {}", f"the Python module {module}", "a Python module"),
            )

    def shell(self, name: str, args: list[str], stdin_code: str | None) -> None:
        """sh -c CODE and here-documents are classified as shell; a script file is an unknown program."""
        option = _interpreter_option(args, "c", frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"}))
        if option or stdin_code is not None:
            self.report.flag(
                "process_control", f"{name} starts another shell", _Event("process", "start another shell")
            )
        if option:
            nested.scan("shell", option[1], self.report, self.depth + 1)
        elif stdin_code is not None and not _operands(args):
            nested.scan("shell", stdin_code, self.report, self.depth + 1)
        else:
            self.run_script(name, (_operands(args) or [""])[0], "shell")

    def run_script(self, name: str, script: str, language: str) -> None:
        """An interpreter runs a script file, or code from its input, that we can't see."""
        if script:
            self.report.flag(
                "process_control",
                f"{name} runs {_quote(script)}",
                _Event("process", "run {}", f"the {language} script {script}", f"a {language} script"),
            )
            self.report.touch(script, "read", "read {}")
        else:
            self.report.flag(
                "process_control",
                f"{name} runs code from its input",
                _Event("process", f"run {language} code from its input"),
            )

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
            nested.scan("shell", args[args.index("-c") + 1], self.report, self.depth + 1)

    def eval(self, name: str, args: list[str]) -> None:
        """eval runs its arguments as shell code."""
        self.report.flag(
            "process_control",
            "eval runs code built at run time",
            _Event("process", "run a command I can't check in advance"),
        )
        if args:
            nested.scan("shell", " ".join(args), self.report, self.depth + 1)

    def source(self, name: str, args: list[str]) -> None:
        """source / . runs a script in the current shell."""
        script = (args or [HOLE])[0]
        self.report.flag(
            "process_control",
            f"{name} runs {_quote(script)}",
            _Event("process", "run {}", f"the shell script {script}", "a shell script"),
        )
        self.report.touch(script, "read", "read {}")

    def unknown(self, name: str, args: list[str]) -> None:
        """Programs we don't know are not assumed to be harmless."""
        self.report.flag(
            "process_control",
            f"runs {_quote(name)}, a program I don't know",
            _Event("process", "run {}", f"the program {name}", "an unknown program"),
        )


def _check_variable(name: str, report: _Report) -> None:
    """Flag setting a variable that changes which programs run or what they load."""
    if _RISKY_VARIABLE.fullmatch(name):
        report.flag(
            "process_control",
            f"sets {name}, which changes what programs run",
            _Event("process", "change how programs are started"),
        )


def _scan_argv(argv: Sequence[str], report: _Report, depth: int) -> None:
    """Classify one command given as its words (the ``argv`` scanner of :mod:`..nested`)."""
    _Commands(report, depth).scan(argv)


nested.register("argv", _scan_argv)


def _git_discards(sub: str, args: list[str]) -> bool:
    """Whether ``git checkout``/``switch``/``reset`` overwrite the working tree's changes: ``reset --hard``
    (or ``--merge``/``--keep``), ``checkout -f``/``--`` paths/``.``, ``switch --discard-changes``/``-f``."""
    if sub == "reset":
        return any(a in ("--hard", "--merge", "--keep") for a in args)
    if sub == "switch":
        return any(a in ("-f", "--force", "--discard-changes") for a in args)
    return any(a in ("-f", "--force", "--", ".", "-p", "--patch") for a in args)
