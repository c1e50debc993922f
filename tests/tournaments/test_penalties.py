"""Penalties: hands covered, serving, carry-over, moves, misdeals (tournament.md §19)."""

from __future__ import annotations

import pytest

from tournaments.rules.penalties import (
    AnteFormat,
    Blinds,
    Infraction,
    Penalty,
    PenaltyKind,
    deal_hand_during_penalty,
    forced_posts,
    give_penalty,
    hands_counted,
    penalty_hands,
    penalty_window,
    serve,
    suggest_penalty,
)


def rounds_penalty(players: int, rounds: int, served: int = 0) -> Penalty:
    penalty = give_penalty(
        player="P1", kind=PenaltyKind.MISSED_ROUNDS, players_at_table=players, rounds=rounds
    )
    return Penalty(**{**penalty.__dict__, "served": served})


@pytest.mark.parametrize(
    ("players", "rounds", "hands"),
    [(8, 1, 8), (8, 2, 16), (9, 1, 9), (2, 3, 6), (10, 1, 10)],  # PH-01, PH-02
)
def test_missed_rounds_is_players_at_the_table_times_rounds(players, rounds, hands):
    assert penalty_hands(players_at_table=players, rounds=rounds) == hands
    assert rounds_penalty(players, rounds).total_hands == hands


@pytest.mark.parametrize(("players", "rounds"), [(0, 1), (8, 0)])
def test_missed_rounds_needs_players_and_rounds(players, rounds):
    with pytest.raises(ValueError):
        penalty_hands(players_at_table=players, rounds=rounds)


@pytest.mark.parametrize(
    ("events", "counted"),
    [
        ([], 0),
        (["hand"], 1),
        (["misdeal", "redeal"], 1),  # PH-04, TDA-35c
        (["hand", "misdeal", "redeal", "hand"], 3),
        (["misdeal", "misdeal", "redeal"], 1),
        (["end_of_day"], 0),
        (["table_broken", "hand"], 1),
    ],
)
def test_hands_counted(events, counted):
    assert hands_counted(events) == counted


def test_unknown_event_is_refused():
    with pytest.raises(ValueError):
        hands_counted(["shuffle"])


def test_end_of_day_carries_the_rest_to_the_next_day():
    # PH-02 (FIGP §89): 16 hands, 5 served, 11 left for day 2.
    result = serve(rounds_penalty(8, 2, served=5), ["end_of_day"])
    assert result.penalty.remaining == 11
    assert result.carries_to_next_day


def test_a_finished_penalty_does_not_carry_over():
    result = serve(rounds_penalty(8, 1, served=7), ["hand", "end_of_day"])
    assert result.penalty.remaining == 0
    assert not result.carries_to_next_day


def test_moving_tables_never_recomputes_the_count():
    # PH-03: given at 9 players, moved to a 6-player table: still 9 in total.
    result = serve(rounds_penalty(9, 1, served=4), ["table_broken"])
    assert (result.penalty.total_hands, result.penalty.remaining) == (9, 5)


def test_hands_beyond_the_total_are_not_counted():
    result = serve(rounds_penalty(2, 1, served=1), ["hand", "hand", "hand"])
    assert result.hands_counted == 1
    assert result.penalty.remaining == 0


@pytest.mark.parametrize(
    ("hand_number", "total", "served", "first", "last"),
    [(40, 8, 0, 41, 48), (1, 9, 0, 2, 10), (10, 16, 5, 11, 21)],
)
def test_exposed_cards_penalty_starts_after_the_current_hand(
    hand_number, total, served, first, last
):
    window = penalty_window(
        infraction=Infraction.EXPOSED_CARDS_ACTION_PENDING,
        infraction_hand_number=hand_number,
        total_hands=total,
        served=served,
    )
    assert (window.first_hand, window.last_hand) == (first, last)
    assert window.current_hand_still_live  # TDA-68


@pytest.mark.parametrize(
    ("position", "ante_format", "owed"),
    [
        ("bb", AnteFormat.BIG_BLIND_ANTE, 500),
        ("sb", AnteFormat.BIG_BLIND_ANTE, 100),
        ("button", AnteFormat.BIG_BLIND_ANTE, 0),
        ("other", AnteFormat.BIG_BLIND_ANTE, 0),
        ("other", AnteFormat.PER_PLAYER, 25),
        ("sb", AnteFormat.PER_PLAYER, 125),
        ("bb", AnteFormat.NONE, 200),
    ],
)
def test_forced_posts(position, ante_format, owed):
    blinds = Blinds(sb=100, bb=200, ante=300 if ante_format is AnteFormat.BIG_BLIND_ANTE else 25)
    if ante_format is AnteFormat.NONE:
        blinds = Blinds(sb=100, bb=200, ante=0)
    assert forced_posts(blinds=blinds, position=position, ante_format=ante_format) == owed


@pytest.mark.parametrize(
    ("stack", "position", "stack_after", "blinded_out"),
    [
        (10000, "bb", 9600, False),  # PH-06
        (10000, "sb", 9800, False),
        (10000, "other", 10000, False),
        (300, "bb", 0, True),  # he can be blinded out (TDA-71a)
    ],
)
def test_a_hand_dealt_while_away_takes_his_blinds_and_kills_his_hand(
    stack, position, stack_after, blinded_out
):
    hand = deal_hand_during_penalty(
        rounds_penalty(8, 1, served=2),
        stack=stack,
        blinds=Blinds(sb=200, bb=400),
        position=position,
    )
    assert hand.stack_after == stack_after
    assert hand.hand_killed
    assert hand.blinded_out is blinded_out
    assert hand.penalty.remaining == 5


def test_a_served_penalty_no_longer_kills_his_hand():
    hand = deal_hand_during_penalty(
        rounds_penalty(8, 1, served=8), stack=1000, blinds=Blinds(100, 200), position="bb"
    )
    assert not hand.hand_killed
    assert hand.stack_after == 1000


def test_warnings_and_disqualifications_cover_no_hands():
    assert give_penalty(player="P", kind=PenaltyKind.WARNING).total_hands == 0
    assert not give_penalty(player="P", kind=PenaltyKind.DISQUALIFICATION).active
    assert give_penalty(player="P", kind=PenaltyKind.MISSED_HANDS, hands=3).remaining == 3
    with pytest.raises(ValueError):
        give_penalty(player="P", kind=PenaltyKind.MISSED_HANDS)


@pytest.mark.parametrize(
    ("history", "kind", "rounds"),
    [
        ([], PenaltyKind.WARNING, 0),
        ([(PenaltyKind.WARNING, 0)], PenaltyKind.MISSED_ROUNDS, 1),
        ([(PenaltyKind.WARNING, 0), (PenaltyKind.MISSED_ROUNDS, 1)], PenaltyKind.MISSED_ROUNDS, 2),
        ([(PenaltyKind.MISSED_ROUNDS, 3)], PenaltyKind.DISQUALIFICATION, 0),
        # A first penalty of two rounds escalates from there, not from the count of offences.
        ([(PenaltyKind.MISSED_ROUNDS, 2)], PenaltyKind.MISSED_ROUNDS, 3),
    ],
)
def test_escalation_suggestion(history, kind, rounds):
    penalties = [give_penalty(player="P", kind=k, players_at_table=9, rounds=r) for k, r in history]
    suggestion = suggest_penalty(penalties)
    assert (suggestion.kind, suggestion.rounds) == (kind, rounds)
    assert suggestion.previous_offences == len(history)
