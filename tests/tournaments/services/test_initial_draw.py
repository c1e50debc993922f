"""The draw is balanced from the start; movers on their way are never picked again; a
break plan lists every destination."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.conftest import NOW, make_player, make_tournament
from tests.tournaments.services.test_moves import seat_players, started
from tournaments.models import Seat, Table
from tournaments.selectors import tables as room_reads
from tournaments.services import clock as clock_services
from tournaments.services import entries as entry_services
from tournaments.services import hands as hands_services
from tournaments.services import moves as room

pytestmark = pytest.mark.django_db


def _counts(tournament) -> list[int]:
    return sorted(
        (t.seats.count() for t in Table.objects.filter(tournament=tournament) if t.seats.exists()),
        reverse=True,
    )


def _register(tournament, td, n):
    for _ in range(n):
        entry_services.entry_register(
            tournament=tournament, player=make_player(), actor=td, now=NOW
        )


def test_twenty_five_players_start_nine_eight_eight(td, client):
    tournament = make_tournament(td, tables=4, seats=9)
    _register(tournament, td, 25)
    client.force_login(td)
    page = client.get(reverse("room", args=[tournament.slug])).content.decode()
    assert "HALTED" not in page and "unbalanced" not in page
    assert 'data-testid="moves"' in page  # the evening out, shown before it is done
    clock_services.clock_start(tournament=tournament, actor=td, now=NOW)
    assert _counts(tournament) == [9, 8, 8]
    tournament.refresh_from_db()
    assert room_reads.room_check(tournament=tournament) == []


def test_the_demo_room_shows_no_halted_table_before_the_start(td, client):
    tournament = make_tournament(td, tables=20, seats=9)
    _register(tournament, td, 150)
    client.force_login(td)
    page = client.get(reverse("room", args=[tournament.slug])).content.decode()
    assert "HALTED" not in page
    room.plan_apply_all(tournament=tournament, actor=td, now=NOW)
    assert _counts(tournament) == [9] * 14 + [8] * 3


def test_late_entries_still_open_a_new_table_once_play_runs(td):
    tournament = make_tournament(td, tables=4, seats=9)
    _register(tournament, td, 18)
    clock_services.clock_start(tournament=tournament, actor=td, now=NOW)
    assert _counts(tournament) == [9, 9]
    _register(tournament, td, 1)
    assert _counts(tournament) == [9, 9, 1]


def test_the_planner_never_picks_a_player_still_on_the_way_to_a_seat(tournament, td):
    placed = seat_players(tournament, {1: list(range(1, 10)), 2: [1, 2, 3, 4, 5, 6]})
    started(tournament)
    for number in (1, 2):
        hands_services.button_set(
            tournament=tournament, table_number=number, button=1, actor=td, now=NOW
        )
    # The next big blind at table 1 (seat 4) was just moved there and has not sat down.
    Seat.objects.filter(entry=placed[(1, 4)]).update(arrived=False, moved_from="3/2")
    plan = room_reads.room_plan(tournament=tournament)
    movers = {m.player for m in plan.moves}
    assert movers and str(placed[(1, 4)].pk) not in movers


def test_a_table_break_plan_lists_every_destination(td, client):
    tournament = make_tournament(td, tables=3, seats=9)
    seat_players(tournament, {1: [1, 2, 3, 4, 5, 6], 2: [1, 2, 3, 4, 5, 6], 3: [1, 2, 3]})
    started(tournament)
    client.force_login(td)
    page = client.get(reverse("room", args=[tournament.slug])).content.decode()
    assert 'data-testid="break"' in page
    destinations = page.split('data-testid="break-destinations"')[1].split("</ul>")[0]
    assert destinations.count("<li>") == 3
    plan = room_reads.room_plan(tournament=tournament)
    for card in plan.break_table.seat_cards:
        assert f"Table {card.table} · Seat {card.seat}" in destinations
