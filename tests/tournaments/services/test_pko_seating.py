"""Seating a PKO night: accessible seats in every draw and move, breaks that move the
fewest players, and a desk draw that keeps the field balanced before the first hand."""

from __future__ import annotations

from random import Random

import pytest

from tests.conftest import NOW, make_player, make_tournament
from tests.tournaments.services.test_moves import seat_players, started, where
from tournaments import errors
from tournaments.models import Entry, Seat, Table
from tournaments.selectors import tables as room_reads
from tournaments.services import days
from tournaments.services import hands as hands_services
from tournaments.services import moves as room
from tournaments.services import seats as seat_services

pytestmark = pytest.mark.django_db


def needs_access(entry: Entry) -> Entry:
    entry.player.needs_accessible_seat = True
    entry.player.save(update_fields=["needs_accessible_seat"])
    return entry


def accessible(tournament, number: int, seats: list[int]) -> None:
    Table.objects.filter(tournament=tournament, number=number).update(accessible_seats=seats)


@pytest.mark.parametrize("seed", range(8))
def test_the_final_table_redraw_leaves_an_accessible_seat_to_whom_needs_it(td, seed):
    tournament = make_tournament(td, tables=2)
    accessible(tournament, 1, [1])
    placed = seat_players(tournament, {1: [1, 2, 3, 4, 5], 2: [2, 4, 6, 8]})
    needy = needs_access(placed[(1, 1)])
    started(tournament)
    hands_services.buttons_draw(tournament=tournament, actor=td, now=NOW, rng=Random(seed))
    applied = room.plan_apply(tournament=tournament, actor=td, now=NOW, rng=Random(seed))
    assert applied.kind == "final_table" and applied.final_table == 1
    assert where(needy) == (1, 1)
    assert len({where(e) for e in placed.values()}) == 9


@pytest.mark.parametrize("seed", range(8))
def test_a_broken_tables_player_who_needs_it_draws_an_accessible_seat(td, seed):
    tournament = make_tournament(td, tables=3)
    accessible(tournament, 1, [9])
    accessible(tournament, 2, [9])
    placed = seat_players(tournament, {1: [1, 2, 3, 4, 5, 6], 2: [1, 2, 3, 4, 5, 6], 3: [2, 5, 8]})
    needy = needs_access(placed[(3, 5)])
    started(tournament)
    hands_services.buttons_draw(tournament=tournament, actor=td, now=NOW, rng=Random(seed))
    applied = room.plan_apply(tournament=tournament, actor=td, now=NOW, rng=Random(seed))
    assert applied.kind == "break" and applied.broken_table == 3
    table, seat = where(needy)
    assert seat in Table.objects.get(tournament=tournament, number=table).accessible_seats


def test_balancing_never_moves_a_player_out_of_his_accessible_seat(td):
    tournament = make_tournament(td, tables=2)
    accessible(tournament, 1, [4])
    placed = seat_players(tournament, {1: list(range(1, 10)), 2: [1, 2, 3, 4, 5, 6, 7]})
    started(tournament)
    for number in (1, 2):
        hands_services.button_set(
            tournament=tournament, table_number=number, button=1, actor=td, now=NOW
        )
    # Seat 4 is the next big blind at table 1: he would move, but he needs seat 4.
    needy = needs_access(placed[(1, 4)])
    applied = room.plan_apply(tournament=tournament, actor=td, now=NOW)
    assert applied.kind == "balance"
    assert where(needy) == (1, 4)
    assert [m.from_seat for m in applied.moves] == [5]


def test_the_day_two_spread_gives_an_accessible_seat_to_whom_needs_it(td):
    tournament = make_tournament(td, tables=3, redraw_rule="spread")
    accessible(tournament, 2, [7])
    entries = []
    for number in range(1, 13):
        entries.append(
            Entry.objects.create(
                tournament=tournament,
                player=make_player(needs_accessible_seat=number == 1),
                number=number,
                chips=100_000 - number,
                created_at=NOW,
            )
        )
    days.day_redraw(tournament=tournament, actor=td, now=NOW, rng=Random(3))
    assert where(entries[0]) == (2, 7)


def test_the_start_draw_refuses_rather_than_give_an_ordinary_seat(td):
    tournament = make_tournament(td, tables=1)
    Entry.objects.create(
        tournament=tournament,
        player=make_player(needs_accessible_seat=True),
        number=1,
        chips=30000,
        created_at=NOW,
    )
    with pytest.raises(errors.NoAccessibleSeat):
        seat_services.seats_draw_all(tournament=tournament, actor=td, now=NOW, rng=Random(1))
    assert not Seat.objects.exists()


