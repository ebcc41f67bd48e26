"""Refuse clients whose socket belongs to generated code: the operating system's view is the boundary.

Every listener o1 owns asks, for each new client, which uid owns the client's socket (sock_diag, else
``/proc/net/tcp``, for a TCP peer on this host; ``SO_PEERCRED`` for a unix socket) and refuses a sandbox uid or
an owner it cannot prove; peers on other hosts are allowed without a lookup. It cannot tell blocks apart on a
server that is not root, and does not guard the embedded llama.cpp server's listener. See docs/protocols.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import functools
import ipaddress
import logging
import os
import socket
import struct
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
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
SockAddr = tuple[Any, ...]
"""A socket address as ``getpeername``/``getsockname`` give it: ``(host, port)``, or
``(host, port, flowinfo, scope_id)`` for IPv6."""

_LOOKUPS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="o1-peer")
"""The table reads' own threads (one read at a time per guard): in the loop's default executor a new client
waited behind conversations being loaded and saved."""


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
    return b"".join(b"%08X" % struct.unpack("=I", packed[i : i + 4])[0] for i in range(0, len(packed), 4))


_RTM_GETROUTE, _RTM_NEWROUTE, _RTN_LOCAL, _RTA_DST, _RTA_OIF = 26, 24, 2, 1, 4


def _route_is_local(addr: Address, scope_id: int = 0) -> bool | None:
    """Whether the kernel's route to ``addr`` is of type ``local`` (an ``RTM_GETROUTE`` request, rtnetlink(7),
    what ``ip route get`` shows); None when rtnetlink does not answer."""
    family = socket.AF_INET if addr.version == 4 else socket.AF_INET6
    packed = addr.packed
    attrs = struct.pack("=HH", 4 + len(packed), _RTA_DST) + packed  # 4 or 16 bytes: aligned already
    if scope_id:
        attrs += struct.pack("=HHI", 8, _RTA_OIF, scope_id)
    # rtmsg: family, dst_len, src_len, tos, table, protocol, scope, type, flags
    body = struct.pack("=BBBBBBBBI", family, len(packed) * 8, 0, 0, 0, 0, 0, 0, 0) + attrs
    try:
        with socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE) as rtnl:
            rtnl.settimeout(1.0)
            rtnl.send(struct.pack("=IHHII", 16 + len(body), _RTM_GETROUTE, 1, 1, 0) + body)  # NLM_F_REQUEST
            data = rtnl.recv(65536)
    except OSError:
        return None
    if len(data) < 16 + 12:
        return None
    kind = struct.unpack_from("=H", data, 4)[0]
    if kind == 2:  # NLMSG_ERROR: no route (unreachable, ...): not ours
        return False
    return data[16 + 7] == _RTN_LOCAL if kind == _RTM_NEWROUTE else None


def is_local_address(addr: Address, scope_id: int = 0) -> bool:
    """True when ``addr`` is this host's own (in this network namespace): a loopback address, or one the kernel
    routes to itself (its route is of type ``local``, as ``ip route get`` shows; where rtnetlink does not answer,
    a UDP socket "connected" to it picks it as its own source; nothing is sent). The source a socket picks is
    not enough alone: for a secondary address (a second one in the same subnet, a virtual IP) or an address of a
    local subnet route, the kernel picks the primary address, and a client bound to such an address would have
    passed for another host."""
    if addr.is_loopback:
        return True
    local = _route_is_local(addr, scope_id)
    if local is False and scope_id:
        # A link-local address of another interface of this host: with two interfaces on one link (Ethernet and
        # Wi-Fi on one LAN, a veth pair), a client bound to one's address reaches the other's over the link and
        # arrives with the scope of the listener's interface, where that address's route is not of type local.
        local = _route_is_local(addr)
    if local is not None:
        return local
    family = socket.AF_INET if addr.version == 4 else socket.AF_INET6
    if scope_id:  # the same case without rtnetlink: the address can be bound on one of this host's interfaces
        for index, _name in socket.if_nameindex():
            with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as probe:
                probe.bind((str(addr), 0, 0, index))
                return True
    target: SockAddr = (str(addr), 9) if addr.version == 4 else (str(addr), 9, 0, scope_id)
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect(target)
            return _address(probe.getsockname()[0]) == addr
    except OSError:
        return False


def tcp_peer_uid(
    peer: SockAddr, local: SockAddr, proc_net: Path = PROC_NET, max_bytes: int = MAX_TABLE_BYTES
) -> int | None:
    """The uid owning the peer's end of a TCP connection between two sockets of this host, as the kernel
    reports it: the ``uid`` column of the ``/proc/net/tcp`` or ``tcp6`` row whose local address is ``peer``
    and remote address is ``local`` (``(host, port, ...)`` as ``getpeername``/``getsockname`` give them).

    None when no live socket holds that end (no row, or only an orphaned / TIME_WAIT one, inode 0).
    Raises LookupError when a table is larger than ``max_bytes``.
    """
    return tcp_peer_uids([(peer, local)], proc_net, max_bytes)[0]


def tcp_peer_uids(
    pairs: list[tuple[SockAddr, SockAddr]], proc_net: Path = PROC_NET, max_bytes: int = MAX_TABLE_BYTES
) -> list[int | None]:
    """:func:`tcp_peer_uid` for many ``(peer, local)`` pairs with one read of each table: a burst of new
    clients costs one read, not one each (64 clients connecting at once made 64 reads queue up,
    and a client arriving behind them, ``/api/health`` included, waited up to 0.4 s). Returns the uids in the
    order of ``pairs``. Raises LookupError when a table is larger than ``max_bytes``."""
    wanted: dict[bool, list[tuple[int, bytes]]] = {False: [], True: []}  # v6 table -> (index, row needle)
    for index, (peer, local) in enumerate(pairs):
        peer_addr, local_addr = _address(peer[0]), _address(local[0])
        for v6_table in (False, True):
            peer_hex, local_hex = _proc_hex(peer_addr, v6_table), _proc_hex(local_addr, v6_table)
            if peer_hex is not None and local_hex is not None:
                # A row: "<sl>: <local address>:<port> <remote address>:<port> <st> ..." (net/ipv4/tcp_ipv4.c)
                wanted[v6_table].append((index, b" %s:%04X %s:%04X " % (peer_hex, peer[1], local_hex, local[1])))
    uids: list[int | None] = [None] * len(pairs)
    for name, v6_table in (("tcp", False), ("tcp6", True)):
        needles = [(index, needle) for index, needle in wanted[v6_table] if uids[index] is None]
        if not needles:
            continue
        try:
            with open(proc_net / name, "rb") as table:
                data = table.read(max_bytes + 1)
        except OSError:
            continue
        if len(data) > max_bytes:
            raise LookupError(f"{proc_net / name} is larger than {max_bytes} bytes")
        for index, needle in needles:
            uids[index] = _live_owner(data, needle)
    return uids


def _live_owner(table: bytes, needle: bytes) -> int | None:
    """The uid column of the first row of ``table`` holding ``needle`` whose inode is not 0 (a live socket)."""
    start = table.find(needle)
    while start >= 0:
        line_end = table.find(b"\n", start)
        fields = table[table.rfind(b"\n", 0, start) + 1 : None if line_end < 0 else line_end].split()
        # sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
        if len(fields) > 9 and fields[9] != b"0":
            return int(fields[7])
        start = table.find(needle, start + 1)
    return None


class SockDiag:
    """Exact TCP socket lookups through the kernel's sock_diag netlink interface (``NETLINK_SOCK_DIAG``).

    One ``SOCK_DIAG_BY_FAMILY`` request without ``NLM_F_DUMP`` names one socket by its four addresses; the
    kernel answers with one ``inet_diag_msg`` (its ``idiag_uid`` and ``idiag_inode``) or an ``NLMSG_ERROR``
    (``ENOENT``: no such socket). Layouts from ``include/uapi/linux/inet_diag.h`` and sock_diag(7); the
    request is handled while it is sent (``netlink_unicast`` to a kernel socket runs its handler in the
    sender's context), so the answer is read without waiting. Unlike a read of ``/proc/net/tcp``, whose cost
    grows with every socket of the host (64 clients arriving at once made ``/api/health`` wait up to 0.4 s
    behind their reads), a lookup costs about 0.1 ms whatever the number of sockets.

    :meth:`open` returns None where the kernel cannot answer (no ``inet_diag``/``tcp_diag``, or a seccomp
    profile refusing netlink): callers then read the tables.
    """

    _NETLINK_SOCK_DIAG = 4
    _SOCK_DIAG_BY_FAMILY = 20
    _NLM_F_REQUEST = 1
    _NLMSG_ERROR = 2
    _TCP_LISTEN = 10
    _HEADER = struct.Struct("=IHHII")  # nlmsghdr: len, type, flags, seq, pid
    _REQUEST = struct.Struct("=BBBBI")  # inet_diag_req_v2 before its id: family, protocol, ext, pad, states
    _SOCKID = struct.Struct("!HH16s16s")  # inet_diag_sockid: sport, dport, src, dst (network order) ...
    _SOCKID_TAIL = struct.Struct("=III")  # ... if, cookie[2] (host order)
    _NO_COOKIE = 0xFFFFFFFF  # INET_DIAG_NOCOOKIE
    _UID_INODE = struct.Struct("=II")  # inet_diag_msg's idiag_uid, idiag_inode ...
    _UID_OFFSET = 16 + 4 + 48 + 12  # ... after nlmsghdr, 4 bytes, the sockid and expires/rqueue/wqueue

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self._seq = 0
        self._lock = threading.Lock()

    @classmethod
    def open(cls) -> SockDiag | None:
        """A lookup socket, once it found a connection of its own on 127.0.0.1 (and its inode); else None."""
        try:
            diag = cls(socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, cls._NETLINK_SOCK_DIAG))
        except OSError:
            return None
        try:
            with socket.socket() as server:
                server.bind(("127.0.0.1", 0))
                server.listen(1)
                with socket.create_connection(server.getsockname(), timeout=2) as client:
                    conn, _ = server.accept()
                    with conn:
                        found = diag.find(conn.getpeername(), conn.getsockname())
                        if found == (os.geteuid(), os.fstat(client.fileno()).st_ino):
                            return diag
        except OSError:
            pass
        diag.close()
        return None

    def close(self) -> None:
        self._sock.close()

    def owner(self, peer: SockAddr, local: SockAddr) -> int | None:
        """The uid owning the peer's end of a connection of this host (``peer``, ``local`` as
        ``getpeername``/``getsockname`` give them); None when no live socket holds it (none, or an orphaned /
        TIME_WAIT one, inode 0). Raises OSError when the kernel did not answer."""
        found = self.find(peer, local)
        return None if found is None or found[1] == 0 else found[0]

    def find(self, peer: SockAddr, local: SockAddr) -> tuple[int, int] | None:
        """``(uid, inode)`` of the socket whose local address is ``peer`` and remote address ``local``, or None."""
        peer_addr, local_addr = _address(peer[0]), _address(local[0])
        family = socket.AF_INET6 if peer_addr.version == 6 else socket.AF_INET  # v4-mapped: the kernel maps
        scope = peer[3] if len(peer) >= 4 else 0
        sockid = self._SOCKID.pack(peer[1], local[1], peer_addr.packed, local_addr.packed) + self._SOCKID_TAIL.pack(
            scope, self._NO_COOKIE, self._NO_COOKIE
        )
        body = self._REQUEST.pack(family, socket.IPPROTO_TCP, 0, 0, 0xFFFFFFFF) + sockid  # every TCP state
        with self._lock:
            self._seq = self._seq % 0xFFFFFFFF + 1
            self._sock.send(
                self._HEADER.pack(
                    self._HEADER.size + len(body), self._SOCK_DIAG_BY_FAMILY, self._NLM_F_REQUEST, self._seq, 0
                )
                + body
            )
            while True:  # raises BlockingIOError (an OSError) if the answer is not there
                data = self._sock.recv(8192, socket.MSG_DONTWAIT)
                if len(data) >= self._HEADER.size and self._HEADER.unpack_from(data)[3] == self._seq:
                    break  # an answer to an earlier, abandoned request is skipped
        kind = self._HEADER.unpack_from(data)[1]
        if kind == self._NLMSG_ERROR:
            error = -struct.unpack_from("=i", data, self._HEADER.size)[0]
            if error == errno.ENOENT:
                return None
            raise OSError(error, os.strerror(error))
        if kind != self._SOCK_DIAG_BY_FAMILY or len(data) < self._UID_OFFSET + self._UID_INODE.size:
            raise OSError(errno.EPROTO, "unexpected sock_diag answer")
        state = data[self._HEADER.size + 1]
        sport, dport = struct.unpack_from("!HH", data, self._HEADER.size + 4)
        if state == self._TCP_LISTEN or (sport, dport) != (peer[1], local[1]):
            # Without an established or TIME_WAIT socket of that 4-tuple the kernel's lookup goes on to the
            # listeners (inet_lookup): a listener on the peer's port is no connection, and not the peer's owner.
            return None
        uid, inode = self._UID_INODE.unpack_from(data, self._UID_OFFSET)
        return uid, inode


@functools.cache
def shared_sock_diag() -> SockDiag | None:
    """The process's one sock_diag socket (every listener's guard uses it; lookups are locked), or None where
    the kernel does not answer (then tables are read). Opened, and self-tested, at the first local client."""
    diag = SockDiag.open()
    _LOGGER.debug("Peer lookups: %s", "sock_diag" if diag else "/proc/net/tcp")
    return diag


class PeerGuard:
    """The check every listener of o1 runs on a new client (see the module's description).

    ``listener``: its name in logs and audit records (``wyoming``, ``http``); ``audit``: an object with
    ``record_peer`` (the agent's :class:`~o1_server.agent.audit.AuditLog`) or None; ``also``: uids code runs
    as besides the sandbox range (an explicit sandbox user).
    """

    def __init__(
        self,
        listener: str,
        audit: Any = None,
        also: tuple[int, ...] = (),
        proc_net: Path = PROC_NET,
        sock_diag: bool = True,
    ) -> None:
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
        # Lookups wait here while a table read runs; the next read answers all of them at once.
        self._waiting: list[tuple[SockAddr, SockAddr, asyncio.Future[int | None]]] = []
        self._reader: asyncio.Task[None] | None = None
        self._use_sock_diag = sock_diag and proc_net == PROC_NET  # another table (a test's): read it

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
                _pid, uid, _gid = struct.unpack(
                    "3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
                )
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
            uid = await asyncio.wait_for(self._owner(peer, local), LOOKUP_SECONDS)
        except (LookupError, OSError, TimeoutError, ValueError) as err:
            _LOGGER.warning("Cannot tell who owns the %s client socket %s: %s", self.listener, name, err)
            return Verdict(False, reason="the connecting process could not be identified", peer=name)
        if uid is None:
            return Verdict(
                False, reason="the connecting socket of this host could not be found (closed already?)", peer=name
            )
        return self._by_uid(uid, name)

    async def _owner(self, peer: SockAddr, local: SockAddr) -> int | None:
        diag = shared_sock_diag() if self._use_sock_diag else None
        if diag is not None:
            try:
                uid = diag.owner(peer, local)
            except OSError as err:
                _LOGGER.debug("sock_diag lookup failed (%s); reading the table", err)
            else:
                if uid is not None or not (len(peer) >= 4 and peer[3]):
                    return uid
                # A link-local peer: sock_diag finds a socket bound to an interface only by that interface, and
                # the peer's may be another one than the interface it arrived on (two interfaces of this host on
                # one link). The table does not care.
        return await self._lookup(peer, local)

    def _lookup(self, peer: SockAddr, local: SockAddr) -> asyncio.Future[int | None]:
        """The peer socket's owner, from the next read of the tables (shared by every lookup waiting for it)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int | None] = loop.create_future()
        self._waiting.append((peer, local, future))
        if self._reader is None or self._reader.done() or self._reader.get_loop() is not loop:
            self._reader = loop.create_task(self._read_tables())
        return future

    async def _read_tables(self) -> None:
        loop = asyncio.get_running_loop()
        while self._waiting:
            batch, self._waiting = self._waiting, []
            batch = [item for item in batch if not item[2].done() and item[2].get_loop() is loop]
            if not batch:  # all timed out meanwhile
                continue
            try:
                uids = await loop.run_in_executor(
                    _LOOKUPS, tcp_peer_uids, [(peer, local) for peer, local, _ in batch], self.proc_net
                )
            except Exception as err:  # noqa: BLE001 - every waiting client is refused (check() logs why)
                for _, _, future in batch:
                    if not future.done():
                        future.set_exception(LookupError(str(err) or type(err).__name__))
                continue
            for (_, _, future), uid in zip(batch, uids, strict=True):
                if not future.done():
                    future.set_result(uid)

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
        _LOGGER.warning(
            "Refused a %s connection from %s (socket uid %s): %s%s",
            self.listener,
            verdict.peer,
            "unknown" if verdict.uid is None else verdict.uid,
            verdict.reason,
            also,
        )
        record: Callable[..., None] | None = getattr(self.audit, "record_peer", None)
        if record is not None:
            try:
                record(self.listener, verdict.peer, verdict.uid, verdict.reason, since)
            except Exception as err:  # noqa: BLE001 - the refusal stands whatever the audit log does
                _LOGGER.warning("Could not audit the refused %s connection: %s", self.listener, err)


def warn_if_blind(guard: PeerGuard) -> None:
    """Log once at start-up when local clients cannot be told from code blocks (blocks run as our uid)."""
    if sandbox.code_runs_as_server_uid(guard.also):
        _LOGGER.warning(
            "Code blocks run as the server's own uid (server not root or sandbox uids off): the "
            "listeners cannot tell a network block's connections from local clients"
        )
