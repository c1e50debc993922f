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

from bench import phases
from bench.fanout import clock_changes, elimination_posts, fanout_tournament, run_clients
from bench.liveserver import HOST, Browser, database_url, serve

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


@pytest.mark.postgres
@pytest.mark.skipif(not settings.USING_POSTGRES, reason="needs PostgreSQL (DATABASE_URL)")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kind", ["clock", "elimination"])
def test_the_server_times_each_change_from_its_arrival_to_its_last_socket(kind, tmp_path):
    """`bench fanout --phases`: the server's timers see every change, made on the TD's
    socket or through the floor's form, and its steps in the order they happen."""
    td, tournament, screen = fanout_tournament("pw", players=0 if kind == "clock" else 12)
    trigger = (
        {"messages": clock_changes(CHANGES)}
        if kind == "clock"
        else {"posts": elimination_posts(tournament, CHANGES)}
    )
    client = Client()
    client.force_login(td)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    log = tmp_path / "phases.jsonl"
    env = {"DATABASE_URL": database_url(connection.settings_dict), "REDIS_URL": None}
    with serve(env=env, phases=str(log)) as server:
        # The TD's session (the server hashes passwords its own way), and the CSRF token
        # the floor's page gives its forms.
        browser = Browser(server.url, cookies={settings.SESSION_COOKIE_NAME: session})
        assert browser.get(f"/t/{tournament.slug}/").status == 200
        cookie = "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
        ws = f"ws://{HOST}:{server.port}"
        result = run_clients(
            url=f"{ws}/ws/screens/{screen.token}/",
            trigger_url=f"{ws}/ws/t/{tournament.slug}/",
            base_url=server.url,
            origin=server.url,
            cookie=cookie,
            clients=10,
            match="version" if kind == "clock" else kind,
            **trigger,
        )
    assert result["errors"] == []
    assert result["delivered"] == result["expected"] == 10 * CHANGES
    steps = phases.summary(str(log), skip=0)
    assert steps["changes"] == CHANGES
    # A change through the site's form passes every mark, in order; one on the console's
    # socket has no request to take, and a clock change no figures to read for its push.
    # The layer's send is done after it began (this process's sockets may be written
    # before it is done: on the in-memory layer, they are).
    core = ["locked", "commit", "committed", "push", "send", "first_write", "all_written"]
    marked = [name for name in phases.MARKS if name != "sent"] if kind != "clock" else core
    order = [steps[name] for name in marked]
    assert order == sorted(order) and order[0] > 0
    assert steps["sent"] >= steps["send"]
    # The statements before the commit are counted: an elimination reads the login, its
    # tournament and its entry, then locks them and reads the field's figures (its writes,
    # the seat freed, the entry's row and the log's, go with the COMMIT).
    assert steps["statements"] >= (3 if kind == "clock" else 7)
    assert "first socket written" in phases.describe(steps)
