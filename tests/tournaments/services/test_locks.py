"""Two desks at the same moment never share a seat and never lose an entry."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.conf import settings
from django.db import connection

from tests.conftest import NOW, make_player, make_tournament
from tournaments.models import Entry, Event, Seat
from tournaments.services import entries as entry_services

DESKS = 20


@pytest.mark.postgres
@pytest.mark.skipif(not settings.USING_POSTGRES, reason="needs PostgreSQL (DATABASE_URL)")
@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_registrations_get_twenty_distinct_seats(td):
    tournament = make_tournament(td, tables=3, seats=9)
    players = [make_player() for _ in range(DESKS)]
    errors = _all_at_once(
        [
            lambda p=p: entry_services.entry_register(
                tournament=tournament, player=p, actor=td, now=NOW
            )
            for p in players
        ]
    )
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


@pytest.mark.postgres
@pytest.mark.skipif(not settings.USING_POSTGRES, reason="needs PostgreSQL (DATABASE_URL)")
@pytest.mark.django_db(transaction=True)
def test_desks_busts_and_undos_at_once_never_deadlock_and_keep_the_figures_right(td):
    """Registrations, eliminations and undos of earlier busts, all at the same moment on
    one tournament: each either happens or is refused in words (an undo a later seat
    blocks), none dies in a deadlock, and the entries' tally the screens read (kept by the
    database) matches the entries."""
    from tests.tally import tally_mismatches
    from tournaments import selectors
    from tournaments.errors import DomainError
    from tournaments.events import event_undo
    from tournaments.models import Event

    tournament = make_tournament(td, tables=4, seats=9)
    seated = _seated(tournament, td, 14)
    for entry in seated[:4]:
        entry_services.entry_eliminate(tournament=tournament, entry=entry, actor=td, now=NOW)
    busts = list(
        Event.objects.filter(tournament=tournament, action="entry.eliminate").values_list(
            "pk", flat=True
        )
    )
    newcomers = [make_player() for _ in range(4)]
    jobs = (
        [
            lambda p=p: entry_services.entry_register(
                tournament=tournament, player=p, actor=td, now=NOW
            )
            for p in newcomers
        ]
        + [
            lambda e=e: entry_services.entry_eliminate(
                tournament=tournament, entry=e, actor=td, now=NOW
            )
            for e in seated[4:9]
        ]
        + [
            lambda b=b: event_undo(event_id=b, tournament=tournament, actor=td, now=NOW)
            for b in busts
        ]
    )
    # Refused in words (DomainError) is a legitimate outcome of a race at the table.
    errors = _all_at_once(jobs, refused=(DomainError,))
    assert errors == []
    assert tally_mismatches() == []
    playing = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count()
    assert playing == selectors.players_left(tournament)


def _seated(tournament, td, count: int) -> list[Entry]:
    """`count` new players registered, each seated by the draw."""
    return [
        entry_services.entry_register(
            tournament=tournament, player=make_player(), actor=td, now=NOW
        ).entry
        for _ in range(count)
    ]


def _all_at_once(
    jobs: list[Callable[[], object]], *, refused: tuple[type[BaseException], ...] = ()
) -> list[BaseException]:
    """Run each job in its own thread, all released at the same moment; the exceptions
    raised, except those in `refused` (a refusal the job may meet)."""
    barrier = threading.Barrier(len(jobs))
    errors: list[BaseException] = []

    def run(job):
        try:
            barrier.wait()
            job()
        except refused:
            pass
        except BaseException as exc:  # noqa: BLE001 - returned to the test's assertion
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return errors


@pytest.mark.postgres
@pytest.mark.skipif(not settings.USING_POSTGRES, reason="needs PostgreSQL (DATABASE_URL)")
@pytest.mark.django_db(transaction=True)
def test_floors_busting_players_at_the_same_moment_give_each_his_own_place(td):
    """An elimination reads the field under the tournament's lock: six floors busting six
    players at once give places 10 down to 5, each once, as six busts one after another
    would. A field read before the lock was taken would give two of them the same place."""
    tournament = make_tournament(td, tables=2, seats=9)
    seated = _seated(tournament, td, 10)
    errors = _all_at_once(
        [
            lambda e=e: entry_services.entry_eliminate(
                tournament=tournament, entry=e, actor=td, now=NOW
            )
            for e in seated[:6]
        ]
    )
    assert errors == []
    places = sorted(
        Entry.objects.filter(pk__in=[e.pk for e in seated[:6]]).values_list("place", flat=True)
    )
    assert places == [5, 6, 7, 8, 9, 10]
    assert not Seat.objects.filter(entry__in=seated[:6]).exists()


@pytest.mark.postgres
@pytest.mark.skipif(not settings.USING_POSTGRES, reason="needs PostgreSQL (DATABASE_URL)")
@pytest.mark.django_db(transaction=True)
def test_two_floors_busting_the_same_player_at_once_record_him_out_once(td):
    """A lone bust sends the tournament's lock, the player's entry and the field's figures
    in one trip: the entry is still read under the lock. Four floors pressing "out" for the
    same player at the same moment record one bust; the others are told he is not playing,
    and the next player out takes the next place."""
    from tournaments.errors import NotPlaying

    tournament = make_tournament(td, tables=2, seats=9)
    seated = _seated(tournament, td, 10)
    refusals: list[NotPlaying] = []

    def bust():
        try:
            entry_services.entry_eliminate(
                tournament=tournament, entry=seated[0], actor=td, now=NOW
            )
        except NotPlaying as exc:
            refusals.append(exc)

    assert _all_at_once([bust] * 4) == []
    assert len(refusals) == 3
    assert Event.objects.filter(tournament=tournament, action="entry.eliminate").count() == 1
    assert Entry.objects.get(pk=seated[0].pk).place == 10
    entry_services.entry_eliminate(tournament=tournament, entry=seated[1], actor=td, now=NOW)
    assert Entry.objects.get(pk=seated[1].pk).place == 9
