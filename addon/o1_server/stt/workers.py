"""Serial background workers shared by all connections (whisper decoding, voice activity, piper synthesis).

One thread per worker, jobs first come first served, a bounded queue (:class:`BusyError` when full).
Nothing here knows about audio.
"""

from __future__ import annotations

import collections
import concurrent.futures
import threading
from collections.abc import Callable
from typing import Any, TypeVar

_T = TypeVar("_T")

DEFAULT_MAX_PENDING = 64
"""Jobs a shared worker queues before refusing new ones (see :class:`BusyError`)."""


class BusyError(RuntimeError):
    """A shared worker's queue is full; the request is refused rather than queued without bound."""


class SerialWorker:
    """One background thread running submitted jobs one at a time, first come first served.

    Used for work that must not run on the event loop and gains nothing from running side by side on a
    small CPU (whisper decoding, piper synthesis, voice activity detection). FIFO order means no client
    starves; the queue is bounded (``max_pending``) so a flood of requests is refused instead of piling up.
    Jobs return ``concurrent.futures.Future`` objects, so they can be awaited from any event loop
    (``asyncio.wrap_future``) and cancelled while still queued.
    """

    def __init__(self, name: str, max_pending: int = DEFAULT_MAX_PENDING) -> None:
        self.name = name
        self.max_pending = max_pending
        self._queue: collections.deque[tuple[concurrent.futures.Future[Any], Callable[..., Any], tuple[Any, ...]]] = (
            collections.deque()
        )
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._busy = False
        self._closed = False

    @property
    def pending(self) -> int:
        """Jobs waiting (not counting the one running)."""
        return len(self._queue)

    @property
    def idle(self) -> bool:
        """True when nothing is running or waiting."""
        return not self._busy and not self._queue

    def submit(self, fn: Callable[..., _T], *args: Any, force: bool = False) -> concurrent.futures.Future[_T]:
        """Queue ``fn(*args)``.

        Args:
            force: queue even when the queue is full (for work that was already accepted, e.g. the last
                step of a request whose earlier steps are queued).

        Raises:
            BusyError: the queue holds ``max_pending`` jobs already.
        """
        future: concurrent.futures.Future[_T] = concurrent.futures.Future()
        with self._cond:
            if self._closed:
                raise BusyError(f"{self.name} is stopping")
            if not force and len(self._queue) >= self.max_pending:
                raise BusyError(f"{self.name} is busy ({len(self._queue)} jobs waiting); try again later")
            self._queue.append((future, fn, args))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                self._thread.start()
            self._cond.notify()
        return future

    def close(self, timeout: float = 5.0) -> bool:
        """Cancel the jobs waiting and wait up to ``timeout`` s for the running one to end (the thread then ends).
        Called before the process exits: a daemon thread still inside native inference (onnxruntime) when the
        interpreter finalizes aborted the process ("terminate called without an active exception", exit
        status -6 instead of 0). Returns False when the running job outlasted ``timeout``."""
        with self._cond:
            self._closed = True
            queued, self._queue = list(self._queue), collections.deque()
            self._cond.notify_all()
            thread = self._thread
        for future, _fn, _args in queued:
            future.cancel()
        if thread is None:
            return True
        thread.join(timeout)
        return not thread.is_alive()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._queue:
                    self._busy = False
                    if self._closed:
                        return
                    self._cond.wait()
                future, fn, args = self._queue.popleft()
                self._busy = True
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = fn(*args)
            except BaseException as err:  # noqa: BLE001 - handed to whoever awaits the future
                future.set_exception(err)
            else:
                future.set_result(result)
