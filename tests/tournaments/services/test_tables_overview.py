"""The room page's overview reads the seats only where the plan looks at them, and keeps its
last plan while nothing it was made from changed: it must show exactly the plan and the
breaches that the whole room gives (the plan shown is the plan applied)."""

from __future__ import annotations

from random import Random

import pytest

from tests.conftest import NOW, make_tournament
from tests.tournaments.services.test_moves import seat_players, started
from tournaments.models import Seat, Table
from tournaments.selectors import tables as room_reads
from tournaments.services import hands as hands_services
from tournaments.services import moves as room
from tournaments.services import seats as seat_services

pytestmark = pytest.mark.django_db


def shown(plan):
    """What the room page shows of a plan (next_hand is not shown, nor made for all)."""
    return (
        plan.halts,
        plan.moves,
        plan.counts_after,
        plan.break_table,
        plan.final_table,
        plan.needs_button,
        plan.unresolved,
        plan.rules,
    )


def assert_as_the_whole_room(tournament) -> room_reads.RoomOverview:
    tournament.refresh_from_db()
    overview = room_reads.room_overview(tournament)
    whole = room_reads.room_load(tournament)
    assert shown(overview.plan) == shown(room_reads.room_plan(tournament=tournament, room=whole))
    assert overview.violations == room_reads.room_check(tournament=tournament, room=whole)
    assert overview.counts == {n: len(seats) for n, seats in whole.seats.items()}
    assert overview.waiting == len(whole.travelling)
    return overview


def random_room(td, rng: Random):
    """Ten tables of random sizes (mostly full: a room that balances rather than breaks),
    some buttons known, some seats locked or reserved, some players still walking to a
    seat; play started (or, now and then, not)."""
    tournament = make_tournament(td, tables=10)
    sizes = [5, 7, 8, 9, 9, 9, 9, 9] if rng.random() < 0.8 else [0, 2, 5, 6, 7, 8, 9]
    layout = {
        number: sorted(rng.sample(range(1, 10), rng.choice(sizes))) for number in range(1, 11)
    }
    seat_players(tournament, {n: seats for n, seats in layout.items() if seats})
    for number, seats in layout.items():
        if len(seats) >= 2 and rng.random() < 0.8:
            hands_services.button_set(
                tournament=tournament,
                table_number=number,
                button=rng.choice(seats),
                actor=td,
                now=NOW,
            )
        free = [s for s in range(1, 10) if s not in seats]
        if free and rng.random() < 0.2:
            room.seat_lock(
                tournament=tournament,
                table_number=number,
                seat=rng.choice(free),
                locked=True,
                actor=td,
                now=NOW,
            )
        if rng.random() < 0.15:
            Table.objects.filter(tournament=tournament, number=number).update(
                reserved_seats=rng.sample(range(1, 10), 2)
            )
    walking = list(Seat.objects.filter(table__tournament=tournament).values_list("pk", flat=True))
    Seat.objects.filter(pk__in=rng.sample(walking, len(walking) // 8)).update(arrived=False)
    if rng.random() < 0.9:
        started(tournament)
    return tournament


@pytest.mark.parametrize("seed", range(16))
def test_the_overview_plans_and_checks_as_the_whole_room(td, seed):
    tournament = random_room(td, Random(seed))
    assert_as_the_whole_room(tournament)
    assert_as_the_whole_room(tournament)  # again, from the plan kept


def test_a_move_names_the_player_now_in_the_seat_though_no_count_changed(tournament, td):
    """The kept plan is dropped when a seat it read changed, even with every table's head
    count and every table's row as they were: a player moved within his table."""
    placed = seat_players(tournament, {1: list(range(1, 10)), 2: [1, 2, 3, 4, 5, 6]})
    for number in (1, 2):
        hands_services.button_set(
            tournament=tournament, table_number=number, button=1, actor=td, now=NOW
        )
    started(tournament)
    before = assert_as_the_whole_room(tournament)
    mover = placed[(1, 4)]  # BB on 3: seat 4 is next hand's big blind and moves
    assert [m.player for m in before.plan.moves] == [str(mover.pk)]
    seat_services.seat_move(
        tournament=tournament, entry=mover, table_number=2, seat=9, actor=td, now=NOW
    )
    seat_services.seat_move(
        tournament=tournament, entry=placed[(1, 5)], table_number=1, seat=4, actor=td, now=NOW
    )
    seat_services.seat_move(
        tournament=tournament, entry=mover, table_number=1, seat=5, actor=td, now=NOW
    )
    assert room_reads.room_overview(tournament).counts == before.counts
    after = assert_as_the_whole_room(tournament)
    assert [m.player for m in after.plan.moves] == [str(placed[(1, 5)].pk)]


def test_a_new_button_or_an_arrival_changes_the_plan_shown(tournament, td):
    placed = seat_players(tournament, {1: list(range(1, 10)), 2: [1, 2, 3, 4, 5, 6]})
    started(tournament)
    assert set(assert_as_the_whole_room(tournament).plan.needs_button) == {"1", "2"}
    for number in (1, 2):
        hands_services.button_set(
            tournament=tournament, table_number=number, button=1, actor=td, now=NOW
        )
    Seat.objects.filter(entry=placed[(1, 4)]).update(arrived=False)  # walking: may not move
    plan = assert_as_the_whole_room(tournament).plan
    assert not plan.needs_button and [m.player for m in plan.moves] == [str(placed[(1, 5)].pk)]
    Seat.objects.filter(entry=placed[(1, 4)]).update(arrived=True)
    plan = assert_as_the_whole_room(tournament).plan
    assert [m.player for m in plan.moves] == [str(placed[(1, 4)].pk)]


def test_a_balanced_room_a_break_and_the_final_table_are_shown_as_the_whole_room(td):
    balanced = make_tournament(td, tables=3)
    seat_players(balanced, {1: list(range(1, 10)), 2: list(range(1, 9)), 3: list(range(2, 10))})
    hands_services.buttons_draw(tournament=balanced, actor=td, now=NOW, rng=Random(7))
    plan = assert_as_the_whole_room(balanced).plan
    assert not plan.moves and not plan.break_table.break_now and not plan.halts
    tournament = make_tournament(td, tables=3)
    seat_players(tournament, {1: [1, 2, 3, 4, 5, 6], 2: [1, 2, 3, 4, 5, 6], 3: [2, 5, 8]})
    hands_services.buttons_draw(tournament=tournament, actor=td, now=NOW, rng=Random(7))
    assert assert_as_the_whole_room(tournament).plan.break_table.break_now
    final = make_tournament(td, tables=2)
    seat_players(final, {1: [1, 2, 3, 4], 2: [1, 2, 3]})
    hands_services.buttons_draw(tournament=final, actor=td, now=NOW, rng=Random(7))
    assert assert_as_the_whole_room(final).plan.final_table.formed
