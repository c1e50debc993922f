"""The satellite rules beyond the public cases."""

from __future__ import annotations

from tournaments.rules import satellites as s
from tournaments.rules.placements import Elimination


def test_leftover_split_among_the_seat_winners_from_first_place_down() -> None:
    result = s.satellite_seats(
        entries=25,
        prize_part=3001,
        seat_value=30000,
        leftover_mode=s.LeftoverMode.SPLIT_SEAT_WINNERS,
    )
    assert result.leftover == 75025 - 60000
    assert result.cash_prizes == {1: 7513, 2: 7512}
    assert result.paid_places == 2


def test_the_leftover_unit_defaults_to_twice_the_prize_part() -> None:
    result = s.satellite_seats(
        entries=27,
        prize_part=3000,
        seat_value=30000,
        leftover_mode=s.LeftoverMode.NEXT_PLACES_IN_UNITS,
    )
    # GG-SAT, 27 entrants: $60, $60, $60, $30
    assert result.cash_prizes == {3: 6000, 4: 6000, 5: 6000, 6: 3000}


def test_an_overshoot_still_wins_seats() -> None:
    # 12 left, 10 seats, three out at one table: the best of them finishes 10th (a seat).
    result = s.satellite_bubble(
        seats=10,
        seat_value=1000,
        cash_prizes={11: 500},
        remaining_before_hand=12,
        hand_for_hand=True,
        eliminated=[
            Elimination("A", "T1", 300),
            Elimination("B", "T1", 200),
            Elimination("C", "T1", 100),
        ],
        other_players=[f"P{i}" for i in range(9)],
    )
    assert "A" in result.seat_winners
    assert result.cash == {"A": 0, "B": 500, "C": 0}
    assert result.satellite_over


def test_a_second_seat_can_be_paid_in_cash() -> None:
    award = s.award_seat(
        already_holds_seat=True,
        seat_value=110000,
        duplicate_seat_award=s.DuplicateSeatAward.CASH,
    )
    assert (award.kind, award.amount) == (s.SeatAwardKind.CASH, 110000)
    assert s.award_seat(already_holds_seat=False, seat_value=1).kind is s.SeatAwardKind.SEAT


def test_the_cash_bubble_comes_before_the_seat_bubble() -> None:
    assert s.satellite_status(seats=4, last_paid_place=5, remaining=6).status is (
        s.SatelliteStatus.CASH_BUBBLE
    )
    assert s.satellite_status(seats=4, last_paid_place=5, remaining=5).status is (
        s.SatelliteStatus.SEAT_BUBBLE
    )
    status = s.satellite_status(seats=4, last_paid_place=5, remaining=9)
    assert status.status is s.SatelliteStatus.IN_PROGRESS
    assert not status.hand_for_hand_suggested
    assert s.satellite_status(seats=4, last_paid_place=5, remaining=4).status is (
        s.SatelliteStatus.SEATS_AWARDED
    )
