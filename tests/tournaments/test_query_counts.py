"""One pass per change: what a clock change and a registration cost the database.

Counted as statements the database runs, without the transaction's own BEGIN, COMMIT and
savepoints (SQLite logs them, PostgreSQL does not). Run with real transactions so the
service's atomic block is the outermost one, as in a request.
"""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from config import scheduling
from tests.conftest import NOW, make_player
from tournaments import selectors
from tournaments.models import Event
from tournaments.selectors import clock as clock_reads
from tournaments.services import clock as clock_services
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db(transaction=True)

HX = {"HTTP_HX_REQUEST": "true"}
CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT")


def statements(ctx: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in ctx.captured_queries if not q["sql"].startswith(CONTROL)]


def test_a_clock_pause_from_the_console_reads_the_structure_once(client, tournament, td):
    for _n in range(5):
        entry_services.entry_register(
            tournament=tournament, player=make_player(), actor=td, now=NOW
        )
    clock_services.clock_start(tournament=tournament, actor=td, now=NOW)
    client.force_login(td)
    with CaptureQueriesContext(connection) as ctx:
        response = client.post(reverse("clock_control", args=[tournament.slug, "pause"]), **HX)
    assert response.status_code == 200
    assert 'data-testid="status">' in response.content.decode()
    sql = statements(ctx)
    structure_reads = [s for s in sql if 'FROM "tournaments_structureitem"' in s]
    assert len(sql) <= 10, "\n".join(sql)
    assert len(structure_reads) <= 2
    tournament.refresh_from_db()
    assert tournament.clock_status == "paused"


def test_a_clock_pause_builds_its_clock_once_for_the_push_and_the_console(
    client, tournament, td, monkeypatch
):
    """The pause, its push and the console's answer share one state, one view and one
    payload: the pure clock is asked for a view once more only to catch up a boundary."""
    clock_services.clock_start(tournament=tournament, actor=td, now=NOW)
    built = {"state": 0, "read": 0, "payload": 0}

    def counted(name, real):
        def call(*args, **kwargs):
            built[name] += 1
            return real(*args, **kwargs)

        return call

    # Counted where they are defined and where the package gathers them, so that a call
    # from inside the clock's reads counts as one from a service does.
    for name, key in (
        ("clock_state", "state"),
        ("clock_read", "read"),
        ("clock_payload", "payload"),
    ):
        wrapped = counted(key, getattr(clock_reads, name))
        monkeypatch.setattr(clock_reads, name, wrapped)
        monkeypatch.setattr(selectors, name, wrapped)
    client.force_login(td)
    response = client.post(reverse("clock_control", args=[tournament.slug, "pause"]), **HX)
    assert response.status_code == 200
    assert built == {"state": 1, "read": 1, "payload": 1}
    tournament.refresh_from_db()
    assert tournament.clock_status == "paused"


@pytest.mark.fast_path(
    "fragments rendered only for groups heard (tournaments/realtime.py, `listening`)"
)
def test_a_registration_costs_at_most_fifteen_statements(tournament, td):
    for _n in range(20):
        entry_services.entry_register(
            tournament=tournament, player=make_player(), actor=td, now=NOW
        )
    player = make_player()
    with CaptureQueriesContext(connection) as ctx:
        entry = entry_services.entry_register(
            tournament=tournament, player=player, actor=td, now=NOW
        ).entry
    assert entry.seat.table.number >= 1
    sql = statements(ctx)
    assert len(sql) <= 15, "\n".join(sql)


def test_the_console_page_writes_nothing_and_the_next_change_logs_the_level(client, tournament, td):
    clock_services.clock_start(tournament=tournament, actor=td, now=NOW)
    client.force_login(td)
    later = NOW + dt.timedelta(minutes=21)  # level 1 lasts 20 minutes: level 2 runs
    with time_machine.travel(later, tick=False):
        with CaptureQueriesContext(connection) as ctx:
            page = client.get(reverse("clock_console", args=[tournament.slug]))
        assert page.status_code == 200
        writes = [s for s in statements(ctx) if s.startswith(("INSERT", "UPDATE", "DELETE"))]
        assert writes == []
        assert not Event.objects.filter(tournament=tournament, action="clock.level").exists()
        client.post(reverse("clock_control", args=[tournament.slug, "pause"]))
    level = Event.objects.get(tournament=tournament, action="clock.level")
    assert level.data["index"] == 1


@pytest.mark.fast_path(
    "fragments rendered only for groups heard (tournaments/realtime.py, `listening`)"
)
def test_a_new_player_at_the_desk_costs_twenty_five_statements(client, tournament, td):
    """The desk's whole cycle as a clerk clicks through it: the desk page, "Add and
    register", the seat card it leads to. Embedded (no broker), the registration also
    reads, after its commit, whether the player opted in to be told his seat (one read:
    room/receivers.py); with a broker (the PostgreSQL + Redis pass) that read is the Celery
    worker's, not the request's."""
    for _n in range(20):
        entry_services.entry_register(
            tournament=tournament, player=make_player(), actor=td, now=NOW
        )
    client.force_login(td)
    counts = {}
    with CaptureQueriesContext(connection) as ctx:
        page = client.get(reverse("desk", args=[tournament.slug]))
    assert page.status_code == 200
    counts["desk"] = statements(ctx)
    form = {"first_name": "Ada", "last_name": "Lovelace", "register": "1"}
    with CaptureQueriesContext(connection) as ctx:
        answer = client.post(reverse("player_new", args=[tournament.slug]), form)
    counts["register"] = statements(ctx)
    assert answer.status_code == 302
    with CaptureQueriesContext(connection) as ctx:
        card = client.get(answer["Location"])
    counts["card"] = statements(ctx)
    assert "Lovelace" in card.content.decode()
    assert Event.objects.filter(tournament=tournament, action="entry.register").count() == 21
    assert {name: len(sql) for name, sql in counts.items()} == {
        "desk": 5,
        "register": 15 if scheduling.can_wait() else 16,
        "card": 4,
    }, "\n\n".join("\n".join(sql) for sql in counts.values())
