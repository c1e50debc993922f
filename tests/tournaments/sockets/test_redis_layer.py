"""The Redis channel layer as configured: sockets survive quiet spells and crowds.

redis-py 8 times a read out after 5 s and caps a pool at 100 connections; left at those
defaults, channels_redis dropped every screen after 5 s without a message and refused
the 101st socket joining at once. Runs where REDIS_URL is set (CI's PostgreSQL + Redis).
"""

from __future__ import annotations

import asyncio
import json
import secrets

import pytest
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings

from config.asgi import application

pytestmark = pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (REDIS_URL)")


@pytest.mark.django_db(transaction=True)
async def test_a_quiet_clock_screen_stays_connected(display):
    communicator = WebsocketCommunicator(
        application, f"/ws/screens/{display.token}/", headers=[(b"origin", b"http://testserver")]
    )
    connected, _code = await communicator.connect(timeout=10)
    assert connected
    assert (await communicator.receive_json_from(timeout=5))["type"] == "clock"
    # channels_redis waits up to 5 s in BZPOPMIN for the next message; be quiet longer.
    await asyncio.sleep(7)
    await communicator.send_json_to({"type": "ping", "t": 1})
    assert (await communicator.receive_json_from(timeout=5))["type"] == "pong"
    await communicator.disconnect()


async def test_three_hundred_sockets_join_a_group_at_once():
    layer = get_channel_layer()
    group = f"test.crowd.{secrets.token_hex(4)}"
    channels = [await layer.new_channel() for _ in range(300)]
    await asyncio.gather(*(layer.group_add(group, c) for c in channels))
    await layer.group_send(group, {"type": "push", "text": "{}", "close": False})
    received = await asyncio.gather(*(layer.receive(c) for c in channels))
    assert len(received) == 300
    await asyncio.gather(*(layer.group_discard(group, c) for c in channels))


@pytest.mark.fast_path(
    "fragments rendered only for groups heard (tournaments/realtime.py, `listening`)"
)
def test_a_push_naming_many_tables_reaches_each_and_only_tables_heard_are_named():
    """A break names a dozen tables: which of them a tablet hears is asked in one trip,
    and the push goes to them side by side; every listening table gets it once."""
    from asgiref.sync import async_to_sync

    from tournaments import realtime

    layer = get_channel_layer()
    groups = tuple(f"test.tables.{secrets.token_hex(4)}.{n}" for n in range(1, 13))
    heard = groups[::3]

    async def join() -> list[str]:
        channels = [await layer.new_channel() for _ in heard]
        for group, channel in zip(heard, channels, strict=True):
            await layer.group_add(group, channel)
        return channels

    channels = async_to_sync(join)()
    try:
        assert realtime.listening(groups) == set(heard)
        realtime._send_many(groups, {"type": "move", "v": 1, "at_tables": [1, 4, 7, 10]})

        async def receive() -> list[dict]:
            got = [await asyncio.wait_for(layer.receive(c), 5) for c in channels]
            for channel in channels:  # nothing twice
                with pytest.raises(TimeoutError):
                    await asyncio.wait_for(layer.receive(channel), 0.3)
            return got

        received = async_to_sync(receive)()
        assert [json.loads(m["text"])["type"] for m in received] == ["move"] * len(heard)
    finally:

        async def leave() -> None:
            for group, channel in zip(heard, channels, strict=True):
                await layer.group_discard(group, channel)

        async_to_sync(leave)()


@pytest.mark.fast_path("the `heard` guess cache (tournaments/realtime.py)")
def test_what_redis_says_of_a_group_is_kept_a_while_and_a_socket_joining_here_is_heard_at_once():
    """Who listens is asked of Redis before a push renders its fragments. A group found
    heard is taken as heard for HEARD_FOR seconds (at worst a render nobody reads); a group
    found not heard is taken as not heard for UNHEARD_FOR seconds (a screen of another
    process that comes meanwhile fetches what the push left out), unless a socket of this
    process joins it: then it is asked about at the next push."""
    from asgiref.sync import async_to_sync

    from tournaments import realtime

    layer = get_channel_layer()
    room, table = (f"test.heard.{secrets.token_hex(4)}.{n}" for n in (1, 2))
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(room, channel)
    at = 1_000.0
    assert realtime.listening((room, table), now=at) == {room}

    # A tablet of another process comes: not asked about again for UNHEARD_FOR seconds.
    async_to_sync(layer.group_add)(table, channel)
    assert realtime.listening((room, table), now=at + 0.5) == {room}
    assert realtime.listening((room, table), now=at + realtime.UNHEARD_FOR + 0.1) == {room, table}

    other = f"test.heard.{secrets.token_hex(4)}.3"
    assert realtime.listening((other,), now=at + 2) == set()
    async_to_sync(layer.group_add)(other, channel)
    realtime.heard_anew(layer, [other])  # a socket of this process joined it
    assert realtime.listening((other,), now=at + 2.1) == {other}

    for group in (room, table, other):
        async_to_sync(layer.group_discard)(group, channel)
    # All gone: still taken as heard until their time is up, then asked about again.
    assert realtime.listening((room, table), now=at + 2.2) == {room, table}
    last_asked = at + realtime.UNHEARD_FOR + 0.1  # each was asked then at the latest
    assert realtime.listening((room, table), now=last_asked + realtime.HEARD_FOR + 0.1) == set()
