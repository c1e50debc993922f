"""The jackpot rules beyond the worked cases: money is never created or lost in a split,
wrong cards are refused rather than judged, settings that cannot work are refused, and every
reason a judgement gives has words in both languages."""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from tables.cash.jackpot import (
    REASONS,
    BadBeatRule,
    ClaimedHand,
    DropRule,
    Funds,
    FundShares,
    HighHandRule,
    best_five,
    drop_for_hand,
    game_key,
    hand_rank,
    judge_bad_beat,
    judge_high_hand,
    period_of,
    roll_over,
    split_bad_beat,
    split_drop,
    split_high_hand,
)
from tables.engine.errors import InvalidCards
from tables.ruling.jackpot_labels import REASON_TEXTS, reason_texts

BOARD = ("Ac", "Kd", "Ks", "7c", "2h")


def test_notation_ignores_order_and_refuses_impossible_hands() -> None:
    assert hand_rank("TTAAA") == hand_rank("AAATT") == hand_rank("aaatt")
    assert hand_rank("AKQJTs") == 1  # the royal flush
    assert hand_rank("AKQJTs") < hand_rank("KKKK2") < hand_rank("AAATT") < hand_rank("AKQJT")
    for bad in ("AAAT", "AAATTT", "AAAAA", "AAKQJs", "AAAXT", ""):
        with pytest.raises(ValueError):
            hand_rank(bad)


@pytest.mark.parametrize(
    "loser, winner, board",
    [
        (("Ah", "Ah"), ("Kh", "Kc"), BOARD),  # one card twice in a hand
        (("Ah", "Ad"), ("Ac", "Kc"), BOARD),  # a hole card also on the board
        (("Ah", "Ad", "8s"), ("Kh", "Kc"), BOARD),  # three hole cards in hold'em
        (("Ah", "Ad"), ("Kh", "Kc"), (*BOARD, "3d")),  # six board cards
        (("Ah", "Zd"), ("Kh", "Kc"), BOARD),  # not a card
    ],
)
def test_wrong_cards_are_refused_not_judged(loser, winner, board) -> None:
    with pytest.raises(InvalidCards):
        judge_bad_beat(
            BadBeatRule(),
            game="holdem",
            board=board,
            loser=ClaimedHand(1, loser),
            winner=ClaimedHand(2, winner),
            players_dealt=6,
        )


def test_two_hands_cannot_name_one_seat() -> None:
    with pytest.raises(InvalidCards):
        judge_bad_beat(
            BadBeatRule(),
            game="holdem",
            board=BOARD,
            loser=ClaimedHand(4, ("Ah", "Ad")),
            winner=ClaimedHand(4, ("Kh", "Kc")),
            players_dealt=6,
        )


def test_cards_are_read_in_any_case_and_shown_canonical() -> None:
    j = judge_bad_beat(
        BadBeatRule(),
        game="holdem",
        board=("ac", "KD", "Ks", "7c", "2H"),
        loser=ClaimedHand(1, ("aH", "Ad")),
        winner=ClaimedHand(2, ("kh", "Kc")),
        players_dealt=6,
    )
    assert j.pay and j.reasons == ("bad_beat_qualifies",)
    assert best_five("holdem", ("Ah", "Ad"), BOARD) == ("Ah", "Ad", "Ac", "Kd", "Ks")


def test_a_game_the_evaluator_does_not_know_is_not_covered() -> None:
    j = judge_high_hand(
        HighHandRule(),
        game="stud",
        board=BOARD,
        hand=ClaimedHand(1, ("Ah", "Ad")),
        current_best_rank=None,
    )
    assert (j.pay, j.reasons, j.winner_rank) == (False, ("game_not_covered",), None)


@pytest.mark.parametrize(
    "make",
    [
        lambda: FundShares(main=700, backup=200, next=50),
        lambda: FundShares(main=1100, backup=-100, next=0),
        lambda: BadBeatRule(share_loser=600),
        lambda: BadBeatRule(min_players_dealt=1),
        lambda: BadBeatRule(min_losing_hand="aces full"),
        lambda: DropRule(kind="percent"),
        lambda: DropRule(kind="share", share_per_mille=1200),
        lambda: DropRule(kind="fixed", fixed_cents=-100),
        lambda: HighHandRule(period="week"),
        lambda: HighHandRule(prize_cents=-1),
    ],
)
def test_settings_that_cannot_work_are_refused(make) -> None:
    with pytest.raises(ValueError):
        make()


