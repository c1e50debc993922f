"""A clock change made on the TD's socket reaches every clock screen's socket, over real
sockets to uvicorn, with the in-memory layer and (where REDIS_URL is set) with Redis.

The small version of `manage.py bench fanout`; the server is a subprocess on the test
database, hence PostgreSQL (SQLite's test database lives in the test process's memory).
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from bench.fanout import clock_changes, fanout_tournament, run_clients
from bench.liveserver import HOST, database_url, serve

CLIENTS, CHANGES = 30, 3
LAYERS = ["memory", "redis"] if settings.REDIS_URL else ["memory"]


@pytest.mark.postgres
@pytest.mark.skipif(not settings.USING_POSTGRES, reason="needs PostgreSQL (DATABASE_URL)")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("layer", LAYERS)
def test_every_clock_screen_gets_every_clock_change(layer):
    td, tournament, screen = fanout_tournament("pw")
    client = Client()
    client.force_login(td)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    env = {
        "DATABASE_URL": database_url(connection.settings_dict),
        "REDIS_URL": settings.REDIS_URL if layer == "redis" else None,
    }
    with serve(env=env) as server:
        ws = f"ws://{HOST}:{server.port}"
        result = run_clients(
            url=f"{ws}/ws/screens/{screen.token}/",
            trigger_url=f"{ws}/ws/t/{tournament.slug}/",
            origin=server.url,
            cookie=cookie,
            clients=CLIENTS,
            messages=clock_changes(CHANGES),
        )
    assert result["errors"] == []
    assert (result["changes"], result["connected"]) == (CHANGES, CLIENTS)
    assert result["delivered"] == result["expected"] == CLIENTS * CHANGES
