"""Desks registering at once over HTTP, against uvicorn with two workers on PostgreSQL:
every registration becomes one entry on a seat of its own, and no desk sees an error.

The small version of `manage.py bench registration_load`. The server is a subprocess on
the test database, so the data it must see is committed (transactional test).
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from bench.liveserver import Browser, database_url, serve
from bench.load import check_entries, desk_tournament, desk_users, goal_met, run_desks
from tests.conftest import NOW

DESKS, PER_DESK = 4, 10


def _logged_in(base_url: str, user) -> Browser:
    # The server hashes with Django's default hasher and the tests with MD5: a session
    # made here stands in for the login form (which bench registration_load does use).
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return Browser(base_url, cookies={name: client.cookies[name].value})


@pytest.mark.postgres
@pytest.mark.skipif(not settings.USING_POSTGRES, reason="needs PostgreSQL (DATABASE_URL)")
@pytest.mark.django_db(transaction=True)
def test_concurrent_desks_over_http_fill_distinct_seats():
    _td, tournament = desk_tournament(entries=DESKS * PER_DESK, now=NOW)
    users = desk_users(tournament, DESKS)
    with serve(workers=2, env={"DATABASE_URL": database_url(connection.settings_dict)}) as server:
        browsers = [_logged_in(server.url, user) for user in users]
        run = run_desks(browsers, tournament.slug, PER_DESK, tag="Load")
        for browser in browsers:
            browser.close()
    assert run.errors == []
    assert len(run.latencies_ms) == DESKS * PER_DESK
    assert check_entries(tournament) == {
        "entries": DESKS * PER_DESK,
        "distinct_numbers": DESKS * PER_DESK,
        "seats": DESKS * PER_DESK,
        "distinct_seats": DESKS * PER_DESK,
    }


@pytest.mark.parametrize(
    ("per_s", "p95_ms", "ok", "met"),
    [
        (50.5, 359.7, True, True),
        (23.2, 835.0, True, False),
        (31.0, 1001.0, True, False),
        (40.0, 500.0, False, False),
    ],
)
def test_the_goal_asks_for_throughput_and_latency_as_well_as_right_seats(per_s, p95_ms, ok, met):
    # A run with every seat right but 23 registrations a second misses the goal.
    assert goal_met({"ok": ok, "registrations_per_s": per_s, "p95_ms": p95_ms}) is met
