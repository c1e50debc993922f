"""The room's sockets on the Redis channel layer (the PostgreSQL + Redis pass of CI).

redis-py 8 reads with a 5 s socket timeout by default, as long as channels_redis's
blocking pop: a socket idle for 5 s then lost its consumer, and its screen heard the next
change only after reconnecting, a second late (channels_redis#422; config/settings.py).
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings

from config.asgi import application
from tests.conftest import NOW
from tournaments.services import clock as clock_services

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        "Redis" not in settings.CHANNEL_LAYERS["default"]["BACKEND"],
        reason="the Redis channel layer only (REDIS_URL)",
    ),
]


async def test_an_idle_screen_keeps_its_socket_and_hears_the_next_change(display, tournament, td):
    from channels_redis.core import RedisChannelLayer

    idle = RedisChannelLayer.brpop_timeout + 1.5
    communicator = WebsocketCommunicator(
        application, f"/ws/screens/{display.token}/", headers=[(b"origin", b"http://testserver")]
    )
    connected, _code = await communicator.connect(timeout=10)
    assert connected
    assert (await communicator.receive_json_from(timeout=5))["type"] == "clock"
    assert await communicator.receive_nothing(timeout=idle)  # no close, no crash
    await database_sync_to_async(clock_services.clock_start)(
        tournament=tournament, actor=td, now=NOW
    )
    message = await communicator.receive_json_from(timeout=1)
    assert (message["type"], message["status"]) == ("clock", "running")
    await communicator.disconnect()
