"""The per-turn capability: a unix socket in front of a HomeBroker, and the gateway that opens one per turn.

The socket's path is all generated code gets (``O1_HA_SOCKET``); it lives in an unlistable folder, answers only
the server's and the code's uids, and is removed when the turn ends. What a request may do is the broker's
decision (``broker.py``); the line format is ``wire.py``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import socket
import struct
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..sandbox import remove_tree
from .broker import Emit, HomeBroker
from .context import HomeContext
from .guard import Guard
from .relays import Relay, RestRelay, StreamRelay
from .wire import MAX_CONNECTIONS, MAX_LINE, HomeError, encode, failure, parse_request

_LOGGER = logging.getLogger(__name__)


@contextmanager
def unix_address(path: Path) -> Iterator[str]:
    """An address for ``path`` that fits AF_UNIX's 108 bytes: the path itself, or (longer paths, such as
    deep test folders) ``/proc/self/fd/N/<name>`` through an O_PATH descriptor of its folder (Linux)."""
    if len(os.fsencode(path)) < 100:
        yield str(path)
        return
    fd = os.open(path.parent, os.O_PATH)
    try:
        yield f"/proc/self/fd/{fd}/{path.name}"
    finally:
        os.close(fd)


class Capability:
    """The per-turn socket in front of a HomeBroker. ``path`` goes to the code; ``close()`` ends it.

    ``run_dir`` is ``<data_dir>/run``; ``user`` is the (uid, gid) the code runs as (None: the server's).
    Connections from other uids than the server's and the code's are refused (SO_PEERCRED).
    """

    def __init__(self, run_dir: Path, broker: HomeBroker, user: tuple[int, int] | None = None) -> None:
        self.broker = broker
        run_dir.mkdir(parents=True, exist_ok=True)
        run_dir.chmod(0o711)
        self.folder = run_dir / secrets.token_hex(16)
        self.folder.mkdir(mode=0o700)
        self.path = self.folder / "ha.sock"
        self._allowed = {os.getuid(), *([user[0]] if user else [])}
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        with unix_address(self.path) as address:
            self._sock.bind(address)
        self.path.chmod(0o600)
        if user is not None:
            os.chown(self.path, *user)
            os.chown(self.folder, *user)
        self._sock.listen(MAX_CONNECTIONS)
        self._closed = threading.Event()
        self._connections: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._serve, daemon=True, name=f"o1-ha-{self.folder.name[:6]}")
        self._thread.start()

    def _serve(self) -> None:
        while not self._closed.is_set():
            try:
                conn, _ = self._sock.accept()
            except OSError:  # close() shut the socket down
                return
            with self._lock:
                if self._closed.is_set() or len(self._connections) >= MAX_CONNECTIONS or not self._peer_ok(conn):
                    conn.close()
                    continue
                self._connections.add(conn)
            threading.Thread(target=self._client, args=(conn,), daemon=True).start()

    def _peer_ok(self, conn: socket.socket) -> bool:
        try:
            _, uid, _ = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))
        except OSError:
            return False
        return uid in self._allowed

    def _client(self, conn: socket.socket) -> None:
        reader = conn.makefile("rb")
        try:
            while not self._closed.is_set():
                line = reader.readline(MAX_LINE + 1)
                if not line:
                    return
                if len(line) > MAX_LINE:
                    self._send(conn, failure("invalid", "That request is too long."))
                    return
                self._send(conn, self._answer(line))
        except OSError:
            return
        finally:
            with self._lock:
                self._connections.discard(conn)
            reader.close()
            conn.close()

    def _answer(self, line: bytes) -> dict[str, Any]:
        try:
            request = parse_request(line)
        except HomeError as err:
            return failure(err.code, err.message)
        try:
            return {"ok": True, "result": self.broker.handle(request.get("op"), request.get("args", {}))}
        except HomeError as err:
            return failure(err.code, err.message)
        except TypeError:  # wrong or missing arguments for the op
            return failure("invalid", f"Wrong arguments for {request.get('op')}.")

    @staticmethod
    def _send(conn: socket.socket, answer: dict[str, Any]) -> None:
        conn.sendall(encode(answer))

    def close(self) -> None:
        """Stop serving, drop open connections and remove the socket and its folder (idempotent)."""
        if self._closed.is_set():
            return
        self._closed.set()
        # shutdown() wakes the thread blocked in accept() at once (close() alone would not, on Linux), so a turn's
        # end does not wait for the serving thread (see docs/home.md).
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()
        with self._lock:
            for conn in list(self._connections):
                try:
                    conn.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        self._thread.join(2)
        remove_tree(self.folder)  # code that owns the folder may have filled it (the fallback sandbox)


@dataclass
class HomeTurn:
    """What a turn request brought for Home Assistant: the integration's context and, when the caller streams
    and can run tools, its relay."""

    context: HomeContext | None = None
    relay: StreamRelay | None = None


class HomeGateway:
    """Server-wide: opens a Capability for each turn whose profile has Home Assistant access.

    ``direct`` is the server's own HA access (RestRelay) used when the turn brought no relay (Wyoming
    ``handle``, plain ``POST /api/conversation``); ``record`` writes audit entries.
    """

    def __init__(
        self,
        run_dir: Path,
        record: Callable[[str, str, dict[str, Any]], None],
        direct: RestRelay | None = None,
        user: tuple[int, int] | None = None,
    ) -> None:
        self.run_dir = run_dir
        self.direct = direct
        self.user = user
        self._record = record

    def own_context(self, conversation_id: str) -> HomeContext:
        """The home's context for a turn whose request brought none (Wyoming ``handle``, plain
        ``POST /api/conversation``): Home Assistant's own, asked through ``direct`` (blocking HTTP); empty without
        ``direct`` or when that fails (logged with ``conversation_id``)."""
        if self.direct is not None:
            try:
                return self.direct.context()
            except HomeError as err:
                _LOGGER.warning("No Home Assistant context for %s: %s", conversation_id, err.message)
        return HomeContext()

    def open(
        self,
        conversation_id: str,
        profile: str,
        access: str,
        turn: HomeTurn | None,
        emit: Emit | None,
        user: tuple[int, int] | None = None,
        guarded: tuple[str, ...] = (),
    ) -> Capability | None:
        """The turn's capability, or None when the profile has no Home Assistant access.

        ``user`` is the (uid, gid) the conversation's code runs as (default: the gateway's user); ``guarded``
        the profile's own guarded actions (``domain.service`` or entity ids, see ``guard.Guard``)."""
        if access not in ("read", "control"):
            return None
        turn = turn or HomeTurn()
        relay: Relay | None = turn.relay or self.direct
        context = turn.context
        if context is None and turn.relay is None:
            context = self.own_context(conversation_id)
        broker = HomeBroker(
            access,
            context or HomeContext(),
            relay,
            lambda entry: self._record(conversation_id, profile, entry),
            emit,
            guard=Guard(guarded),
        )
        return Capability(self.run_dir, broker, user or self.user)
