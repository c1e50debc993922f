"""Settling a hand's eliminations: places, shared places, prizes (tournament.md §14.2, §15)."""

from __future__ import annotations

import pytest

from tournaments.rules.placements import (
    Elimination,
    EliminationReason,
    SameHandRule,
    bubble_group_shares,
    settle_eliminations,
)

BUBBLE_PRIZES = {47: 420, 48: 380, 49: 330, 50: 300}
FT_PRIZES = {1: 10000, 2: 6000, 3: 4000, 4: 3000, 5: 2500, 6: 2000, 7: 1200, 8: 1000, 9: 800}


def out(
    player: str, table: str, stack: int, reason: EliminationReason | None = None
) -> Elimination:
    if reason is None:
        return Elimination(player=player, table=table, start_stack=stack)
    return Elimination(player=player, table=table, start_stack=stack, reason=reason)


def shape(settlement):
    return [(set(g.players), g.places, g.payout_each) for g in settlement.groups]


@pytest.mark.parametrize(
    ("rule", "remaining", "h4h", "announcement", "eliminated", "groups"),
    [
        # BS-01 (RP-8a): three at three tables in the announcement hand share the 50th.
        (
            SameHandRule.FIGP,
            52,
            True,
            True,
            [out("P1", "T1", 5000), out("P2", "T4", 9000), out("P3", "T7", 2500)],
            [({"P1", "P2", "P3"}, (50, 51, 52), 100)],
        ),
        # Same facts under tda_share_all: the same.
        (
            SameHandRule.TDA_SHARE_ALL,
            52,
            True,
            True,
            [out("P1", "T1", 5000), out("P2", "T4", 9000), out("P3", "T7", 2500)],
            [({"P1", "P2", "P3"}, (50, 51, 52), 100)],
        ),
        # BS-04: same table, larger starting stack finishes higher.
        (
            SameHandRule.FIGP,
            51,
            True,
            False,
            [out("P9", "T4", 12000), out("P10", "T4", 7500)],
            [({"P9"}, (50,), 300), ({"P10"}, (51,), 0)],
        ),
        # BS-05: the same under tda_share_all: they share the 50th.
        (
            SameHandRule.TDA_SHARE_ALL,
            51,
            True,
            False,
            [out("P9", "T4", 12000), out("P10", "T4", 7500)],
            [({"P9", "P10"}, (50, 51), 150)],
        ),
        # BS-06: different tables, tied, no paid place reached.
        (
            SameHandRule.FIGP,
            53,
            True,
            False,
            [out("P11", "T2", 6000), out("P12", "T8", 900)],
            [({"P11", "P12"}, (52, 53), 0)],
        ),
        # Two paid places reached by three players: they share 49th + 50th.
        (
            SameHandRule.FIGP,
            51,
            True,
            False,
            [out("A", "T1", 1), out("B", "T2", 1), out("C", "T3", 1)],
            [({"A", "B", "C"}, (49, 50, 51), 210)],
        ),
        # Inside the money, different tables: 47+48 shared.
        (
            SameHandRule.FIGP,
            48,
            True,
            False,
            [out("A", "T1", 10), out("B", "T2", 20)],
            [({"A", "B"}, (47, 48), 400)],
        ),
        # tda_share_all outside hand-for-hand: ordered by starting stack, like FIGP.
        (
            SameHandRule.TDA_SHARE_ALL,
            8,
            False,
            False,
            [out("P21", "FT", 150000), out("P22", "FT", 90000)],
            [({"P21"}, (7,), 1200), ({"P22"}, (8,), 1000)],
        ),
    ],
)
def test_same_hand_eliminations(rule, remaining, h4h, announcement, eliminated, groups):
    prizes = FT_PRIZES if remaining <= 9 else BUBBLE_PRIZES
    paid = 9 if remaining <= 9 else 50
    result = settle_eliminations(
        remaining_before_hand=remaining,
        eliminated=eliminated,
        prizes=prizes,
        paid_places=paid,
        rule=rule,
        hand_for_hand=h4h,
        announcement_hand=announcement,
    )
    assert shape(result) == groups
    assert result.remaining_after == remaining - len(eliminated)
    assert not result.tournament_over


def test_lone_elimination_takes_the_place_of_the_players_left():
    result = settle_eliminations(
        remaining_before_hand=37,
        eliminated=[out("P20", "T3", 4100)],
        prizes={27: 150},
        paid_places=27,
    )
    assert shape(result) == [({"P20"}, (37,), 0)]
    assert result.payout == {"P20": 0}
    assert result.chips_removed_from_play == 0


def test_last_elimination_ends_the_tournament_and_names_the_winner():
    result = settle_eliminations(
        remaining_before_hand=2,
        eliminated=[out("P23", "FT", 80000)],
        prizes=FT_PRIZES,
        paid_places=9,
        other_players=["P24"],
    )
    assert shape(result) == [({"P23"}, (2,), 6000)]
    assert result.winner == "P24"
    assert result.tournament_over
    assert result.payout == {"P23": 6000, "P24": 10000}


