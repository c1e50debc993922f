"""The start-of-event draw spreads the players evenly over the fewest tables."""

from __future__ import annotations

from random import Random

import pytest

from tables.draw import TableState, even_out


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
