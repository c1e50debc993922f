"""The start-of-event draw spreads the players evenly over the fewest tables."""

from __future__ import annotations

from random import Random

import pytest

from tables.rules.draw import TableLoad, TableState, choose_table, even_out, planned_tables


def _room(layout: dict[int, int], *, tables: int, seats: int = 9):
    states, seated, player = [], {}, 0
    for number in range(1, tables + 1):
        taken = range(1, layout.get(number, 0) + 1)
        for seat in taken:
            player += 1
            seated[player] = (number, seat)
        states.append(
            TableState(number=number, max_seats=seats, taken=frozenset(taken), opening_order=number)
        )
    return states, seated


def _after(layout, moves):
    counts = dict(layout)
    for move in moves:
        counts[move.from_table] -= 1
        counts[move.to_table] = counts.get(move.to_table, 0) + 1
    return sorted((n for n in counts.values() if n), reverse=True)


@pytest.mark.parametrize(
    ("layout", "tables", "expected", "moves"),
    [
        ({1: 9, 2: 9, 3: 7}, 3, [9, 8, 8], 1),  # 25 on 9-seat tables: never 9/9/7
        ({1: 9, 2: 1}, 4, [5, 5], 4),
        ({1: 9, 2: 9, 3: 9}, 4, [9, 9, 9], 0),
        ({**dict.fromkeys(range(1, 17), 9), 17: 6}, 20, [9] * 14 + [8] * 3, 2),  # the demo's 150
        ({1: 9, 2: 9, 3: 1}, 4, [7, 6, 6], 5),
        ({1: 5, 2: 1, 3: 1}, 4, [7], 2),  # voided entries: fewest tables
    ],
)
def test_the_draw_is_spread_evenly_over_the_fewest_tables(layout, tables, expected, moves):
    states, seated = _room(layout, tables=tables)
    planned = even_out(states, seated, Random(7))
    assert _after(layout, planned) == expected
    assert len(planned) == moves


def test_each_mover_gets_a_free_seat_and_nobody_moves_twice():
    states, seated = _room({1: 9, 2: 2}, tables=3)
    planned = even_out(states, seated, Random(3))
    taken = {(t, s) for t, s in seated.values()}
    destinations = [(m.to_table, m.to_seat) for m in planned]
    assert len(set(destinations)) == len(destinations)
    assert not taken & set(destinations)
    assert len({m.player for m in planned}) == len(planned)


def test_only_the_movable_players_move_the_latest_first():
    states, seated = _room({1: 9, 2: 7}, tables=2)
    planned = even_out(states, seated, Random(1), movable=[9, 8, 7])
    assert [m.player for m in planned] == [9]


def _loads(counts: dict[int, int], *, tables: int, seats: int = 9, opened=frozenset({1})):
    return [
        TableLoad(
            number=n,
            players=counts.get(n, 0),
            free=seats - counts.get(n, 0),
            is_open=n in opened,
            opening_order=n,
        )
        for n in range(1, tables + 1)
    ]


@pytest.mark.parametrize(
    ("expected", "tables", "opened", "seats", "planned"),
    [
        (40, 8, 1, 9, {1, 2, 3, 4, 5}),  # ceil(40 / 9)
        (45, 8, 1, 9, {1, 2, 3, 4, 5}),
        (46, 8, 1, 9, {1, 2, 3, 4, 5, 6}),
        (9, 8, 1, 9, {1}),
        (20, 8, 0, 10, {1, 2}),
        (100, 3, 1, 9, {1, 2, 3}),  # the room holds fewer: every table it has
    ],
)
def test_the_room_plans_the_fewest_tables_that_seat_the_expected_field(
    expected, tables, opened, seats, planned
):
    loads = _loads({}, tables=tables, seats=seats, opened=set(range(1, opened + 1)))
    assert planned_tables(loads, expected) == planned


def test_a_table_the_td_opened_is_planned_first():
    loads = _loads({}, tables=6, opened={5})
    assert planned_tables(loads, 18) == {5, 1}


@pytest.mark.parametrize("seed", range(20))
def test_registrations_over_the_planned_tables_stay_within_one_seat_at_every_moment(seed):
    rng = Random(seed)
    counts: dict[int, int] = {}
    opened: set[int] = {1}
    for _ in range(40):
        loads = _loads(counts, tables=8, opened=opened)
        planned = planned_tables(loads, 40)
        number, opened_now = choose_table(loads, rng, planned=planned)
        assert opened_now == (number not in opened)
        opened.add(number)
        counts[number] = counts.get(number, 0) + 1
        in_plan = [counts.get(n, 0) for n in range(1, 6)]
        assert max(in_plan) - min(in_plan) <= 1
        assert set(counts) <= {1, 2, 3, 4, 5}
    assert sorted(counts.values()) == [8, 8, 8, 8, 8]


def test_without_a_plan_the_tables_open_one_at_a_time_as_they_fill():
    rng = Random(1)
    counts: dict[int, int] = {}
    opened: set[int] = {1}
    for _ in range(40):
        number, _opened = choose_table(_loads(counts, tables=8, opened=opened), rng)
        opened.add(number)
        counts[number] = counts.get(number, 0) + 1
    assert sorted(counts.values(), reverse=True) == [9, 9, 9, 9, 4]
