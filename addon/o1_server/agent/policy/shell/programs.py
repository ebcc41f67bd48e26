"""The shell programs the classifier knows, as data: which rule judges each one, and their options.

A program in none of these tables is unknown, so ``process_control``. The rules themselves are the
methods of :class:`.commands._Commands`; :func:`_rule_for` maps a program name to one of them.
"""

from __future__ import annotations

import re

_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "ash", "fish", "busybox"})
_PYTHON_NAME = re.compile(r"(python|pypy)(\d+(\.\d+)?)?")
_PIP_NAME = re.compile(r"pip(\d+(\.\d+)?)?")
_INTERPRETERS = _SHELLS | frozenset(
    {"perl", "ruby", "node", "nodejs", "php", "lua", "Rscript", "deno", "bun", "osascript"}
)
# Quiet commands whose arguments are text, never files.
_TEXT_COMMANDS = frozenset(
    {
        "echo",
        "printf",
        "expr",
        "test",
        "[",
        "export",
        "unset",
        "local",
        "declare",
        "typeset",
        "readonly",
        "let",
        "set",
        "shift",
        "return",
        "exit",
        "break",
        "continue",
        ":",
        "true",
        "false",
        "alias",
        "type",
        "which",
        "whereis",
        "read",
        "seq",
        "factor",
    }
)
# Commands that only print or set shell state: the text commands, and these, which may read a file named to them.
_QUIET = _TEXT_COMMANDS | frozenset(
    {
        "bc",
        "date",
        "sleep",
        "wait",
        "jobs",
        "pwd",
        "whoami",
        "id",
        "uname",
        "uptime",
        "nproc",
        "free",
        "ps",
        "cal",
        "history",
        "printenv",
        "hostname",
        "lscpu",
        "lsblk",
        "getconf",
    }
)
_READERS = frozenset(
    {
        "ls",
        "cat",
        "head",
        "tail",
        "wc",
        "less",
        "more",
        "tac",
        "nl",
        "sort",
        "uniq",
        "cut",
        "tr",
        "paste",
        "join",
        "comm",
        "column",
        "fold",
        "fmt",
        "rev",
        "md5sum",
        "sha1sum",
        "sha256sum",
        "sha512sum",
        "cksum",
        "file",
        "stat",
        "du",
        "df",
        "tree",
        "realpath",
        "readlink",
        "basename",
        "dirname",
        "diff",
        "cmp",
        "od",
        "hexdump",
        "xxd",
        "strings",
        "base64",
        "cd",
        "pushd",
        "popd",
        "locate",
        "numfmt",
        "shuf",
        "look",
    }
)
_PATTERN_READERS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "jq", "yq"})
_READ_VALUE_OPTS = frozenset({"-n", "-c", "-e", "-f", "-m", "-A", "-B", "-C", "-k", "-t", "-d", "-b", "-o", "-S"})
_NETWORK = frozenset(
    {
        "curl",
        "wget",
        "nc",
        "ncat",
        "netcat",
        "ssh",
        "scp",
        "sftp",
        "ping",
        "ping6",
        "ftp",
        "telnet",
        "socat",
        "dig",
        "nslookup",
        "host",
        "whois",
        "traceroute",
        "tracepath",
        "http",
        "https",
        "aria2c",
        "lftp",
        "mosh",
        "ssh-keyscan",
        "mtr",
    }
)
_NET_VALUE_OPTS = frozenset(
    {
        "-o",
        "-X",
        "-H",
        "-d",
        "-u",
        "-A",
        "-e",
        "-x",
        "-T",
        "-F",
        "-w",
        "-m",
        "-b",
        "-c",
        "-K",
        "-r",
        "-O",
        "-P",
        "-t",
        "-U",
        "-p",
        "-i",
        "-l",
        "-L",
        "-R",
        "-D",
        "-J",
        "-W",
        "-s",
        "-I",
        "--output",
        "--header",
        "--data",
        "--request",
        "--user",
        "--max-time",
        "--connect-timeout",
        "--user-agent",
    }
)
_INSTALLERS = frozenset(
    {
        "pipx",
        "apt",
        "apt-get",
        "aptitude",
        "dpkg",
        "npm",
        "npx",
        "yarn",
        "pnpm",
        "brew",
        "conda",
        "mamba",
        "micromamba",
        "uv",
        "uvx",
        "poetry",
        "pipenv",
        "gem",
        "cargo",
        "snap",
        "flatpak",
        "apk",
        "yum",
        "dnf",
        "pacman",
        "zypper",
        "port",
        "easy_install",
        "opkg",
    }
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
    {
        "status",
        "log",
        "diff",
        "show",
        "rev-parse",
        "ls-files",
        "blame",
        "describe",
        "shortlog",
        "grep",
        "help",
        "version",
        "--version",
        "branch",
        "tag",
        "config",
    }
)
# Options with which a program deletes files as a side effect (its sources once copied or archived, or what is
# missing on the other side), per program; a clustered short option counts too (zip -rm).
_DELETING_OPTS = {
    "tar": ("--remove-files",),
    "zip": ("-m", "--move"),
    "rsync": (
        "--remove-source-files",
        "--delete",
        "--del",
        "--delete-before",
        "--delete-during",
        "--delete-delay",
        "--delete-after",
        "--delete-excluded",
        "--delete-missing-args",
        "--prune-empty-dirs",
    ),
    "unzip": ("-o",),  # overwrites existing files without asking
    "7z": (),
}
# Compressors remove their input unless told to keep it or to write to standard output.
_COMPRESSORS = frozenset({"gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd", "lzma", "unlzma"})
_COMPRESSOR_KEEP = ("-k", "--keep", "-c", "--stdout", "--to-stdout", "-l", "--list", "-t", "--test")
# git subcommands that delete files or throw away their content: clean (unless a dry run), rm, and those that
# overwrite the working tree with another version.
_GIT_DELETES = frozenset({"clean", "rm", "restore", "checkout", "switch", "reset", "stash"})
_PY_MODULE_CLAUSES = {
    "venv": ("writes_files", "create a Python environment"),
    "virtualenv": ("writes_files", "create a Python environment"),
    "http.server": ("network", "share files on the network"),
    "SimpleHTTPServer": ("network", "share files on the network"),
    "smtpd": ("network", "start a mail server"),
}
_PY_READ_MODULES = frozenset({"json.tool", "this", "timeit", "calendar", "platform", "sysconfig", "site", "tokenize"})