def test_penalty_elimination_keeps_the_prize_and_removes_the_chips():
    result = settle_eliminations(
        remaining_before_hand=20,
        eliminated=[out("P25", "T2", 14000, EliminationReason.PENALTY_ELIMINATION)],
        prizes={20: 250},
        paid_places=27,
    )
    assert shape(result) == [({"P25"}, (20,), 250)]
    assert result.chips_removed_from_play == 14000
    assert "FIGP §87d" in result.groups[0].rule_ids


def test_disqualified_player_gets_no_place_prize_or_refund():
    result = settle_eliminations(
        remaining_before_hand=20,
        eliminated=[out("P26", "T2", 9000, EliminationReason.DISQUALIFICATION)],
        prizes={20: 250, 19: 260},
        paid_places=27,
    )
    assert result.groups == ()
    assert result.disqualified == {"P26"}
    assert result.payout == {"P26": 0}
    assert result.refund == {"P26": 0}
    assert result.chips_removed_from_play == 9000
    assert result.remaining_after == 19


def test_disqualification_in_the_same_hand_does_not_take_a_place():
    # [interpretation] the DQ'd player occupies no place: the bust takes 19th, not 20th.
    result = settle_eliminations(
        remaining_before_hand=20,
        eliminated=[
            out("P26", "T2", 9000, EliminationReason.DISQUALIFICATION),
            out("P27", "T2", 3000),
        ],
        prizes={20: 250, 19: 260},
        paid_places=27,
    )
    assert shape(result) == [({"P27"}, (19,), 260)]
    assert result.remaining_after == 18


def test_blinded_out_while_absent_keeps_place_and_prize():
    result = settle_eliminations(
        remaining_before_hand=9,
        eliminated=[out("P6", "FT", 400, EliminationReason.BLINDED_OUT_WHILE_ABSENT)],
        prizes=FT_PRIZES,
        paid_places=9,
    )
    assert shape(result) == [({"P6"}, (9,), 800)]
    assert result.chips_removed_from_play == 0  # his chips went into the pots


def test_equal_stacks_at_one_table_share_and_ask_the_td():
    result = settle_eliminations(
        remaining_before_hand=8,
        eliminated=[out("A", "FT", 5000), out("B", "FT", 5000)],
        prizes=FT_PRIZES,
        paid_places=9,
    )
    assert shape(result) == [({"A", "B"}, (7, 8), 1100)]
    assert result.needs_td_confirmation
    assert "equal_start_stacks_same_table" in result.confirmation_reasons


def test_mixed_tables_proposes_an_order_and_asks_the_td():
    result = settle_eliminations(
        remaining_before_hand=53,
        eliminated=[out("A1", "T1", 10000), out("A2", "T1", 5000), out("B1", "T2", 7000)],
        prizes=BUBBLE_PRIZES,
        paid_places=50,
        hand_for_hand=True,
    )
    assert shape(result) == [({"A1", "B1"}, (51, 52), 0), ({"A2"}, (53,), 0)]
    assert result.needs_td_confirmation


def test_uneven_split_reports_the_euros_left_over():
    result = settle_eliminations(
        remaining_before_hand=52,
        eliminated=[out("A", "T1", 1), out("B", "T2", 1), out("C", "T3", 1)],
        prizes={50: 301},
        paid_places=50,
        hand_for_hand=True,
    )
    group = result.groups[0]
    assert (group.payout_each, group.undivided) == (100, 1)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"remaining_before_hand": 1, "eliminated": [out("A", "T1", 1), out("B", "T1", 2)]},
        {"remaining_before_hand": 5, "eliminated": [out("A", "T1", 1), out("A", "T2", 2)]},
    ],
)
def test_impossible_settlements_are_refused(kwargs):
    with pytest.raises(ValueError):
        settle_eliminations(prizes={}, paid_places=1, **kwargs)


@pytest.mark.parametrize(
    ("remaining", "k", "paid", "shares"),
    [
        (52, 3, 50, (50,)),
        (51, 2, 50, (50,)),
        (53, 2, 50, ()),
        (51, 3, 50, (49, 50)),
        (10, 2, 50, (9, 10)),
    ],
)
def test_bubble_group_shares(remaining, k, paid, shares):
    assert (
        bubble_group_shares(remaining_before_hand=remaining, eliminated_count=k, paid_places=paid)
        == shares
    )


def test_tda_share_all_shares_a_bubble_hand_even_without_hand_for_hand():
    result = settle_eliminations(
        remaining_before_hand=51,
        eliminated=[out("P9", "T4", 12000), out("P10", "T4", 7500)],
        prizes=BUBBLE_PRIZES,
        paid_places=50,
        rule=SameHandRule.TDA_SHARE_ALL,
    )
    assert shape(result) == [({"P9", "P10"}, (50, 51), 150)]
    assert "RP-8a" in result.groups[0].rule_ids
