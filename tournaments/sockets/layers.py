"""The embedded channel layer: Channels' in-memory layer, with its housekeeping bounded.

Channels' `InMemoryChannelLayer` sweeps every queue and every group membership for
expired entries on each `receive()` and `group_send()`. Each socket waits in its own
`receive()`, so one broadcast to a group of N sockets costs N sweeps of N entries: with
a thousand clock screens a single clock change took seconds (`manage.py bench fanout`).
Here the sweep runs at most once a second, and `group_send` puts the message in each
queue directly instead of one task per socket, copying a flat message with dict()
rather than deepcopy(). Expiry is a minute for messages and a day for group
memberships, so a second's slack changes nothing anyone can see.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer as ChannelsInMemoryChannelLayer

_IMMUTABLE = (str, bytes, int, float, bool, type(None))


class InMemoryChannelLayer(ChannelsInMemoryChannelLayer):
    sweep_interval = 1.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._last_sweep = float("-inf")

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._last_sweep < self.sweep_interval:
            return
        self._last_sweep = now
        super()._clean_expired()

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        # Channels deep-copies the message for each socket. A message of plain values
        # (a push: its type and the JSON text) is copied as safely by dict().
        flat = all(type(value) in _IMMUTABLE for value in message.values())
        for channel in list(self.groups.get(group, {})):
            # As in Channels: a socket whose queue is full misses this message.
            with contextlib.suppress(ChannelFull):
                if flat:
                    await self._put(channel, dict(message))
                else:
                    await self.send(channel, message)

    async def _put(self, channel: str, message: dict[str, Any]) -> None:
        """Channels' send() without its deep copy (the caller made a safe copy)."""
        queue = self.channels.setdefault(channel, asyncio.Queue(maxsize=self.get_capacity(channel)))
        try:
            queue.put_nowait((time.time() + self.expiry, message))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None
