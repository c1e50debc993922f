"""The dealer shift running at a time of day (cash-room.md §12.8)."""

from __future__ import annotations

import pytest

from tables.cash.shifts import Shift, shift_at

DAY, NIGHT = Shift("Day", 10 * 60), Shift("Night", 18 * 60)


@pytest.mark.parametrize(
    ("minute", "expected"),
    [
        (10 * 60, DAY),  # a shift starts on its minute
        (17 * 60 + 59, DAY),
        (18 * 60, NIGHT),
        (23 * 60 + 59, NIGHT),
        (0, NIGHT),  # past midnight the night shift runs on
        (9 * 60 + 59, NIGHT),
    ],
)
def test_the_shift_that_started_last_is_running(minute, expected):
    assert shift_at(minute, (NIGHT, DAY)) == expected


def test_no_shift_when_the_room_names_none():
    assert shift_at(12 * 60, ()) is None
