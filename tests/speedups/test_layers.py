"""The embedded channel layer: Channels' in-memory layer with a bounded sweep."""

from __future__ import annotations

import asyncio

import pytest

from config.speedups.layers import InMemoryChannelLayer

pytestmark = pytest.mark.fast_path(
    "the in-memory layer's bounded sweep (config/speedups/layers.py)"
)


class CountingLayer(InMemoryChannelLayer):
    sweeps = 0

    def _clean_expired(self) -> None:
        before = self._last_sweep
        super()._clean_expired()
        if self._last_sweep != before:
            self.sweeps += 1


async def _members(layer, group: str, count: int) -> list[str]:
    channels = [await layer.new_channel() for _ in range(count)]
    for channel in channels:
        await layer.group_add(group, channel)
    return channels


async def test_a_group_send_reaches_every_member_with_one_sweep():
    layer = CountingLayer()
    channels = await _members(layer, "tournament.1", 500)
    await layer.group_send("tournament.1", {"type": "push", "text": "{}"})
    received = await asyncio.gather(*(layer.receive(c) for c in channels))
    assert received == [{"type": "push", "text": "{}"}] * 500
    # Channels' own layer sweeps all 500 queues and memberships on each of the 501 calls.
    assert layer.sweeps == 1


async def test_each_member_gets_its_own_copy():
    layer = InMemoryChannelLayer()
    first, second = await _members(layer, "g", 2)
    await layer.group_send("g", {"type": "push", "data": {"n": 1}})
    mine = await layer.receive(first)
    mine["data"]["n"] = 2
    assert (await layer.receive(second))["data"] == {"n": 1}


async def test_a_full_member_misses_the_message_and_the_others_still_get_it():
    layer = InMemoryChannelLayer(capacity=1)
    full, other = await _members(layer, "g", 2)
    await layer.send(full, {"type": "push", "text": "old"})
    await layer.group_send("g", {"type": "push", "text": "new"})
    assert (await layer.receive(full))["text"] == "old"
    assert (await layer.receive(other))["text"] == "new"


async def test_expired_messages_still_go_and_take_their_channel_out_of_groups():
    layer = InMemoryChannelLayer(expiry=0)
    layer.sweep_interval = 0
    stale, fresh = await _members(layer, "g", 2)
    await layer.send(stale, {"type": "push", "text": "stale"})
    await asyncio.sleep(0.01)
    await layer.group_send("g", {"type": "push", "text": "now"})
    assert list(layer.groups["g"]) == [fresh]
