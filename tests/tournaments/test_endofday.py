"""End-of-day stop and draw (tournament.md §17, FIGP §59)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tournaments.rules.endofday import (
    EndOfDayRefusal,
    EndOfDaySettings,
    begin_countdown,
    card_value,
    record_hand_start,
    start_countdown,
)


def mmss(minutes: int, seconds: int = 0) -> timedelta:
    return timedelta(minutes=minutes, seconds=seconds)


@pytest.mark.parametrize(
    ("remaining", "card", "hands"),
    [
        (mmss(9, 40), "6s", 6),
        (mmss(15), "3h", 3),  # the window limits are inclusive
        (mmss(5), "7c", 7),
        (mmss(12), "4d", 4),
    ],
)
def test_a_valid_draw_stops_the_clock_and_sets_the_hands(remaining, card, hands):
    decision = start_countdown(
        multi_day=True, is_last_level_of_day=True, level_remaining=remaining, drawn_card=card
    )
    assert decision.valid and decision.clock_stopped
    assert decision.hands_to_play == hands
    assert decision.reasons == ()


@pytest.mark.parametrize(
    ("multi_day", "last_level", "remaining", "card", "reasons"),
    [
        (True, True, mmss(4), "5c", ["stop_outside_window"]),
        (True, True, mmss(15, 1), "5c", ["stop_outside_window"]),
        (True, True, mmss(4, 59), "5c", ["stop_outside_window"]),
        (True, True, mmss(12), "8h", ["card_out_of_range"]),
        (True, True, mmss(12), "2h", ["card_out_of_range"]),
        (True, True, mmss(12), "Ah", ["card_out_of_range"]),
        (False, True, mmss(10), "5c", ["not_multi_day"]),
        (True, False, mmss(10), "5c", ["not_last_level_of_day"]),
        (
            False,
            False,
            mmss(20),
            "Kd",
            ["not_multi_day", "not_last_level_of_day", "stop_outside_window", "card_out_of_range"],
        ),
    ],
)
def test_a_rejected_draw_changes_nothing_and_lists_every_reason_in_order(
    multi_day, last_level, remaining, card, reasons
):
    decision = start_countdown(
        multi_day=multi_day,
        is_last_level_of_day=last_level,
        level_remaining=remaining,
        drawn_card=card,
    )
    assert not decision.valid and not decision.clock_stopped
    assert decision.hands_to_play is None
    assert [str(reason) for reason in decision.reasons] == reasons


def test_the_window_and_cards_are_settings():
    settings = EndOfDaySettings(
        window_latest=mmss(20), window_earliest=mmss(10), card_values=frozenset({2, 3})
    )
    decision = start_countdown(
        multi_day=True,
        is_last_level_of_day=True,
        level_remaining=mmss(18),
        drawn_card="2c",
        settings=settings,
    )
    assert decision.valid and decision.hands_to_play == 2
    refused = start_countdown(
        multi_day=True,
        is_last_level_of_day=True,
        level_remaining=mmss(7),
        drawn_card="5c",
        settings=settings,
    )
    assert refused.reasons == (
        EndOfDayRefusal.STOP_OUTSIDE_WINDOW,
        EndOfDayRefusal.CARD_OUT_OF_RANGE,
    )


@pytest.mark.parametrize(("card", "value"), [("Ts", 10), ("10s", 10), ("7h", 7), ("Qd", 12)])
def test_only_the_rank_counts(card, value):
    assert card_value(card) == value


@pytest.mark.parametrize("card", ["Xs", "", "1h"])
def test_a_card_that_is_not_a_card_is_refused(card):
    with pytest.raises(ValueError):
        card_value(card)


def test_every_table_plays_exactly_the_drawn_number_of_hands():
    decision = start_countdown(
        multi_day=True, is_last_level_of_day=True, level_remaining=mmss(9, 40), drawn_card="3c"
    )
    countdown = begin_countdown(decision, ["T1", "T2"])
    for _ in range(3):
        countdown = record_hand_start(countdown, "T1")
    assert dict(countdown.remaining) == {"T1": 0, "T2": 3}
    assert not countdown.day_over
    with pytest.raises(ValueError):
        record_hand_start(countdown, "T1")
    for _ in range(3):
        countdown = record_hand_start(countdown, "T2")
    assert countdown.day_over


def test_a_rejected_draw_starts_no_countdown():
    decision = start_countdown(
        multi_day=True, is_last_level_of_day=True, level_remaining=mmss(2), drawn_card="3c"
    )
    with pytest.raises(ValueError):
        begin_countdown(decision, ["T1"])
