"""The seccomp filter every block runs under: system calls that no voice answer needs and that widen the box.

Built once with libseccomp (through its ctypes binding ``pyseccomp``) as a compiled BPF program that bubblewrap
loads for the block (``--seccomp FD``). Denied calls fail with EPERM (``clone3`` with ENOSYS, so the C library
falls back to ``clone``, whose namespace flags are checked); system calls of another architecture (32-bit
``int 0x80`` on x86-64) kill the process, libseccomp's default. What is denied and why: docs/sandbox.md.
"""

from __future__ import annotations

import errno
import functools
import logging
import os
import tempfile
from typing import Any

_LOGGER = logging.getLogger(__package__)

# Namespace flags of clone(2)/unshare(2) (linux/sched.h): a block may not make namespaces of its own.
CLONE_NAMESPACES = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x80
"""CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET and NEWTIME (0x80)."""

DENIED: dict[str, str] = {
    "unshare": "new namespaces (a user namespace gives the block root-like powers over its own mounts)",
    "setns": "joining other namespaces",
    "mount": "mounting",
    "umount2": "unmounting",
    "pivot_root": "changing the root",
    "chroot": "changing the root",
    "move_mount": "mounting (new mount API)",
    "open_tree": "mounting (new mount API)",
    "fsopen": "mounting (new mount API)",
    "fsconfig": "mounting (new mount API)",
    "fsmount": "mounting (new mount API)",
    "fspick": "mounting (new mount API)",
    "mount_setattr": "mounting (new mount API)",
    "ptrace": "tracing other processes",
    "process_vm_readv": "reading other processes' memory",
    "process_vm_writev": "writing other processes' memory",
    "keyctl": "the kernel keyring",
    "add_key": "the kernel keyring",
    "request_key": "the kernel keyring",
    "bpf": "loading BPF programs",
    "perf_event_open": "performance counters (a side channel)",
    "userfaultfd": "user page-fault handling (an exploit primitive)",
    "io_uring_setup": "io_uring (its operations are not seen by seccomp)",
    "io_uring_enter": "io_uring",
    "io_uring_register": "io_uring",
    "kexec_load": "loading a kernel",
    "kexec_file_load": "loading a kernel",
    "init_module": "kernel modules",
    "finit_module": "kernel modules",
    "delete_module": "kernel modules",
    "reboot": "rebooting",
    "swapon": "swap",
    "swapoff": "swap",
    "syslog": "the kernel log",
    "acct": "process accounting",
    "settimeofday": "the clock",
    "clock_settime": "the clock",
    "clock_adjtime": "the clock",
    "iopl": "I/O ports",
    "ioperm": "I/O ports",
    "quotactl": "disk quotas",
    "open_by_handle_at": "opening files by handle (escapes bind mounts)",
    "name_to_handle_at": "file handles",
    "vhangup": "terminals",
}
"""Each denied system call and what it would give a block."""


class SeccompUnavailable(RuntimeError):
    """The filter cannot be built here (no libseccomp, or a binding error); the message says why."""


@functools.cache
def filter_program() -> bytes:
    """The compiled BPF program (bytes, as ``seccomp_export_bpf`` writes it). Raises SeccompUnavailable."""
    try:
        import pyseccomp as seccomp
    except (ImportError, OSError) as err:  # OSError: libseccomp.so.2 missing
        raise SeccompUnavailable(f"libseccomp cannot be loaded ({err})") from err
    try:
        rules: Any = seccomp.SyscallFilter(seccomp.ALLOW)
        for name in DENIED:
            rules.add_rule(seccomp.ERRNO(errno.EPERM), name)
        for flag in _flags(CLONE_NAMESPACES):
            rules.add_rule(seccomp.ERRNO(errno.EPERM), "clone", seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
        # clone3 passes its flags in memory, out of seccomp's sight: refused as "not implemented", so the C
        # library falls back to clone(2), whose flags are checked above.
        rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
        with tempfile.TemporaryFile() as out:
            rules.export_bpf(out)
            out.seek(0)
            return out.read()
    except (OSError, RuntimeError, ValueError, AttributeError) as err:
        raise SeccompUnavailable(f"the seccomp filter could not be built ({err})") from err


def _flags(mask: int) -> list[int]:
    """The single bits of ``mask``."""
    return [1 << bit for bit in range(mask.bit_length()) if mask >> bit & 1]


def program_fd() -> int:
    """A new file descriptor (a memfd, not inheritable) holding :func:`filter_program`, read from its start;
    the caller passes it to bubblewrap and closes it. Raises SeccompUnavailable or OSError."""
    fd = os.memfd_create("o1-seccomp", os.MFD_CLOEXEC)
    try:
        data = memoryview(filter_program())
        while data:
            data = data[os.write(fd, data) :]
        os.lseek(fd, 0, os.SEEK_SET)
    except BaseException:
        os.close(fd)
        raise
    return fd
