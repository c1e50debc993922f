"""`bench feed`'s path, small: followers of a published event's stream, over real sockets
to uvicorn, each get every elimination the floor's form records (the document first); and
the benchmark is registered and ends on its figures.

The server is a subprocess on the test database, hence PostgreSQL (SQLite's test database
lives in the test process's memory)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from bench.fanout import elimination_posts, fanout_tournament, run_clients
from bench.liveserver import HOST, Browser, database_url, serve
from bench.registry import BENCHES

CLIENTS, CHANGES = 20, 3
LAYERS = ["memory", "redis"] if settings.REDIS_URL else ["memory"]


def test_feed_is_a_registered_benchmark():
    from bench.feed import feed

    assert BENCHES["feed"] is feed


@pytest.mark.postgres
@pytest.mark.skipif(not settings.USING_POSTGRES, reason="needs PostgreSQL (DATABASE_URL)")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("layer", LAYERS)
def test_every_follower_gets_every_elimination(layer):
    td, tournament, _screen = fanout_tournament("pw", players=12)
    tournament.feed_public = True
    tournament.save(update_fields=["feed_public"])
    posts = elimination_posts(tournament, CHANGES)
    client = Client()
    client.force_login(td)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    env = {
        "DATABASE_URL": database_url(connection.settings_dict),
        "REDIS_URL": settings.REDIS_URL if layer == "redis" else None,
        "FEED_STREAMS_PER_MINUTE": "0",
    }
    with serve(env=env) as server:
        browser = Browser(server.url, cookies={settings.SESSION_COOKIE_NAME: session})
        assert browser.get(f"/t/{tournament.slug}/").status == 200
        result = run_clients(
            url=f"ws://{HOST}:{server.port}/api/v1/events/{tournament.pk}/stream",
            base_url=server.url,
            origin=server.url,
            cookie="; ".join(f"{k}={v}" for k, v in browser.cookies.items()),
            clients=CLIENTS,
            match="elimination",
            posts=posts,
        )
    assert result["errors"] == []
    assert result["connected"] == CLIENTS
    assert result["delivered"] == result["expected"] == CLIENTS * CHANGES
    assert '"eliminations"' in result["sample"]
