"""The conversations on disk: sessions by (conversation id, profile, realm), saved, restored and pruned.

``SessionManager`` keeps different conversations apart, saves each after every turn
(``<data_dir>/sessions/<id>.json``), forgets those idle longer than ``idle_seconds`` and applies the retention.
A conversation belongs to the profile and the transport (realm) that made it. A save writes into space kept
allocated for it (:data:`SAVE_RESERVE_BYTES`), so a disk filled by generated code does not lose the
conversation; a new conversation is refused while the sandbox's disk has no room for its folder.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from . import i18n
from .audit import AuditLog
from .home import HomeGateway
from .profiles import Profile
from .sandbox import Limits, remove_tree, room_for_new, safe_name
from .session import LOCAL_CHANNEL, BackendFactory, Session
from .types import AgentError

_LOGGER = logging.getLogger(__name__)

UNMARKED_REALM = "http"
"""The realm of a conversation saved before conversations recorded theirs (the integration's HTTP API)."""


REALMS = ("http", "wyoming", "01", LOCAL_CHANNEL)


def realm_of(channel: str) -> str:
    """The kind of transport a channel is (``http``, ``wyoming``, ``01``, ``local``): a conversation belongs to
    the realm that made it. The token-protected HTTP API and the unauthenticated Wyoming and 01 transports never
    continue each other's conversations."""
    return channel.split(":", 1)[0] or LOCAL_CHANNEL


PRUNE_EVERY = 50
"""Saves between two retention passes (see :meth:`SessionManager.prune`)."""
ORPHAN_SECONDS = 3600.0
"""Age, in seconds, from which a sandbox folder with no saved conversation and no live session is deleted."""
SAVE_RESERVE_BYTES = 4 * 1024 * 1024
"""Space kept allocated for the next save (the file ``<data_dir>/sessions/.reserve``, made with
``posix_fallocate``): a save renames it to its temporary file, writes the conversation into blocks it already
owns, cuts it to size and renames it over the conversation's file, then allocates the next reserve. So a save of
up to this many bytes succeeds on a disk a code block filled. Where the disk cannot give a full reserve, the
space it has left (or a quarter of that, a sixteenth..., down to 64 KiB) is kept."""
_MIN_RESERVE = 64 * 1024
RESERVE_NAME = ".reserve"
"""The reserve's file name in the sessions folder (never a conversation's: those end in ``.json``)."""


class SessionManager:
    """Sessions by (conversation id, profile, realm), loaded from and saved to ``<data_dir>/sessions``.

    A conversation belongs to the profile and the realm (the transport, :func:`realm_of`) that created it:
    another profile, or the same id arriving over another transport, gets a separate session (its own
    history, pending question and working folder), stored under the derived id ``<conversation id> NUL
    <profile>`` (HTTP) or ``<conversation id> NUL <profile> NUL <realm>``; switching back finds the first
    session intact, in memory and on disk. So an unauthenticated Wyoming ``transcript`` carrying the id of a
    conversation made through the token-protected HTTP API starts a new conversation: it never sees the
    other's history or files.

    Retention: :meth:`prune` deletes saved conversations (their ``.json`` file and their sandbox folder) unused
    for more than ``max_age_days`` days, and the least recently used beyond ``max_count``, and sandbox folders
    whose conversation was never saved once they are :data:`ORPHAN_SECONDS` old; it runs at start-up, every
    :data:`PRUNE_EVERY` saves and whenever the server calls it (hourly). 0 disables a limit. Conversations
    held in memory are never deleted by it.

    A save writes into space allocated beforehand (:data:`SAVE_RESERVE_BYTES`), so a disk that generated code
    filled does not stop it. A save that fails all the same (a larger conversation on a full disk, a read-only
    folder) is logged, not raised: the turn's answer still goes out, and the conversation stays in memory (not
    expired) until a later save succeeds.
    """

    def __init__(
        self,
        data_dir: Path,
        sandbox_root: Path,
        audit: AuditLog,
        backend_factory: BackendFactory,
        idle_seconds: float = 3600.0,
        home: HomeGateway | None = None,
        user: tuple[int, int] | None = None,
        max_age_days: float = 30.0,
        max_count: int = 1000,
    ) -> None:
        self.home = home
        self.user = user
        self.folder = data_dir / "sessions"
        self.folder.mkdir(parents=True, exist_ok=True)
        self.folder.chmod(0o700)  # conversations are private to the server
        self._reserve()
        self.sandbox_root = sandbox_root
        self.audit = audit
        self.idle_seconds = idle_seconds
        self._factory = backend_factory
        self._sessions: dict[tuple[str, str, str], Session] = {}
        self._lock = threading.Lock()
        self.max_age_days = max_age_days
        self.max_count = max_count
        self._unsaved: set[str] = set()  # conversation ids whose last save failed
        self._saves = 0
        self._prune_lock = threading.Lock()
        self._save_lock = threading.Lock()
        try:
            self.prune()
        except OSError as err:  # retention is housekeeping: never a reason not to start
            _LOGGER.warning("Could not apply session retention: %s", err)

    def _file(self, storage_id: str) -> Path:
        return self.folder / f"{safe_name(storage_id)}.json"

    def _load(self, storage_id: str) -> dict[str, Any] | None:
        """The saved state under ``storage_id``; None when there is none. Raises ValueError when a file is
        there but unreadable (it is then never overwritten)."""
        path = self._file(storage_id)
        if not path.exists():
            return None
        try:
            state = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            _LOGGER.warning("Could not restore %s: %s", path, err)
            raise ValueError(str(path)) from err
        if not isinstance(state, dict):
            raise ValueError(str(path))
        return state

    def _owner(self, conversation_id: str) -> tuple[str, str] | None:
        """The (profile, realm) owning the plain conversation id (live or saved), ("", "") for an unreadable
        file, or None."""
        for (_, profile, realm), session in self._sessions.items():
            if session.storage_id == conversation_id:
                return profile, realm
        try:
            state = self._load(conversation_id)
        except ValueError:
            return "", ""  # taken by a file we cannot read: never overwrite it
        if state is None:
            return None
        return str(state.get("profile")), str(state.get("realm", UNMARKED_REALM))

    def _storage_id(self, conversation_id: str, profile: str, realm: str) -> str:
        """Where the (conversation, profile, realm) lives: the plain id for its owner (or a new conversation),
        a derived id for every other."""
        owner = self._owner(conversation_id)
        if owner is None or owner == (profile, realm):
            return conversation_id
        return f"{conversation_id}\x00{profile}" + ("" if realm == UNMARKED_REALM else f"\x00{realm}")

    def get(
        self, conversation_id: str, profile: Profile, channel: str = LOCAL_CHANNEL, language: str | None = None
    ) -> Session:
        """Return the session of ``conversation_id`` under ``profile`` for ``channel``'s realm (restored from
        disk if saved), creating it if new. A session of another profile or realm is never touched.

        Raises AgentError("busy") for a new conversation (nothing saved, no folder yet) while the sandbox's disk
        has no room for its folder: all folders together at their cap (``--sandbox-disk-mb``) or less than
        ``sandbox.FREE_RESERVE_MB`` free; its sentence is in ``language`` (None: English). No folder is made
        then; conversations that exist are not affected."""
        realm = realm_of(channel)
        with self._lock:
            self._expire()
            key = (conversation_id, profile.name, realm)
            session = self._sessions.get(key)
            if session is not None:
                return session
            storage_id = self._storage_id(conversation_id, profile.name, realm)
            try:
                state = self._load(storage_id)
            except ValueError:
                state = None  # unreadable: start afresh (save() replaces it)
            if state is not None and (
                state.get("profile") != profile.name
                or state.get("conversation_id") != conversation_id
                or state.get("realm", UNMARKED_REALM) != realm
            ):
                state = None  # another realm's file under a derived id of the old scheme, or a hash collision
            if state is None and not self.workdir(storage_id).exists():
                self._refuse_without_room(conversation_id, language)
            session = Session(
                conversation_id,
                profile,
                self.sandbox_root,
                self.audit,
                self._factory,
                state,
                self.home,
                self.user,
                storage_id=storage_id,
                realm=realm,
            )
            self._sessions[key] = session
            return session

    def _refuse_without_room(self, conversation_id: str, language: str | None) -> None:
        """Raise AgentError("busy") when the sandbox's disk has no room for a new conversation's folder."""
        no_room = room_for_new(self.sandbox_root, Limits().files)
        if no_room is None:
            return
        if no_room.full:
            message = i18n.t(language, "disk.new_full")
        else:
            message = i18n.t(language, "disk.new_over_cap", used=no_room.used_mb, cap=no_room.cap_mb)
        _LOGGER.warning("New conversation %s refused: %s", conversation_id, message)
        raise AgentError("busy", message)

    def save(self, session: Session) -> bool:
        """Write the session's state atomically (not for a session that was reset meanwhile).

        Returns False (and logs why) when it could not be written; the session then stays in memory.
        """
        if session.deleted:
            return True
        path = self._file(session.storage_id)
        # One writer at a time: the server's stop saves every conversation while a turn that just ended saves
        # its own, from another thread; both wrote the same .tmp (one published the other's half-written file,
        # the other's rename failed). The reserve is one file too.
        with self._save_lock:
            try:  # ASCII JSON: lone surrogates are escaped, never a reason to lose the conversation
                data = json.dumps(session.state(), ensure_ascii=True, default=str).encode("ascii")
                self._write(path, data)
            except (OSError, TypeError, ValueError, RuntimeError) as err:
                _LOGGER.error("Could not save conversation %s: %s", session.conversation_id, err)
                self._unsaved.add(session.storage_id)
                return False
        self._unsaved.discard(session.storage_id)
        self._saves += 1
        if self._saves % PRUNE_EVERY == 0:
            try:
                self.prune()
            except OSError as err:
                _LOGGER.warning("Could not apply session retention: %s", err)
        return True

    def _write(self, path: Path, data: bytes) -> None:
        """Replace ``path`` with ``data`` atomically and durably (fsynced), written into the reserve when there is
        one (see :data:`SAVE_RESERVE_BYTES`); the next reserve is allocated afterwards. Raises OSError (the
        reserve, if taken, is put back)."""
        tmp = path.with_suffix(".tmp")
        reserve = self.folder / RESERVE_NAME
        try:
            os.rename(reserve, tmp)  # its blocks come along; fails when tmp is in the way (a folder)
            reserved = True
        except FileNotFoundError:
            reserved = False  # none (the disk could not give one): a plain write
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC | (0 if reserved else os.O_TRUNC), 0o600)
            try:
                view = memoryview(data)
                done = 0
                while done < len(data):
                    done += os.pwrite(fd, view[done:], done)
                os.ftruncate(fd, len(data))  # the reserve's tail goes back to the disk
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                if reserved:
                    os.rename(tmp, reserve)
                else:
                    tmp.unlink(missing_ok=True)
            raise
        finally:
            self._reserve()

    def _reserve(self) -> None:
        """Keep :data:`SAVE_RESERVE_BYTES` allocated for the next save, or as much of it as the disk gives (at
        least 64 KiB). Never raises: a save without a reserve writes as before."""
        try:
            fd = os.open(self.folder / RESERVE_NAME, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError:
            return
        try:
            if os.fstat(fd).st_blocks * 512 >= SAVE_RESERVE_BYTES:
                return
            sizes = [SAVE_RESERVE_BYTES]
            with contextlib.suppress(OSError):  # short of it: what the disk has left (this file's blocks too)
                st = os.statvfs(self.folder)
                sizes.append(min(SAVE_RESERVE_BYTES, st.f_bavail * st.f_frsize + os.fstat(fd).st_blocks * 512))
            while sizes[-1] >= _MIN_RESERVE * 4:
                sizes.append(sizes[-1] // 4)
            for size in sizes:
                if size < _MIN_RESERVE:
                    continue
                try:
                    os.posix_fallocate(fd, 0, size)
                    return
                except OSError as err:
                    if err.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
                        return
        finally:
            os.close(fd)

    def shutdown(self) -> int:
        """Stop every running turn and save every conversation held in memory. Returns how many were saved."""
        with self._lock:
            sessions = list(self._sessions.values())
        for session in sessions:
            session.stop()
        return sum(1 for session in sessions if (session.turns or session.pending) and self.save(session))

    def prune(self, now: float | None = None) -> int:
        """Apply the retention (see the class docstring). Returns how many conversations were deleted."""
        if not self._prune_lock.acquire(blocking=False):
            return 0
        try:
            return self._prune(time.time() if now is None else now)
        finally:
            self._prune_lock.release()

    def _prune(self, now: float) -> int:
        with self._lock:
            live = {safe_name(s.storage_id) for s in self._sessions.values()}
        saved: list[tuple[float, Path]] = []
        for path in self.folder.glob("*.json"):
            with contextlib.suppress(OSError):
                saved.append((path.stat().st_mtime, path))
        saved.sort(reverse=True)  # newest first
        doomed: list[str] = []
        for index, (mtime, path) in enumerate(saved):
            if path.stem in live:
                continue
            too_old = self.max_age_days > 0 and now - mtime > self.max_age_days * 86_400
            too_many = self.max_count > 0 and index >= self.max_count
            if too_old or too_many:
                doomed.append(path.stem)
        for name in doomed:
            (self.folder / f"{name}.json").unlink(missing_ok=True)
            remove_tree(self.sandbox_root / name)
        known = {path.stem for _, path in saved}
        orphans = 0
        if self.sandbox_root.is_dir():
            for folder in self.sandbox_root.iterdir():
                if folder.name in known or folder.name in live or not folder.is_dir():
                    continue
                with contextlib.suppress(OSError):
                    if now - folder.stat().st_mtime > ORPHAN_SECONDS:
                        remove_tree(folder)
                        orphans += 1
        if doomed or orphans:
            _LOGGER.info(
                "Session retention: deleted %d conversations and %d orphan sandbox folders", len(doomed), orphans
            )
        return len(doomed)

    def find(self, conversation_id: str, profile: str | None = None, realm: str | None = None) -> dict[str, Any] | None:
        """Return the saved or live state of a conversation (its owner's, or ``profile``'s), or None. Without
        ``realm``: the owner's realm for the owner's profile, else the first realm (HTTP first) where
        ``profile`` has one.

        The state has ``storage_id`` (see :meth:`workdir`)."""
        with self._lock:
            owner = self._owner(conversation_id)
        if profile is None:
            if not owner or not owner[0]:
                return None
            profile = owner[0]
        if realm is not None:
            realms: tuple[str, ...] = (realm,)
        elif owner and owner[0] == profile:
            realms = (owner[1],)
        else:
            realms = REALMS
        for candidate in realms:
            state = self._find_in(conversation_id, profile, candidate)
            if state is not None:
                return state
        return None

    def _find_in(self, conversation_id: str, profile: str, realm: str) -> dict[str, Any] | None:
        with self._lock:
            session = self._sessions.get((conversation_id, profile, realm))
            storage_id = self._storage_id(conversation_id, profile, realm)
        if session is not None:
            return session.state()
        try:
            state = self._load(storage_id)
        except ValueError:
            return None
        if state is None or state.get("profile") != profile or state.get("realm", UNMARKED_REALM) != realm:
            return None
        state.setdefault("storage_id", storage_id)
        return state

    def workdir(self, storage_id: str) -> Path:
        """The working folder of a stored conversation (not created)."""
        return self.sandbox_root / safe_name(storage_id)

    def cancel(self, conversation_id: str) -> bool:
        """Ask the running turns of a conversation (any profile) to stop. Returns whether one was live."""
        with self._lock:
            live = [s for (cid, _, _), s in self._sessions.items() if cid == conversation_id and s.active]
        for session in live:
            session.stop()
        return bool(live)

    def reset(self, conversation_id: str, profiles: Iterable[str] = ()) -> bool:
        """Forget a conversation under every profile and realm (memory, disk, working folders). ``profiles``
        names the profiles whose separate sessions of this id may be on disk. Returns whether anything existed."""
        with self._lock:
            dropped = [self._sessions.pop(k) for k in [k for k in self._sessions if k[0] == conversation_id]]
        storage_ids = {conversation_id, *(s.storage_id for s in dropped)}
        for name in profiles:
            storage_ids.add(f"{conversation_id}\x00{name}")
            storage_ids.update(f"{conversation_id}\x00{name}\x00{realm}" for realm in REALMS)
        existed = bool(dropped)
        for session in dropped:
            session.deleted = True
            session.stop()
        for storage_id in storage_ids:
            path = self._file(storage_id)
            existed = existed or path.exists()
            path.unlink(missing_ok=True)
            remove_tree(self.workdir(storage_id))
        return existed

    def _expire(self) -> None:
        """Drop idle sessions from memory (their state stays on disk)."""
        now = time.monotonic()
        for key in [
            k
            for k, s in self._sessions.items()
            if now - s.last_used > self.idle_seconds and not s.lock.locked() and s.storage_id not in self._unsaved
        ]:
            del self._sessions[key]
