"""League points (tournaments/rules/leagues.py): the formulas, best N and the stated tie-break."""

from __future__ import annotations

import pytest

from tournaments.rules.leagues import Formula, Result, hundredths, parse_table, preview, standings

TABLE = Formula(kind="table", table=(10, 7, 5, 3, 1))


def test_fixed_table_pays_the_listed_places_and_nothing_beyond():
    rows = standings(
        TABLE,
        [Result(1, 1, place=1, entries=20), Result(2, 1, place=6, entries=20)],
    )
    assert [(r.player, r.points) for r in rows] == [(1, 1000), (2, 0)]


def test_field_size_formula_rewards_a_bigger_field():
    formula = Formula(kind="field_size", base=10)
    small = standings(formula, [Result(1, 1, place=1, entries=16)])[0].points
    big = standings(formula, [Result(1, 1, place=1, entries=100)])[0].points
    assert (small, big) == (4000, 10000)  # 10 x sqrt(16), 10 x sqrt(100)
    assert preview(formula, 4, places=3) == [(1, 2000), (2, 1414), (3, 1155)]


def test_points_for_playing_and_for_bounties_add_up():
    formula = Formula(kind="table", table=(10,), participation=2, bounty=1)
    rows = standings(formula, [Result(1, 1, place=None, entries=30, bounties=3)])
    assert rows[0].points == 500  # 2 for playing + 3 bounties


def test_only_the_best_n_results_count():
    formula = Formula(kind="table", table=(10, 7, 5), best_n=2)
    rows = standings(
        formula,
        [Result(1, e, place=p, entries=10) for e, p in ((1, 3), (2, 1), (3, 2))],
    )
    assert rows[0].points == 1700 and rows[0].events == 3


def test_a_re_entry_counts_once_at_its_best_place():
    rows = standings(TABLE, [Result(1, 1, place=9, entries=20), Result(1, 1, place=2, entries=20)])
    assert rows[0].points == 700 and rows[0].events == 1


def test_ties_broken_by_the_best_single_result_then_shared():
    formula = Formula(kind="table", table=(10, 7, 4))
    results = [
        Result(1, 1, place=2, entries=10),
        Result(1, 2, place=2, entries=10),  # 14, best 7
        Result(2, 1, place=1, entries=10),
        Result(2, 2, place=3, entries=10),  # 14, best 10: ahead
        Result(3, 3, place=2, entries=10),
        Result(3, 4, place=2, entries=10),  # 14, best 7, same events as player 1: shared
    ]
    rows = standings(formula, results)
    assert [(r.rank, r.player, r.shared) for r in rows] == [
        (1, 2, False),
        (2, 1, True),
        (2, 3, True),
    ]


def test_more_wins_rule():
    formula = Formula(kind="table", table=(10, 5))
    results = [
        Result(1, 1, place=2, entries=10),
        Result(1, 2, place=2, entries=10),
        Result(2, 3, place=1, entries=10),
    ]
    rows = standings(formula, results, tie_break="more_wins")
    assert [r.player for r in rows] == [2, 1]


def test_bad_settings_are_refused():
    with pytest.raises(ValueError):
        Formula(kind="nope")
    with pytest.raises(ValueError):
        Formula(best_n=0)
    with pytest.raises(ValueError):
        parse_table("10 x 3")
    assert parse_table("10, 7;5 3") == (10, 7, 5, 3)
    assert hundredths(1250) == "12.5" and hundredths(1200) == "12"
