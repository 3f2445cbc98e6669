"""Who is waiting to hear that a match changed: the wake-up calls behind the live streams.

A live stream (:mod:`ginrummy.web.live`) watches one match. Whoever learns that
the match changed (a move committed, a seat taken, a player's stream opened or
closed) calls :meth:`Changes.publish` with the match id, from any thread, and
every stream watching that match wakes up, reads the match and sends what is
new. A wake-up says only *which* match changed, never what changed: the
database stays the one authority, so a wake-up lost or doubled costs nothing
but a read.

On SQLite (one process) storage publishes after each commit. On PostgreSQL the
commit itself sends ``NOTIFY`` and each process's listener
(:class:`ginrummy.web.storage.MatchStore`) publishes what it hears, so a move
committed in any process wakes the streams of every process.

>>> import asyncio
>>> async def demo() -> bool:
...     changes = Changes()
...     with changes.watch("m1") as waiter:
...         changes.publish("m2")
...         other = await waiter.wait(0.01)
...         changes.publish("m1")
...         return (other, await waiter.wait(1.0)) == (False, True)
>>> asyncio.run(demo())
True
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["Changes", "Waiter"]


class Waiter:
    """One stream's wake-up: set from any thread, awaited on the stream's event loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._event = asyncio.Event()

    def wake(self) -> None:
        """Wake the stream (thread-safe; a wake-up while awake is kept for its next wait)."""
        with contextlib.suppress(RuntimeError):  # a closed loop: the stream is gone
            self._loop.call_soon_threadsafe(self._event.set)

    async def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for a wake-up; whether one came."""
        try:
            await asyncio.wait_for(self._event.wait(), timeout)
        except TimeoutError:
            return False
        self._event.clear()
        return True


class Changes:
    """The streams watching each match, by match id (thread-safe)."""

    def __init__(self) -> None:
        self._watching: dict[str, set[Waiter]] = {}
        self._lock = threading.Lock()

    def publish(self, match_id: str) -> None:
        """Wake every stream watching ``match_id``."""
        with self._lock:
            waiters = list(self._watching.get(match_id, ()))
        for waiter in waiters:
            waiter.wake()

    def publish_all(self) -> None:
        """Wake every stream (after wake-ups may have been lost: a listener reconnected)."""
        with self._lock:
            waiters = [w for ws in self._watching.values() for w in ws]
        for waiter in waiters:
            waiter.wake()

    @property
    def watched(self) -> int:
        """How many streams are watching, in this process."""
        with self._lock:
            return sum(len(ws) for ws in self._watching.values())

    @contextmanager
    def watch(self, match_id: str) -> Iterator[Waiter]:
        """Watch ``match_id`` while in the block (call on the stream's event loop)."""
        waiter = Waiter(asyncio.get_running_loop())
        with self._lock:
            self._watching.setdefault(match_id, set()).add(waiter)
        try:
            yield waiter
        finally:
            with self._lock:
                left = self._watching.get(match_id)
                if left is not None:
                    left.discard(waiter)
                    if not left:
                        del self._watching[match_id]