# Variables that change which programs run or what they load: setting one is process_control.
_RISKY_VARIABLE = re.compile(
    r"PATH|LD_\w*|BASH_ENV|ENV|BASH_FUNC_\w*|SHELLOPTS|BASHOPTS|PS4|PS1|PROMPT_COMMAND|IFS|CDPATH|GLOBIGNORE|"
    r"GIT_\w*|\w*PAGER|\w*EDITOR|VISUAL|BROWSER|PYTHON\w*|PERL\w*|RUBY\w*|NODE_\w*|LESS\w*|TERMINFO\w*|"
    r"GCONV_PATH|HOSTALIASES|LOCPATH|NLSPATH|MALLOC_\w*|TMPDIR|HOME|SHELL|O1_\w*"
)


_TABLE = {
    **dict.fromkeys(("rm", "rmdir", "unlink", "shred", "truncate"), "delete"),
    **dict.fromkeys(("cp", "mv", "ln", "install", "rsync"), "copy"),
    **dict.fromkeys(("mkdir", "touch", "mktemp", "mkfifo"), "create"),
    **dict.fromkeys(("chmod", "chown", "chgrp"), "chmod"),
    **dict.fromkeys(("awk", "gawk", "mawk", "nawk"), "awk"),
    **dict.fromkeys(
        (
            "tar",
            "zip",
            "unzip",
            "gzip",
            "gunzip",
            "bzip2",
            "bunzip2",
            "xz",
            "unxz",
            "7z",
            "zstd",
            "patch",
            "split",
            "csplit",
        ),
        "archive",
    ),
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
_READER_OUTPUT_OPTS = {
    "sort": ("-o", "--output"),
    "shuf": ("-o", "--output"),
    "tree": ("-o",),
    "less": ("-o", "-O", "--log-file", "--LOG-FILE"),
    "more": ("-o",),
}


def _rule_for(name: str) -> str:
    """The name of the :class:`_Commands` method for a program that is not an interpreter."""
    if name in _TABLE:
        return _TABLE[name]
    families = (
        (_WRAPPERS, "wrapper"),
        (_NETWORK, "network"),
        (_INSTALLERS, "install"),
        (_READERS, "read"),
        (_PATTERN_READERS, "read"),
    )
    return next((rule for names, rule in families if name in names), "unknown")
