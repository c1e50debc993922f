"""Two desks at the same moment never share a seat and never lose an entry."""

from __future__ import annotations

import threading

import pytest
from django.conf import settings
from django.db import connection

from tables.models import Seat
from tests.conftest import NOW, make_player, make_tournament
from tournaments.models import Entry
from tournaments.services import entries as entry_services

DESKS = 20


@pytest.mark.postgres
@pytest.mark.skipif(not settings.USING_POSTGRES, reason="needs PostgreSQL (DATABASE_URL)")
@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_registrations_get_twenty_distinct_seats(td):
    tournament = make_tournament(td, tables=3, seats=9)
    players = [make_player() for _ in range(DESKS)]
    barrier = threading.Barrier(DESKS)
    errors: list[BaseException] = []

    def desk(player):
        try:
            barrier.wait()
            entry_services.entry_register(tournament=tournament, player=player, actor=td, now=NOW)
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=desk, args=(p,)) for p in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    assert Entry.objects.filter(tournament=tournament).count() == DESKS
    seats = list(Seat.objects.filter(table__tournament=tournament).values_list("table", "number"))
    assert len(seats) == DESKS and len(set(seats)) == DESKS
    numbers = sorted(Entry.objects.filter(tournament=tournament).values_list("number", flat=True))
    assert numbers == list(range(1, DESKS + 1))


@pytest.mark.django_db
def test_the_database_refuses_a_double_booking(tournament, td):
    """Whatever a service does, the constraint holds."""
    from django.db import IntegrityError, transaction

    a = entry_services.entry_register(
        tournament=tournament, player=make_player(), actor=td, now=NOW
    )
    b = entry_services.entry_register(
        tournament=tournament, player=make_player(), actor=td, now=NOW
    )
    seat_b = Seat.objects.get(entry=b.entry)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.filter(entry=a.entry).update(table=seat_b.table, number=seat_b.number)
