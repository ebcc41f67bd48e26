"""Refuse clients whose socket belongs to generated code: the operating system's view is the boundary.

A code block the policy allowed as ``network`` (or the user confirmed) shares the host's network namespace, so
it can connect to o1's own listeners on 127.0.0.1 (or on any address of the host). Each block runs as a
sandbox uid (``agent.sandbox``: one uid per conversation from the configured range, or an explicit sandbox
user), and the kernel records who owns every socket. So every listener o1 owns asks, for each new client:

- **TCP, peer on this host** (a loopback address, or an address the kernel routes to itself, i.e. one of the
  host's own addresses): the row of ``/proc/net/tcp`` / ``/proc/net/tcp6`` whose local address is the
  peer's address:port and whose remote address is our address:port is the peer's socket; its ``uid`` column
  is the socket's owner. A sandbox uid is refused. A local peer whose socket is not found alive (closed
  already, orphaned or in TIME_WAIT, where the kernel shows uid 0 and inode 0), or a table over
  :data:`MAX_TABLE_BYTES`, or a lookup slower than :data:`LOOKUP_SECONDS` is refused too: an owner that
  cannot be proven is not trusted.
- **TCP, peer on another host**: allowed without a lookup (a block with network reaches other hosts anyway;
  its connections to this host's addresses come from this host and are checked above).
- **unix socket**: ``SO_PEERCRED`` gives the peer's uid directly.

The lookup reads the kernel's table in a worker thread (never on the event loop) and only for local peers.
A refusal is answered in the listener's own error shape (Wyoming ``error`` event / HTTP 403 JSON), both with
code :data:`CODE`, logged once (then at most once a minute per uid, with a count) and written to the audit log
(``kind: "peer"``) at the same pace.

Not covered: a server that is not root runs every block as its own uid (no owner tells them apart; logged
at start-up); the embedded llama.cpp server is a separate process with its own listener.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import os
import socket
import struct
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .agent import sandbox

_LOGGER = logging.getLogger(__name__)

CODE = "sandbox_peer"
"""Error code of a refused connection (Wyoming ``error`` event ``code``, HTTP JSON ``error``)."""
PROC_NET = Path("/proc/net")
MAX_TABLE_BYTES = 8 << 20
"""Most bytes of one ``/proc/net/tcp*`` table read per lookup (about 50,000 sockets)."""
LOOKUP_SECONDS = 2.0
"""Longest wait for the table lookup; a slower one refuses the connection."""
REPORT_SECONDS = 60.0
"""Refusals of one uid on one listener are logged and audited at most once in this many seconds."""

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


@dataclass(frozen=True)
class Verdict:
    """Whether a client may talk to a listener. ``uid``: the peer socket's owner when known; ``reason``: the
    sentence a refused client gets; ``peer``: ``host:port`` (or ``local`` for a unix socket)."""

    allowed: bool
    uid: int | None = None
    reason: str = ""
    peer: str = ""


def _address(host: str) -> Address:
    """An IP address with any ``%scope`` dropped; an IPv4-mapped IPv6 address as the IPv4 address."""
    addr = ipaddress.ip_address(host.split("%", 1)[0])
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        return addr.ipv4_mapped
    return addr


def _proc_hex(addr: Address, v6_table: bool) -> bytes | None:
    """``addr`` as ``/proc/net/tcp`` (IPv4) or ``tcp6`` prints it: each 32-bit word of the address in the
    host's byte order, as 8 hex digits. None when the table cannot hold it (IPv6 in the IPv4 table)."""
    if v6_table:
        packed = (ipaddress.IPv6Address(b"\0" * 10 + b"\xff\xff" + addr.packed) if addr.version == 4 else addr).packed
    elif addr.version == 4:
        packed = addr.packed
    else:
        return None
    return b"".join(b"%08X" % struct.unpack("=I", packed[i:i + 4]) for i in range(0, len(packed), 4))


