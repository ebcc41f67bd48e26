"""Who a code block runs as: the per-conversation uid range and the conversation folders it owns.

A conversation folder's owner is its uid allocation record (see ``docs/sandbox.md``). This module reads the
range from the settings (``config``); it never starts or kills a process.
"""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path
from typing import TypeGuard

from .config import SETTINGS
from .limits import DEFAULT_UIDS

_uid_lock = threading.Lock()


def resolve_user(name: str | None) -> tuple[int, int] | None:
    """Map a user name or uid to (uid, gid). Raises ValueError for an unknown user."""
    if not name:
        return None
    import pwd

    try:
        entry = pwd.getpwuid(int(name)) if name.isdigit() else pwd.getpwnam(name)
    except (KeyError, ValueError):
        raise ValueError(f"unknown sandbox user {name!r}") from None
    return entry.pw_uid, entry.pw_gid


def safe_name(conversation_id: str) -> str:
    """A file name for a conversation id: its readable part plus a hash of the whole id, so that ids which
    differ only in characters a file name cannot hold ("a b", "a/b") or after 80 characters never collide."""
    readable = "".join(c if c.isalnum() or c in "-_" else "_" for c in conversation_id)[:80]
    digest = hashlib.sha256(conversation_id.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{readable}-{digest}"


def is_sandbox_uid(uid: int, also: tuple[int, ...] | frozenset[int] = ()) -> bool:
    """True when ``uid`` is one generated code may run as: inside the configured per-conversation range (the
    one place that range is kept; checked whether or not the server is root), or one of ``also`` (an explicit
    ``Limits.user``). The listeners use it to refuse clients whose socket a code block owns (see
    ``o1_server.peer_guard``)."""
    uids = SETTINGS.uids
    return (uids is not None and uids[0] <= uid < uids[0] + uids[1]) or uid in also


def code_runs_as_server_uid(also: tuple[int, ...] | frozenset[int] = ()) -> bool:
    """True when code blocks run as the server's own uid (server not root, or the uid range is off and no
    other user is set): then no local socket owner tells a block from the server itself."""
    return per_conversation_uids() is None and not [u for u in also if u != os.geteuid()]


def parse_uid_range(text: str) -> tuple[int, int] | None:
    """Parse ``FIRST:COUNT`` (e.g. ``100000:65536``); ``off`` or empty gives None. Raises ValueError."""
    if text.strip().lower() in ("", "off", "none"):
        return None
    first, _, count = text.partition(":")
    try:
        value = (int(first), int(count or DEFAULT_UIDS[1]))
    except ValueError:
        raise ValueError(f"sandbox uid range {text!r} is not FIRST:COUNT") from None
    if value[0] <= 0 or value[1] <= 0:
        raise ValueError(f"sandbox uid range {text!r} must start above 0 and hold at least one uid")
    return value


def per_conversation_uids() -> tuple[int, int] | None:
    """The uid range in use: only when the server is root (only root can hand out uids)."""
    return SETTINGS.uids if os.geteuid() == 0 else None


def dedicated(user: tuple[int, int] | None) -> TypeGuard[tuple[int, int]]:
    """Whether ``user`` is a conversation's own uid (from the range), so every process of it is the block's."""
    uids = SETTINGS.uids
    return user is not None and os.geteuid() == 0 and uids is not None and uids[0] <= user[0] < uids[0] + uids[1]


def conversation_uid(folder: Path) -> tuple[int, int] | None:
    """Return (uid, gid) of the conversation owning ``folder``, assigning one if it has none yet.

    The folder's owner is the record: an owner inside the range is kept; otherwise the uid its resolved path
    hashes to is taken, probing upwards past uids that sibling folders own; the folder is handed to it with
    mode 0700. Returns None when uids are not per conversation (server not root, or the range is off).
    Raises RuntimeError when every uid of the range is taken among the siblings.
    """
    uids = per_conversation_uids()
    if uids is None:
        return None
    first, count = uids
    with _uid_lock:
        st = folder.stat()
        if first <= st.st_uid < first + count:
            uid = st.st_uid
        else:
            taken = set()
            with os.scandir(folder.parent) as entries:
                for entry in entries:
                    try:
                        taken.add(entry.stat(follow_symlinks=False).st_uid)
                    except OSError:
                        continue
            start = int.from_bytes(hashlib.sha256(os.fsencode(folder.resolve())).digest()[:8], "big") % count
            for step in range(count):
                uid = first + (start + step) % count
                if uid not in taken:
                    break
            else:
                raise RuntimeError(f"all {count} sandbox uids from {first} are taken")
        if st.st_uid != uid or st.st_gid != uid:
            os.chown(folder, uid, uid)
        if st.st_mode & 0o7777 != 0o700:
            folder.chmod(0o700)
    return uid, uid


def conversation_dir(sandbox_root: Path, conversation_id: str, user: tuple[int, int] | None = None) -> Path:
    """Return (and create) the working directory of one conversation, always inside ``sandbox_root``.

    With ``user`` (uid, gid) the directory is handed to that user; otherwise, when the server is root, to the
    conversation's own uid (see ``conversation_uid``). Raises ValueError when the id would escape the sandbox
    root.
    """
    path = (sandbox_root / safe_name(conversation_id)).resolve()
    if path.parent != sandbox_root.resolve():
        raise ValueError(f"conversation id {conversation_id!r} escapes the sandbox")
    path.mkdir(parents=True, exist_ok=True)
    if user is not None:
        if path.stat().st_uid != user[0]:
            os.chown(path, *user)
    else:
        conversation_uid(path)
    return path