# --- breaks: the fewest moves ------------------------------------------------------------


def test_by_default_the_table_with_the_fewest_players_breaks(td):
    tournament = make_tournament(td, tables=5)
    eight = list(range(1, 9))
    seat_players(tournament, {1: eight, 2: eight, 3: eight, 4: [3], 5: eight})
    started(tournament)
    hands_services.buttons_draw(tournament=tournament, actor=td, now=NOW, rng=Random(4))
    plan = room_reads.room_plan(tournament=tournament)
    assert plan.break_table.table_id == "4"
    applied = room.plan_apply(tournament=tournament, actor=td, now=NOW, rng=Random(4))
    assert applied.kind == "break" and applied.broken_table == 4
    assert len(applied.moves) == 1


def test_the_td_may_set_his_own_break_order(td):
    tournament = make_tournament(td, tables=5, break_rule="list")
    eight = list(range(1, 9))
    seat_players(tournament, {1: eight, 2: eight, 3: eight, 4: [3], 5: eight})
    started(tournament)
    hands_services.buttons_draw(tournament=tournament, actor=td, now=NOW, rng=Random(4))
    applied = room.plan_apply(tournament=tournament, actor=td, now=NOW, rng=Random(4))
    assert applied.kind == "break" and applied.broken_table == 5
    assert len(applied.moves) == 8


# --- the desk's draw before the first hand ------------------------------------------------


def test_registrations_spread_over_the_opened_tables_and_no_seat_changes_at_the_start(td):
    tournament = make_tournament(td, tables=5)
    Table.objects.filter(tournament=tournament).update(status=Table.Status.OPEN)
    rng = Random(9)
    for number in range(1, 31):
        entry = Entry.objects.create(
            tournament=tournament,
            player=make_player(),
            number=number,
            chips=30000,
            created_at=NOW,
        )
        seat_services.seat_assign(tournament=tournament, entry=entry, now=NOW, rng=rng)
        seated = [t.seats.count() for t in Table.objects.filter(tournament=tournament)]
        assert max(seated) - min(seated) <= 1  # balanced within one seat at every moment
    before = {s.entry_id: (s.table_id, s.number) for s in Seat.objects.all()}
    # Thirty players on five opened tables: six each, nobody moved to fill four tables.
    assert room_reads.room_plan(tournament=tournament).moves == ()
    room.seats_even_out(tournament=tournament, actor=td, now=NOW)
    assert {s.entry_id: (s.table_id, s.number) for s in Seat.objects.all()} == before


def _counts(tournament) -> list[int]:
    return [t.seats.count() for t in Table.objects.filter(tournament=tournament).order_by("number")]


def test_registrations_over_the_tables_planned_for_the_expected_field_and_the_start_moves_nobody(
    td,
):
    from tournaments.models import Event
    from tournaments.services import clock as clock_services
    from tournaments.services import entries as entry_services

    tournament = make_tournament(td, tables=8, expected_entries=40)
    assert not Table.objects.filter(tournament=tournament, status=Table.Status.OPEN).exists()
    for _ in range(40):
        entry_services.entry_register(
            tournament=tournament, player=make_player(), actor=td, now=NOW
        )
        counts = _counts(tournament)
        planned = counts[:5]
        # Drawn over the five tables planned for 40 (ceil(40 / 9)), within one seat always.
        assert max(planned) - min(planned) <= 1
        assert counts[5:] == [0, 0, 0]
    assert _counts(tournament) == [8, 8, 8, 8, 8, 0, 0, 0]
    before = {s.entry_id: (s.table_id, s.number) for s in Seat.objects.all()}
    clock_services.clock_start(tournament=tournament, actor=td, now=NOW)
    assert {s.entry_id: (s.table_id, s.number) for s in Seat.objects.all()} == before
    assert not Event.objects.filter(action__in=["seat.move", "room.balance"]).exists()


def test_without_an_expected_field_the_tables_fill_one_at_a_time(td):
    from tournaments.services import entries as entry_services

    tournament = make_tournament(td, tables=8)
    for _ in range(40):
        entry_services.entry_register(
            tournament=tournament, player=make_player(), actor=td, now=NOW
        )
    assert sorted(_counts(tournament), reverse=True)[:5] == [9, 9, 9, 9, 4]