def is_local_address(addr: Address, scope_id: int = 0) -> bool:
    """True when ``addr`` is this host's own (in this network namespace): a loopback address, or one the kernel
    routes to itself (a UDP socket "connected" to it picks it as its own source; nothing is sent)."""
    if addr.is_loopback:
        return True
    family = socket.AF_INET if addr.version == 4 else socket.AF_INET6
    target: tuple = (str(addr), 9) if addr.version == 4 else (str(addr), 9, 0, scope_id)
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect(target)
            return _address(probe.getsockname()[0]) == addr
    except OSError:
        return False


def tcp_peer_uid(peer: tuple, local: tuple, proc_net: Path = PROC_NET,
                 max_bytes: int = MAX_TABLE_BYTES) -> int | None:
    """The uid owning the peer's end of a TCP connection between two sockets of this host, as the kernel
    reports it: the ``uid`` column of the ``/proc/net/tcp`` or ``tcp6`` row whose local address is ``peer``
    and remote address is ``local`` (``(host, port, ...)`` as ``getpeername``/``getsockname`` give them).

    None when no live socket holds that end (no row, or only an orphaned / TIME_WAIT one, inode 0).
    Raises LookupError when a table is larger than ``max_bytes`` before the row was found.
    """
    peer_addr, local_addr = _address(peer[0]), _address(local[0])
    for name, v6_table in (("tcp", False), ("tcp6", True)):
        peer_hex, local_hex = _proc_hex(peer_addr, v6_table), _proc_hex(local_addr, v6_table)
        if peer_hex is None or local_hex is None:
            continue
        want_local = b"%s:%04X" % (peer_hex, peer[1])
        want_remote = b"%s:%04X" % (local_hex, local[1])
        try:
            table = open(proc_net / name, "rb")  # noqa: SIM115 - closed below
        except OSError:
            continue
        with table:
            seen = 0
            for line in table:
                seen += len(line)
                if seen > max_bytes:
                    raise LookupError(f"{proc_net / name} is larger than {max_bytes} bytes")
                if want_local not in line:
                    continue
                fields = line.split()
                # sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
                if len(fields) > 9 and fields[1] == want_local and fields[2] == want_remote:
                    return None if fields[9] == b"0" else int(fields[7])
    return None


