"""Keep screens honest when the channel layer's Redis fails or restarts.

Redis keeps nothing on disk: after a restart the groups (who listens to which tournament)
are gone, and a socket whose process reconnected to Redis on its own would sit there
receiving nothing, its screen silently frozen on an old state. Two guards close such
sockets with 1012 (service restart), so the screen reconnects and gets the whole state
on connect:

- a consumer whose channel-layer call fails (Redis down) closes its own socket
  (`RoomConsumer.__call__`);
- one watcher task per server process asks Redis for its run id every WATCH_SECONDS and,
  when the id changes or Redis does not answer, drops the process hub's subscriptions
  (config/speedups/hub.py) and closes every socket of the process.

Only channels_redis's layer has a Redis to watch; the in-memory layer has nothing to lose.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any, Protocol

from config.speedups import hub
from tournaments.sockets.codes import SERVICE_RESTART

logger = logging.getLogger(__name__)

WATCH_SECONDS = 1.0


class Closable(Protocol):
    channel_layer: Any

    async def close(self, code: int | None = None) -> None: ...


_sockets: weakref.WeakSet[Any] = weakref.WeakSet()
_watchers: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}


def _redis_of(layer: Any) -> Any | None:
    """The Redis client of a channels_redis layer on this loop, or None for other layers."""
    connection = getattr(layer, "connection", None)
    if connection is None or not getattr(layer, "hosts", None):
        return None
    return connection(0)


async def run_id(layer: Any) -> str | None:
    """The Redis server's run id (new on every restart); None for a layer without Redis."""
    redis = _redis_of(layer)
    if redis is None:
        return None
    info = await asyncio.wait_for(redis.info("server"), timeout=2)
    return str(info.get("run_id"))


def watch(consumer: Closable) -> None:
    """Register an accepted socket; start this process's watcher if it needs one."""
    if _redis_of(consumer.channel_layer) is None:
        return
    _sockets.add(consumer)
    loop = asyncio.get_running_loop()
    task = _watchers.get(loop)
    if task is None or task.done():
        _watchers[loop] = loop.create_task(_watch(consumer.channel_layer))


def forget(consumer: Closable) -> None:
    _sockets.discard(consumer)


async def close_all(reason: str) -> int:
    """Close every registered socket of this process so its screen reconnects."""
    closing = list(_sockets)
    _sockets.clear()
    if closing:
        logger.warning("closing %d sockets so their screens resync: %s", len(closing), reason)
    for consumer in closing:
        try:
            await consumer.close(code=SERVICE_RESTART)
        except Exception:  # noqa: BLE001 - the socket is already gone
            logger.debug("socket already closed", exc_info=True)
    return len(closing)


async def _watch(layer: Any) -> None:
    known: str | None = None
    while _sockets:
        try:
            current = await run_id(layer)
        except Exception as exc:  # noqa: BLE001 - Redis down: nobody can receive anything
            reason = f"channel layer unreachable ({type(exc).__name__})"
            hub.reset(layer, reason)
            await close_all(reason)
            known = None
        else:
            if known is not None and current != known:
                # The hub's subscriptions went with the groups: reconnecting screens must
                # find none, so that they subscribe afresh.
                hub.reset(layer, "Redis restarted: its groups are gone")
                await close_all("Redis restarted: its groups are gone")
            known = current
        await asyncio.sleep(WATCH_SECONDS)
