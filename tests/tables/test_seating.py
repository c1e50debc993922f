"""Wrong-seat correction, seat-in with the daily photo-ID check, absent players' moves."""

from __future__ import annotations

import pytest

from tables.rules.seating import SeatRef, correct_wrong_seat, seat_in, transfer_to_new_seat

DRAWN = SeatRef("T4", 2)


@pytest.mark.parametrize(
    ("observed", "current", "moved"),
    [
        (SeatRef("T4", 6), 18500, True),  # won or lost since: he keeps what he has (TDA-7)
        (SeatRef("T9", 2), 31000, True),  # wrong table altogether
        (DRAWN, 20000, False),  # already right: nothing to do
    ],
)
def test_wrong_seat_moves_the_player_with_his_current_stack(
    observed: SeatRef, current: int, moved: bool
) -> None:
    result = correct_wrong_seat(
        assigned=DRAWN, observed=observed, started_with_correct_stack=True, current_stack=current
    )
    assert result.seat == DRAWN
    assert result.stack == current
    assert result.allowed_to_play
    assert result.moved is moved
    assert not result.td_review


def test_wrong_start_with_wrong_stack_goes_to_the_td() -> None:
    result = correct_wrong_seat(
        assigned=DRAWN,
        observed=SeatRef("T4", 6),
        started_with_correct_stack=False,
        current_stack=25000,
    )
    assert result.td_review
    assert result.seat == DRAWN and result.stack == 25000


@pytest.mark.parametrize(
    ("day", "checked", "allowed"),
    [
        (1, {1}, True),
        (2, {1}, False),  # checked on day 1 only: every restart needs it again (FIGP §50)
        (2, {1, 2}, True),
        (1, set(), False),
    ],
)
def test_seat_in_needs_the_photo_id_checked_that_day(
    day: int, checked: set[int], allowed: bool
) -> None:
    result = seat_in(assigned=DRAWN, day=day, id_checked_days=checked)
    assert result.allowed_to_play is allowed
    assert result.seat == DRAWN  # the seat stays assigned either way
    assert result.reason == (None if allowed else "id_not_verified")


def test_absent_player_chips_are_carried_by_staff_and_he_is_dealt_in() -> None:
    result = transfer_to_new_seat(player="P603", assigned=SeatRef("T5", 2), absent=True)
    assert result.chips_moved_by == "staff"
    assert result.seat_kept == SeatRef("T5", 2)
    assert result.while_absent == "dealt_in_hand_killed"
    assert "RP-16" in result.rules


def test_present_player_carries_his_own_chips() -> None:
    result = transfer_to_new_seat(player="P604", assigned=SeatRef("T5", 3), absent=False)
    assert result.chips_moved_by == "player"
    assert result.while_absent is None
