"""Sandboxed execution of one code block, with the operating system as the boundary.

The policy layer decides *whether* a block runs; this package bounds *how* it runs: bubblewrap namespaces
(``view`` says what the box shows, ``bwrap`` builds the command line), a cgroup per block (``cgroups``),
rlimits and the process lifecycle (``processes``), one uid per conversation (``uids``) and a disk cap on its
folder (``folder``). ``detection`` finds what this machine offers and says what is missing; ``run`` runs a
block. Settings live in one object (``config``). The layers, fallbacks and their reasons are in
``docs/sandbox.md``.
"""

from __future__ import annotations

from .config import SandboxSettings, configure
from .detection import Isolation, describe_isolation, isolation, prepare, python_reachable_by_others
from .disk import FREE_RESERVE_MB, NoRoom, room_for_new, root_cap_mb, set_root_cap
from .folder import MAX_FOLDER_DEPTH, FolderScan, remove_tree, scan_folder
from .limits import DEFAULT_UIDS, KILLED, MIB, REFUSED, ExecResult, Limits
from .run import command_for, run_code, shift_lines
from .uids import (
    code_runs_as_server_uid,
    conversation_dir,
    conversation_uid,
    is_sandbox_uid,
    parse_uid_range,
    resolve_user,
    safe_name,
)
from .view import ETC_FILES, HELPERS_DIR

__all__ = [
    "DEFAULT_UIDS",
    "ETC_FILES",
    "FREE_RESERVE_MB",
    "HELPERS_DIR",
    "KILLED",
    "MAX_FOLDER_DEPTH",
    "MIB",
    "REFUSED",
    "ExecResult",
    "FolderScan",
    "Isolation",
    "Limits",
    "NoRoom",
    "SandboxSettings",
    "code_runs_as_server_uid",
    "command_for",
    "configure",
    "conversation_dir",
    "conversation_uid",
    "describe_isolation",
    "is_sandbox_uid",
    "isolation",
    "parse_uid_range",
    "prepare",
    "python_reachable_by_others",
    "remove_tree",
    "resolve_user",
    "room_for_new",
    "root_cap_mb",
    "run_code",
    "safe_name",
    "scan_folder",
    "set_root_cap",
    "shift_lines",
]