@given(
    drop=st.integers(0, 10**9),
    main=st.integers(0, 1000),
    backup=st.integers(0, 1000),
)
def test_a_drop_split_into_the_funds_sums_to_the_drop(drop: int, main: int, backup: int) -> None:
    backup = min(backup, 1000 - main)
    funds = split_drop(drop, FundShares(main=main, backup=backup, next=1000 - main - backup))
    assert sum(funds.values()) == drop and min(funds.values()) >= 0


@given(
    amount=st.integers(0, 10**10),
    shares=st.lists(st.integers(0, 1000), min_size=3, max_size=3),
    others=st.integers(0, 9),
)
def test_a_bad_beat_split_pays_exactly_the_amount(amount: int, shares: list[int], others: int):
    loser, winner, table = shares
    winner = min(winner, 1000 - loser)
    table = min(table, 1000 - loser - winner)
    rule = BadBeatRule(
        min_players_dealt=2,
        share_loser=loser,
        share_winner=winner,
        share_table=table,
        share_room=1000 - loser - winner - table,
    )
    split = split_bad_beat(
        amount, rule, loser_seat=1, winner_seat=2, other_seats=list(range(3, 3 + others))
    )
    assert sum(split.values()) == amount and min(split.values()) >= 0
    table_parts = [v for k, v in split.items() if k.startswith("table:")]
    assert len(table_parts) == others
    assert not table_parts or max(table_parts) - min(table_parts) <= 1


@given(amount=st.integers(0, 10**9), ways=st.integers(1, 10))
def test_a_tied_high_hand_split_pays_exactly_the_prize(amount: int, ways: int) -> None:
    split = split_high_hand(amount, list(range(ways)))
    assert sum(split.values()) == amount
    assert max(split.values()) - min(split.values()) <= 1


def test_roll_overs_keep_every_cent_held_for_the_players() -> None:
    funds = Funds(main=50000, backup=20000, next=7000)
    after = roll_over(funds, 20000)  # a fixed prize: nothing moves
    assert after == Funds(30000, 20000, 7000)
    after = roll_over(after, 30000)  # the whole main: the backup and next move up
    assert after == Funds(20000, 7000, 0)
    assert after.total == funds.total - 50000
    with pytest.raises(ValueError):
        roll_over(after, 20001)
    with pytest.raises(ValueError):
        split_high_hand(100, [3, 3])


def test_periods_keep_the_rooms_timezone_and_refuse_a_shift_period_without_shifts() -> None:
    rome = ZoneInfo("Europe/Rome")
    at = datetime(2026, 3, 6, 23, 30, tzinfo=rome)
    start, end = period_of(
        HighHandRule(period="shift"), at, day_start_minutes=360, shift_starts=[1320, 360, 840]
    )
    assert (start, end) == (
        datetime(2026, 3, 6, 22, 0, tzinfo=rome),
        datetime(2026, 3, 7, 6, 0, tzinfo=rome),
    )
    with pytest.raises(ValueError):
        period_of(HighHandRule(period="shift"), at, day_start_minutes=360, shift_starts=[])


def test_a_drop_never_exceeds_the_pot() -> None:
    rule = DropRule(kind="fixed", fixed_cents=500, min_pot_cents=0, cap_cents=None)
    assert drop_for_hand(rule, game="holdem", pot_cents=300, flop_dealt=True) == 300


@pytest.mark.parametrize(
    "variant, key",
    [
        ("Hold'em", "holdem"),
        ("NLH", "holdem"),
        ("Texas Hold'em", "holdem"),
        ("PLO", "omaha"),
        ("Omaha", "omaha"),
        ("Omaha Hi/Lo", "omahahilo"),
        ("Stud", "stud"),
    ],
)
def test_the_rooms_variant_names_map_to_the_jackpots_games(variant: str, key: str) -> None:
    assert game_key(variant) == key


def test_every_reason_has_words_in_english_and_italian() -> None:
    assert set(REASON_TEXTS) == set(REASONS)
    with translation.override("en"):
        english = reason_texts(REASONS)
    with translation.override("it"):
        italian = reason_texts(REASONS)
    assert all(english) and all(italian)
    assert [e for e, i in zip(english, italian, strict=True) if e == i] == []
    assert italian[REASONS.index("bad_beat_qualifies")] == (
        "Il bad beat è valido: il jackpot viene pagato."
    )


def test_a_rule_kept_as_its_fields_comes_back_the_same() -> None:
    """The room keeps its rules as their fields; nothing derived is among them."""
    for rule in (
        BadBeatRule(min_losing_hand="KKKK2", winner_must_qualify=True),
        HighHandRule(period="shift", min_hand="AKQJTs", prize_cents=25000),
        DropRule(kind="share", share_per_mille=10, cap_cents=None),
    ):
        assert type(rule)(**asdict(rule)) == rule
