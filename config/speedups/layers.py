"""The channel layers: Channels' in-memory layer with its housekeeping bounded (embedded),
and channels_redis's layer with a group send in two trips to Redis (production).

Channels' `InMemoryChannelLayer` sweeps every queue and every group membership for
expired entries on each `receive()` and `group_send()`. Each socket waits in its own
`receive()`, so one broadcast to a group of N sockets costs N sweeps of N entries: with
a thousand clock screens a single clock change took seconds (`manage.py bench fanout`).
Here the sweep runs at most once a second, and `group_send` puts the message in each
queue directly instead of one task per socket, copying a flat message with dict()
rather than deepcopy(). Expiry is a minute for messages and a day for group
memberships, so a second's slack changes nothing anyone can see.

A push sent from a server process with sockets in the group reaches those sockets
through its hub (config/speedups/hub.py, `deliver_here`), not back through the
layer: the layer sends it to the group's other members only. On Redis the hub writes
it once the send is done, so the other processes' screens never wait for this one's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer as ChannelsInMemoryChannelLayer
from channels_redis.core import RedisChannelLayer as ChannelsRedisChannelLayer

from config.speedups.hub import Hub, hub_here

logger = logging.getLogger(__name__)

_IMMUTABLE = (str, bytes, int, float, bool, type(None))


def _here(layer: Any, group: str, message: dict[str, Any]) -> tuple[Hub | None, str | None]:
    """This process's hub and its channel in `group`, for a push: the send leaves that
    channel out, and the hub writes the push to its sockets itself (`deliver_here`)."""
    if message.get("type") != "push":
        return None, None
    hub = hub_here(layer)
    channel = hub.channel_here(group) if hub is not None else None
    return (hub, channel) if channel is not None else (None, None)


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
        # Everything is in this process: its own sockets first, then any other member.
        hub, here = _here(self, group, message)
        if hub is not None and here is not None:
            hub.deliver_here(group, here, message)
        # Channels deep-copies the message for each socket. A message of plain values
        # (a push: its type and the JSON text) is copied as safely by dict().
        flat = all(type(value) in _IMMUTABLE for value in message.values())
        for channel in list(self.groups.get(group, {})):
            if channel == here:
                continue
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


# channels_redis's group send, in one script: each channel's expired messages dropped (it
# sent that as a trip of its own), then the message added where the channel has room.
_GROUP_SEND = """
local over_capacity = 0
local current_time = tonumber(ARGV[#ARGV - 1])
local expiry = tonumber(ARGV[#ARGV])
for i=1,#KEYS do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, math.floor(current_time) - expiry)
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[i + #KEYS]) then
        redis.call('ZADD', KEYS[i], current_time, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        over_capacity = over_capacity + 1
    end
end
return over_capacity
"""


class RedisChannelLayer(ChannelsRedisChannelLayer):
    """channels_redis's layer, with `group_send` in two trips to Redis instead of four.

    Its own send was four trips in turn: drop the group's expired members, read the
    members, drop each channel's expired messages, then the script that adds the message.
    Every push of the room waits for them before its first screen hears of it (`bench fanout
    --phases` shows the wait). Here the first two go in one pipeline
    and the third runs inside the script. What is stored, and when, is the same. A push
    to several groups (`group_send_many`) takes the same two trips for all of them: sent
    group by group, a move's three groups would take three times the trips.
    """

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await self.group_send_many((group,), message)

    async def group_send_many(self, groups: Sequence[str], message: dict[str, Any]) -> None:
        """`group_send` to each of `groups` in two trips to each Redis host in all, not two
        per group: an elimination's push goes to the room and its table, a move's to the
        room and two tables, a break's to a dozen. A server process's socket channel in
        several of them gets the message once for each, as from one group send each: one
        stored message per process names them all, as channels_redis does within a group."""
        for group in groups:
            assert self.require_valid_group_name(group), "Group name not valid"
        here = {group: _here(self, group, message) for group in groups}
        try:
            await self._send_to_members(
                groups, message, leave_out={group: channel for group, (_h, channel) in here.items()}
            )
        finally:
            # The other processes have it (or Redis failed: these sockets get it anyway).
            for group, (hub, channel) in here.items():
                if hub is not None and channel is not None:
                    hub.deliver_here(group, channel, message)

    async def _send_to_members(
        self, groups: Sequence[str], message: dict[str, Any], *, leave_out: dict[str, str | None]
    ) -> None:
        hosts: dict[int, list[str]] = {}
        for group in groups:
            hosts.setdefault(self.consistent_hash(group), []).append(group)

        async def members(index: int, named: list[str]) -> list[str]:
            pipe = self.connection(index).pipeline(transaction=False)
            for group in named:
                key = self._group_key(group)
                pipe.zremrangebyscore(key, min=0, max=int(time.time()) - self.group_expiry)
                pipe.zrange(key, 0, -1)
            replies = await pipe.execute()
            return [
                channel
                for group, found in zip(named, replies[1::2], strict=True)
                for channel in (name.decode("utf8") for name in found)
                if channel != leave_out.get(group)
            ]

        found = await asyncio.gather(*(members(index, named) for index, named in hosts.items()))
        channel_names = [channel for channels in found for channel in channels]
        if not channel_names:
            return
        by_connection, messages, capacities = self._map_channel_keys_to_connection(
            channel_names, message
        )

        async def store(index: int, keys: list[str]) -> None:
            args = [messages[k] for k in keys] + [capacities[k] for k in keys]
            args += [time.time(), self.expiry]
            over = await self.connection(index).eval(_GROUP_SEND, len(keys), *keys, *args)
            if over > 0:
                logger.info(
                    "%s of %s channels over capacity in %s",
                    over,
                    len(channel_names),
                    ", ".join(groups),
                )

        await asyncio.gather(*(store(index, keys) for index, keys in by_connection.items()))