class PeerGuard:
    """The check every listener of o1 runs on a new client (see the module's description).

    ``listener``: its name in logs and audit records (``wyoming``, ``http``); ``audit``: an object with
    ``record_peer`` (the agent's :class:`~o1_server.agent.audit.AuditLog`) or None; ``also``: uids code runs
    as besides the sandbox range (an explicit sandbox user).
    """

    def __init__(self, listener: str, audit: Any = None, also: tuple[int, ...] = (),
                 proc_net: Path = PROC_NET) -> None:
        self.listener = listener
        self.audit = audit
        self.also = tuple(also)
        self.proc_net = proc_net
        self.refused = 0
        """Connections refused so far."""
        self._reported: dict[int | None, tuple[float, int]] = {}  # uid -> (last report, refusals since)
        self._lock = threading.Lock()
        # A connection's owner cannot change: an allowed one is not looked up again for each of its requests
        # (HTTP keep-alive), which spares a probe socket and a /proc/net/tcp read per request.
        self._allowed: weakref.WeakKeyDictionary[Any, Verdict] = weakref.WeakKeyDictionary()

    @classmethod
    def for_agent(cls, listener: str, agent: Any) -> PeerGuard:
        """The guard of a listener serving ``agent``: audits to its audit log, knows its explicit sandbox user
        (unless that is the server's own uid, which would refuse every local client)."""
        user = getattr(agent, "code_user", None)
        also = (user[0],) if user is not None and user[0] != os.geteuid() else ()
        return cls(listener, getattr(agent, "audit", None), also)

    def _is_sandbox(self, uid: int) -> bool:
        return sandbox.is_sandbox_uid(uid, self.also)

    async def check(self, transport: Any) -> Verdict:
        """Judge the client of ``transport`` (an asyncio transport or StreamWriter: anything with
        ``get_extra_info``). Never raises; a refusal is reported (log, audit) before it is returned. An allowed
        transport is judged once (its verdict is kept while the transport lives)."""
        try:
            return self._allowed[transport]
        except (KeyError, TypeError):  # not seen yet, or not weak-referenceable: judge it
            pass
        verdict = await self._judge(transport)
        if verdict.allowed:
            with contextlib.suppress(TypeError):
                self._allowed[transport] = verdict
        else:
            self.refused += 1
            await asyncio.to_thread(self._report, verdict)  # the audit record is fsynced
        return verdict

    async def _judge(self, transport: Any) -> Verdict:
        try:
            peer = transport.get_extra_info("peername")
            local = transport.get_extra_info("sockname")
            sock = transport.get_extra_info("socket")
        except Exception:  # noqa: BLE001 - a transport already closed: nothing to serve
            return Verdict(False, reason="the connection could not be identified", peer="?")
        family = getattr(sock, "family", None)
        if family == socket.AF_UNIX:
            try:
                _pid, uid, _gid = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                                                                      struct.calcsize("3i")))
            except (OSError, struct.error):
                return Verdict(False, reason="the connecting process could not be identified", peer="local")
            return self._by_uid(uid, "local")
        if not (isinstance(peer, tuple) and len(peer) >= 2 and isinstance(local, tuple) and len(local) >= 2):
            return Verdict(False, reason="the connection could not be identified", peer=str(peer))
        name = f"{peer[0]}:{peer[1]}"
        try:
            addr = _address(peer[0])
        except ValueError:
            return Verdict(False, reason="the connection could not be identified", peer=name)
        scope = peer[3] if len(peer) >= 4 else 0
        if not is_local_address(addr, scope):
            return Verdict(True, peer=name)  # another host
        try:
            uid = await asyncio.wait_for(asyncio.to_thread(tcp_peer_uid, peer, local, self.proc_net),
                                         LOOKUP_SECONDS)
        except (LookupError, OSError, TimeoutError, ValueError) as err:
            _LOGGER.warning("Cannot tell who owns the %s client socket %s: %s", self.listener, name, err)
            return Verdict(False, reason="the connecting process could not be identified", peer=name)
        if uid is None:
            return Verdict(False, reason="the connecting socket of this host could not be found (closed already?)",
                           peer=name)
        return self._by_uid(uid, name)

    def _by_uid(self, uid: int, name: str) -> Verdict:
        if self._is_sandbox(uid):
            return Verdict(False, uid, "connections from generated code (a sandbox uid) are refused", name)
        return Verdict(True, uid, peer=name)

    def _report(self, verdict: Verdict) -> None:
        """Log and audit a refusal: the first of a uid at once, then at most every REPORT_SECONDS with a count."""
        now = time.monotonic()
        with self._lock:
            last, since = self._reported.get(verdict.uid, (-REPORT_SECONDS, 0))
            if now - last < REPORT_SECONDS:
                self._reported[verdict.uid] = (last, since + 1)
                return
            if len(self._reported) > 1024:
                self._reported.clear()
            self._reported[verdict.uid] = (now, 0)
        also = f" ({since} more refused since the last report)" if since else ""
        _LOGGER.warning("Refused a %s connection from %s (socket uid %s): %s%s", self.listener, verdict.peer,
                        "unknown" if verdict.uid is None else verdict.uid, verdict.reason, also)
        record: Callable[..., None] | None = getattr(self.audit, "record_peer", None)
        if record is not None:
            try:
                record(self.listener, verdict.peer, verdict.uid, verdict.reason, since)
            except Exception as err:  # noqa: BLE001 - the refusal stands whatever the audit log does
                _LOGGER.warning("Could not audit the refused %s connection: %s", self.listener, err)


def warn_if_blind(guard: PeerGuard) -> None:
    """Log once at start-up when local clients cannot be told from code blocks (blocks run as our uid)."""
    if sandbox.code_runs_as_server_uid(guard.also):
        _LOGGER.warning("Code blocks run as the server's own uid (server not root or sandbox uids off): the "
                        "listeners cannot tell a network block's connections from local clients")
