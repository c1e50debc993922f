"""The process hub (tournaments/hub.py): one subscription per group, every local socket served.

Against the real in-memory layer and, where REDIS_URL is set, real Redis (channels_redis
as configured, on a prefix of its own). The sockets are ASGI `send` callables that
record what the server would write to the wire.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import tempfile
from pathlib import Path
from typing import Any

import pytest
from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer
from django.conf import settings

from config.speedups import hub as hub_module
from config.speedups.hub import REVOKED, SERVICE_RESTART, TRY_AGAIN_LATER, Hub
from tests.production.cluster import REDIS_SERVER, PrivateRedis

pytestmark = pytest.mark.fast_path(
    "one subscription per group per process (config/speedups/hub.py)"
)

LAYERS = ["memory", "redis"] if settings.REDIS_URL else ["memory"]


def _redis_layer(url: str) -> RedisChannelLayer:
    config = dict(settings.CHANNEL_LAYERS["default"].get("CONFIG") or {})
    host = dict(config["hosts"][0]) if config.get("hosts") else {}
    host["address"] = url
    return RedisChannelLayer(hosts=[host], prefix=f"test-hub-{secrets.token_hex(4)}")


@pytest.fixture(params=LAYERS)
async def layer(request):
    if request.param == "memory":
        yield InMemoryChannelLayer()
        return
    redis = _redis_layer(settings.REDIS_URL)
    yield redis
    await redis.flush()
    await redis.close_pools()


class Screen:
    """A socket as the hub sees it: its scope and its ASGI send."""

    def __init__(self, *, fail: bool = False) -> None:
        self.scope: dict[str, Any] = {}
        self.sent: list[dict[str, Any]] = []
        self.fail = fail
        self.gate: asyncio.Event | None = None  # set: a slow client, writes wait for it

    async def base_send(self, message: dict[str, Any]) -> None:
        if self.fail:
            raise OSError("connection reset")
        if self.gate is not None:
            await self.gate.wait()
        self.sent.append(message)

    @property
    def texts(self) -> list[str]:
        return [m["text"] for m in self.sent if m["type"] == "websocket.send"]

    @property
    def closes(self) -> list[int]:
        return [m["code"] for m in self.sent if m["type"] == "websocket.close"]


async def until(predicate, timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.01)


async def push(layer, group: str, text: str, *, close: bool = False) -> None:
    await layer.group_send(group, {"type": "push", "text": text, "close": close})


async def joined(hub: Hub, groups: list[str], *, fail: bool = False) -> Screen:
    screen = Screen(fail=fail)
    await hub.join(screen, groups)
    hub.release(screen)
    return screen


async def settle() -> None:
    """Long enough for a stray duplicate to arrive, were there one."""
    await asyncio.sleep(0.2)


async def test_a_push_reaches_every_local_socket_once_through_one_subscription(layer):
    hub = Hub(layer)
    screens = [await joined(hub, ["tournament.1"]) for _ in range(20)]
    # Channel-layer semantics stand: another member of the group (a test's listener,
    # another process) still receives.
    listener = await layer.new_channel()
    await layer.group_add("tournament.1", listener)
    await push(layer, "tournament.1", '{"version": 1}')
    await until(lambda: all(screen.texts for screen in screens))
    assert (await layer.receive(listener))["text"] == '{"version": 1}'
    await push(layer, "tournament.1", '{"version": 2}')
    await until(lambda: all(len(screen.texts) == 2 for screen in screens))
    await settle()
    assert {tuple(screen.texts) for screen in screens} == {('{"version": 1}', '{"version": 2}')}
    assert len(hub.groups) == 1
    for screen in screens:
        hub.leave(screen)


async def test_a_socket_in_two_groups_gets_each_groups_pushes(layer):
    hub = Hub(layer)
    tablet = await joined(hub, ["tournament.1", "tournament.1.table.3"])
    clock = await joined(hub, ["tournament.1"])
    await push(layer, "tournament.1", "all")
    await push(layer, "tournament.1.table.3", "table 3")
    await until(lambda: len(tablet.texts) == 2 and clock.texts)
    await settle()
    assert sorted(tablet.texts) == ["all", "table 3"]
    assert clock.texts == ["all"]
    hub.leave(tablet)
    hub.leave(clock)


async def test_leaving_stops_delivery_and_the_last_one_out_unsubscribes(layer):
    hub = Hub(layer)
    staying = await joined(hub, ["tournament.1"])
    leaving = await joined(hub, ["tournament.1", "tournament.1.table.2"])
    hub.leave(leaving)
    assert set(hub.groups) == {"tournament.1"}
    await push(layer, "tournament.1", "after")
    await push(layer, "tournament.1.table.2", "after")
    await until(lambda: staying.texts)
    await settle()
    assert leaving.sent == []
    hub.leave(staying)
    assert hub.groups == {}
    if isinstance(layer, InMemoryChannelLayer):
        await until(lambda: not layer.groups.get("tournament.1"))


async def test_pushes_before_the_initial_state_follow_it(layer):
    hub = Hub(layer)
    screen = Screen()
    await hub.join(screen, ["tournament.1"])
    await push(layer, "tournament.1", "meanwhile")
    await settle()
    assert screen.sent == []  # the consumer has not sent the initial state yet
    await screen.base_send({"type": "websocket.send", "text": "initial"})
    hub.release(screen)
    await until(lambda: len(screen.texts) == 2)
    assert screen.texts == ["initial", "meanwhile"]
    hub.leave(screen)


async def test_a_failing_or_slow_socket_does_not_stop_the_others(layer):
    hub = Hub(layer)
    first = await joined(hub, ["tournament.1"])
    broken = await joined(hub, ["tournament.1"], fail=True)
    slow = await joined(hub, ["tournament.1"])
    last = await joined(hub, ["tournament.1"])
    slow.gate = asyncio.Event()
    for n in range(3):
        await push(layer, "tournament.1", str(n))
    await until(lambda: len(first.texts) == len(last.texts) == 3)
    assert slow.texts == [] and broken.sent == []
    slow.gate.set()  # the slow client catches up, in order
    await until(lambda: len(slow.texts) == 3)
    assert slow.texts == first.texts == last.texts == ["0", "1", "2"]
    for screen in (first, broken, slow, last):
        hub.leave(screen)


async def test_a_socket_too_far_behind_is_closed_to_resync(layer):
    hub = Hub(layer)
    slow = await joined(hub, ["tournament.1"])
    fine = await joined(hub, ["tournament.1"])
    slow.gate = asyncio.Event()
    sent = hub_module.BACKLOG + 2
    for n in range(sent):
        await push(layer, "tournament.1", str(n))
    await until(lambda: len(fine.texts) == sent)
    slow.gate.set()
    await until(lambda: slow.closes)
    assert slow.closes == [TRY_AGAIN_LATER]
    hub.leave(slow)
    hub.leave(fine)


async def test_a_bad_message_does_not_stop_the_pump(layer):
    hub = Hub(layer)
    screen = await joined(hub, ["tournament.1"])
    await layer.group_send("tournament.1", {"type": "push", "close": False})  # no text
    await layer.group_send("tournament.1", {"type": "push", "text": None, "close": False})
    await layer.group_send("tournament.1", {"type": "something.else"})
    await push(layer, "tournament.1", "fine")
    await until(lambda: screen.texts)
    assert screen.texts == ["fine"]
    hub.leave(screen)


async def test_the_close_message_closes_only_that_screens_socket(layer):
    hub = Hub(layer)
    revoked = await joined(hub, ["tournament.1", "screen.5"])
    other = await joined(hub, ["tournament.1", "screen.6"])
    await push(layer, "screen.5", json.dumps({"type": "close"}), close=True)
    await until(lambda: revoked.closes)
    await push(layer, "tournament.1", "later")
    await until(lambda: other.texts)
    await settle()
    assert revoked.sent == [{"type": "websocket.close", "code": REVOKED}]
    assert other.sent == [{"type": "websocket.send", "text": "later"}]
    hub.leave(revoked)
    hub.leave(other)


async def test_a_reset_after_the_layer_lost_its_groups_resubscribes(layer):
    hub = Hub(layer)
    before = await joined(hub, ["tournament.1"])
    await layer.flush()  # what a Redis restart does: every membership is gone
    hub.reset("test: the layer lost its groups")
    await until(lambda: before.closes)
    assert before.closes == [SERVICE_RESTART]
    hub.leave(before)  # its consumer disconnects
    after = await joined(hub, ["tournament.1"])  # the screen reconnects
    await push(layer, "tournament.1", "fresh")
    await until(lambda: after.texts)
    assert after.texts == ["fresh"] and before.texts == []
    hub.leave(after)


async def test_memberships_are_renewed_before_they_expire():
    layer = InMemoryChannelLayer(group_expiry=2)
    hub = Hub(layer)
    assert hub.renew_seconds == 1.0
    screen = await joined(hub, ["tournament.1"])
    await asyncio.sleep(2.6)
    layer._last_sweep = float("-inf")  # sweep now
    await push(layer, "tournament.1", "still here")
    await until(lambda: screen.texts)
    hub.leave(screen)


@pytest.mark.skipif(REDIS_SERVER is None, reason="needs redis-server")
async def test_when_redis_dies_the_pump_closes_its_sockets_and_a_rejoin_resubscribes():
    with tempfile.TemporaryDirectory() as workdir:
        redis = PrivateRedis(Path(workdir))
        await asyncio.to_thread(redis.start)
        layer = _redis_layer(redis.url)
        hub = Hub(layer)
        try:
            screen = await joined(hub, ["tournament.1"])
            await asyncio.to_thread(redis.kill)
            await until(lambda: screen.closes, timeout=20)
            assert screen.closes == [SERVICE_RESTART]
            assert hub.groups == {}  # no pump left spinning on a dead connection
            hub.leave(screen)
            await asyncio.to_thread(redis.start)
            again = await joined(hub, ["tournament.1"])
            await push(layer, "tournament.1", "back")
            await until(lambda: again.texts, timeout=10)
            hub.leave(again)
        finally:
            await asyncio.to_thread(redis.kill)
            await layer.close_pools()
