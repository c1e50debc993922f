"""The pure rules of a call's two windows (to answer, then to reach the table) and of the
list order a seat from the list keeps (cash-room.md §6.4)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tables.cash import waitlist
from tables.cash.settings import DEFAULTS, CashSettings
from tables.cash.waitlist import call_status, names_passed_over

NINE = datetime(2026, 11, 25, 21, 0, tzinfo=UTC)


def at(minutes: int) -> datetime:
    return NINE + timedelta(minutes=minutes)


@pytest.mark.parametrize(
    ("coming_after", "now", "state", "deadline", "overdue"),
    [
        (None, 15, "answering", 15, False),  # exactly at the limit: in time
        (None, 16, "no_answer", 15, True),
        (5, 16, "on_the_way", 20, False),  # arrival counted from his answer
        (5, 20, "on_the_way", 20, False),
        (5, 21, "not_arrived", 20, True),
    ],
)
def test_a_call_runs_out_to_answer_then_to_arrive(
    coming_after: int | None, now: int, state: str, deadline: int, overdue: bool
) -> None:
    status = call_status(
        called_at=NINE,
        coming_at=None if coming_after is None else at(coming_after),
        now=at(now),
        settings=CashSettings(arrival_minutes=15),
    )
    assert (status.state, status.deadline, status.overdue) == (state, at(deadline), overdue)


def test_the_arrival_window_is_a_room_setting() -> None:
    assert DEFAULTS.arrival_minutes == 15
    status = call_status(
        called_at=NINE, coming_at=at(1), now=at(4), settings=CashSettings(arrival_minutes=2)
    )
    assert status.state == "not_arrived"


def test_a_seat_out_of_order_names_who_it_jumps() -> None:
    waiting = ["Anna", "Bruno", "Carla", "Dario"]
    # Anna is being called: seating Bruno jumps nobody, seating Dario jumps Bruno and Carla.
    assert names_passed_over(waiting, "Bruno", at=NINE, called={"Anna"}) == ()
    assert names_passed_over(waiting, "Dario", at=NINE, called={"Anna"}) == ("Bruno", "Carla")
    # A called player jumps nobody; names the call would pass over are not jumped.
    assert names_passed_over(waiting, "Dario", at=NINE, called={"Dario"}) == ()
    jumped = names_passed_over(
        waiting,
        "Dario",
        at=NINE,
        table_players=["Zeno"],
        keep_apart=[("Bruno", "Zeno")],
        left_table_at={"Carla": at(-10)},
    )
    assert jumped == ("Anna",)


@pytest.mark.parametrize(
    ("coming_after", "minutes", "starts_after"),
    [
        (None, 5, 5),  # his answer: "coming, in 5 minutes"
        (None, 10, 10),  # the room's most
        (None, 11, None),  # more than the room holds a seat
        (0, 5, 5),  # already coming: his window moves by 5
        (-3, 10, 7),  # coming since 3 minutes: 10 more starts it 7 minutes from now
        (5, 10, None),  # already put off 5: 10 more would be 15 from now
        (None, 0, None),
    ],
)
def test_a_player_who_needs_more_minutes_starts_his_arrival_window_that_much_later(
    coming_after, minutes, starts_after
):
    now = datetime(2026, 1, 1, 21, 0, tzinfo=UTC)
    coming_at = None if coming_after is None else now + timedelta(minutes=coming_after)
    start = waitlist.arrival_put_off(coming_at=coming_at, now=now, minutes=minutes)
    expected = None if starts_after is None else now + timedelta(minutes=starts_after)
    assert start == expected
