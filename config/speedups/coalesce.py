"""One database read for a crowd of sockets connecting at once.

Each socket needs the same two reads on connect: its screen (or tournament) and the
clock state. Channels runs every database call of a process on one thread, each on a
fresh connection, so a thousand screens reconnecting after a restart queued two
thousand reads one behind the other, seconds for the room.

`Coalesce` shares a read between the sockets that asked for the same key while the
previous read of that key was running. A socket is never given a result read before
it asked: a read starts only once every socket it serves is waiting for it, so a socket
that joined its groups and then asked for the state cannot get a state older than its
membership (no push is lost between the two). At most one read per key runs at a time;
the next one collects everyone who arrives meanwhile.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from typing import Any


class Coalesce:
    """Share reads by key on one event loop (one instance per loop)."""

    def __init__(self) -> None:
        self.pending: dict[Hashable, asyncio.Future[Any]] = {}
        self.running: dict[Hashable, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def __call__(self, key: Hashable, load: Callable[[], Awaitable[Any]]) -> Any:
        future = self.pending.get(key)
        if future is None:
            loop = asyncio.get_running_loop()
            future = self.pending[key] = loop.create_future()
            task = loop.create_task(self._run(key, future, load))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        # Shielded: a socket that goes away does not cancel the others' read.
        return await asyncio.shield(future)

    async def _run(
        self, key: Hashable, future: asyncio.Future[Any], load: Callable[[], Awaitable[Any]]
    ) -> None:
        before = self.running.get(key)
        if before is not None:
            await asyncio.wait([before])
        # From here on the read serves only those who asked before it started.
        if self.pending.get(key) is future:
            del self.pending[key]
        current = asyncio.current_task()
        assert current is not None
        self.running[key] = current
        try:
            result = await load()
        except Exception as exc:  # noqa: BLE001 - every socket waiting gets the error
            if not future.done():
                future.set_exception(exc)
            future.exception()  # read here too: nobody may be waiting any more
        else:
            if not future.done():
                future.set_result(result)
        finally:
            if self.running.get(key) is current:
                del self.running[key]


_coalescers: dict[asyncio.AbstractEventLoop, Coalesce] = {}


def coalescer() -> Coalesce:
    """This event loop's coalescer."""
    loop = asyncio.get_running_loop()
    found = _coalescers.get(loop)
    if found is None:
        for closed in [old for old in _coalescers if old.is_closed()]:
            del _coalescers[closed]
        found = _coalescers[loop] = Coalesce()
    return found
