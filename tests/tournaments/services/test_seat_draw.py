"""The start-of-event draw of every seat (tournament.md §6.1): uniform,
balanced, recorded in the log, undoable, and heard by the screens and tablets.

The draw writes its seats in one statement (no model built): the rows it writes must be
the seats the floor sees, with every column a seat placed any other way has."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from tests.conftest import NOW, make_player, make_tournament
from tournaments import events
from tournaments.models import DisplayScreen, Entry, Player, Seat, Table
from tournaments.services import seats as seat_services


def _entries(tournament, n: int) -> list[Entry]:
    """`n` active entries, none seated yet (as a day's redraw or a bulk import finds them)."""
    return [
        Entry.objects.create(
            tournament=tournament,
            player=make_player(),
            number=i + 1,
            chips=tournament.starting_stack,
            created_at=NOW,
        )
        for i in range(n)
    ]


def _where(tournament) -> dict[int, tuple[int, int]]:
    return {
        entry_id: (table, seat)
        for entry_id, table, seat in Seat.objects.filter(table__tournament=tournament)
        .order_by()
        .values_list("entry_id", "table__number", "number")
    }


@pytest.mark.django_db
def test_a_draw_before_the_start_spreads_over_the_tables_planned_for_the_expected_field(td):
    tournament = make_tournament(td, tables=6, seats=9, expected_entries=40)
    _entries(tournament, 25)
    drawn = seat_services.seats_draw_all(tournament=tournament, actor=td, now=NOW, rng=Random(7))
    # Five tables planned for 40: the 15 still to come fill them evenly, nobody moves.
    assert sorted(Counter(t for t, _s in drawn.values()).values()) == [5, 5, 5, 5, 5]


@pytest.mark.django_db
def test_the_draw_seats_everyone_evenly_and_logs_where(td):
    tournament = make_tournament(td, tables=4, seats=9)
    entries = _entries(tournament, 25)

    drawn = seat_services.seats_draw_all(tournament=tournament, actor=td, now=NOW, rng=Random(7))

    assert _where(tournament) == drawn and set(drawn) == {e.pk for e in entries}
    assert sorted(Counter(t for t, _s in drawn.values()).values()) == [8, 8, 9]
    # A drawn seat is like any other: dealt in at once, sitting there, nothing carried.
    for seat in Seat.objects.filter(table__tournament=tournament):
        assert seat.assigned_at == NOW and seat.arrived and seat.dealt_in == "next_hand"
        assert seat.moved_from == "" and seat.chips_carried_by == ""
    opened = set(Table.objects.filter(tournament=tournament, status="open").values_list("number"))
    assert opened == {(t,) for t, _s in drawn.values()}
    logged = tournament.events.get(action="seats.draw")
    assert logged.data["seated"] == 25
    assert logged.data["assignments"] == {str(e): [t, s] for e, (t, s) in drawn.items()}


def _seats_planned_as() -> float:
    """The number of seats PostgreSQL's planner believes the seats table holds."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE relname = %s", [Seat._meta.db_table])
        return cursor.fetchone()[0]


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_big_draw_leaves_the_planner_knowing_the_seats_it_wrote(
    td, settings, django_capture_on_commit_callbacks
):
    """On a database whose statistics say the seats table is empty, a 1,000-entry draw
    has it analyzed when it commits: the next minute's pages and moves are planned for a
    room of 1,000 seats, not for an empty one (a rebalance took 1.3 s instead of 75 ms
    until autovacuum came round; tournaments/selectors/planner_stats.py)."""
    from django.db import connection

    if not settings.USING_POSTGRES:
        pytest.skip("needs PostgreSQL (DATABASE_URL)")
    tournament = make_tournament(td, tables=112, seats=9)
    players = Player.objects.bulk_create(
        Player(first_name="Mario", last_name=f"Rossi{i}") for i in range(1_000)
    )
    Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, number=i + 1, chips=20_000, created_at=NOW)
        for i, p in enumerate(players)
    )
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {Seat._meta.db_table}")  # none yet, as it believes
    assert _seats_planned_as() < 100

    with django_capture_on_commit_callbacks(execute=True):
        drawn = seat_services.seats_draw_all(tournament=tournament, actor=td, now=NOW)

    assert len(drawn) == 1_000
    assert _seats_planned_as() >= 1_000


@pytest.mark.django_db
def test_undoing_the_draw_frees_every_seat_it_gave(td):
    tournament = make_tournament(td, tables=2, seats=9)
    _entries(tournament, 12)
    seat_services.seats_draw_all(tournament=tournament, actor=td, now=NOW)
    logged = tournament.events.get(action="seats.draw")

    events.event_undo(event_id=logged.pk, tournament=tournament, actor=td, now=NOW)

    assert not Seat.objects.filter(table__tournament=tournament).exists()
    # Drawn again, everyone gets a seat again.
    assert len(seat_services.seats_draw_all(tournament=tournament, actor=td, now=NOW)) == 12


@pytest.mark.django_db
def test_every_seat_is_as_likely_as_any_other():
    """Seven players, three tables of three: whoever he is, a player sits at each of the
    nine seats one draw in nine (three tables of 3, 2, 2, the full one drawn too)."""
    tournament = make_tournament(tables=3, seats=3)
    first, *_others = _entries(tournament, 7)
    rng = Random(2024)
    where: Counter[tuple[int, int]] = Counter()
    draws = 450
    for _ in range(draws):
        drawn = seat_services.seats_draw_all(tournament=tournament, actor=None, now=NOW, rng=rng)
        assert sorted(Counter(t for t, _s in drawn.values()).values()) == [2, 2, 3]
        where[drawn[first.pk]] += 1
        Seat.objects.filter(table__tournament=tournament).delete()
    assert set(where) == {(t, s) for t in (1, 2, 3) for s in (1, 2, 3)}
    # 50 expected at each seat; the bounds are about four standard deviations out.
    assert all(25 <= n <= 75 for n in where.values()), where


@pytest.mark.django_db(transaction=True)
async def test_the_tablets_and_screens_hear_the_draw():
    """Every table's tablet reloads its seats (the push names no table: all changed)."""
    tournament = await database_sync_to_async(make_tournament)(tables=2, seats=9)
    await database_sync_to_async(_entries)(tournament, 10)
    tablet = await database_sync_to_async(DisplayScreen.objects.create)(
        tournament=tournament, name="Tablet 2", kind=DisplayScreen.Kind.TABLE, table_number=2
    )
    socket = WebsocketCommunicator(
        application, f"/ws/screens/{tablet.token}/", headers=[(b"origin", b"http://testserver")]
    )
    assert (await socket.connect(timeout=10))[0]
    assert (await socket.receive_json_from(timeout=5))["type"] == "clock"

    drawn = await database_sync_to_async(seat_services.seats_draw_all)(
        tournament=tournament, actor=None, now=NOW
    )

    assert len(drawn) == 10
    push = await socket.receive_json_from(timeout=5)
    assert push["type"] == "seating" and "at_tables" not in push
    await socket.disconnect()


@pytest.mark.django_db
def test_the_draw_leaves_locked_and_reserved_seats_empty(td):
    """A seat the floor locked (a broken chair) or reserved is out of the full draw, as it
    is out of the draw of one seat: 6 players on two tables of 4 with one seat each taken
    out sit in the other six."""
    tournament = make_tournament(td, tables=2, seats=4)
    Table.objects.filter(tournament=tournament, number=1).update(locked_seats=[2])
    Table.objects.filter(tournament=tournament, number=2).update(reserved_seats=[3])
    _entries(tournament, 6)
    for seed in range(10):
        drawn = seat_services.seats_draw_all(
            tournament=tournament, actor=td, now=NOW, rng=Random(seed)
        )
        assert (1, 2) not in drawn.values() and (2, 3) not in drawn.values()
        assert len(set(drawn.values())) == 6
        Seat.objects.filter(table__tournament=tournament).delete()
