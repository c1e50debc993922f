"""Conformance adapter for the clock topics: hand_for_hand_clock, end_of_day, time_call.

Translates floor cases (tournament.md §1.2) into calls of `tournaments.rules.clock`,
`tournaments.rules.endofday` and `tournaments.rules.timecalls`, and their results back into the
shape of the case's `expect`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from tournaments.rules import clock, endofday, handforhand, timecalls

# Any fixed instant: the hand-for-hand clock is stopped, so wall time plays no part.
_EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
_NOTIONAL_BLINDS = (100, 200)  # the cases give no blinds; they do not affect the clock


def _level(number: int, duration_seconds: int) -> clock.Level:
    small, big = _NOTIONAL_BLINDS
    return clock.Level(number=number, small_blind=small, big_blind=big, duration=duration_seconds)


def hand_starts(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """Project the clock at each hand-for-hand hand start (§14.3)."""
    count = int(do["count"])
    remaining = clock.parse_clock(given["level"]["remaining_at_announcement"])
    next_duration = int(clock.parse_clock(given["next_level"]["duration"]).total_seconds())
    current_number = int(given["level"]["number"])
    next_number = int(given["next_level"]["number"])
    minutes_per_hand = int(given["minutes_per_hand"])
    # The current level is modelled from the announcement on: its duration is the time
    # left then. Later levels than the one given are not known; enough copies of the
    # next level are added that the projection never runs out of structure.
    structure: list[clock.Item] = [_level(current_number, int(remaining.total_seconds()))]
    hands_needed_minutes = (count + 1) * minutes_per_hand
    extra = hands_needed_minutes * 60 // max(next_duration, 1) + 2
    for offset in range(extra):
        structure.append(_level(next_number + offset, next_duration))
    state = clock.ClockState(status=clock.ClockStatus.PAUSED, index=0)
    starts = handforhand.project_hand_for_hand(
        structure,
        state,
        now=_EPOCH,
        count=count,
        minutes_per_hand=minutes_per_hand,
        announcement_during_hand=bool(given["announcement_during_hand"]),
    )
    return {
        "clock_at_each_hand_start": [
            {"level": start.level_number, "remaining": clock.format_clock(start.remaining)}
            for start in starts
        ],
        "blinds_level_of_each_hand": [start.blinds_level for start in starts],
    }


def all_in_called(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """Hold and resume tables after all-ins called in a hand-for-hand hand (§14.4)."""
    hold = handforhand.hand_for_hand_all_in(
        tables=given["tables"], called_all_in_tables=given["called_all_in_tables"]
    )
    return {
        "hold_cards_face_down": list(hold.hold_cards_face_down),
        "must_finish_first": list(hold.must_finish_first),
        "resume": hold.resume,
        "next_hand_signal_after": hold.next_hand_signal_after,
    }


def start_end_of_day_countdown(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """Validate the end-of-day stop and card draw (§17)."""
    decision = endofday.start_countdown(
        multi_day=bool(given["multi_day"]),
        is_last_level_of_day=bool(given["is_last_level_of_day"]),
        level_remaining=clock.parse_clock(given["level_remaining_at_stop"]),
        drawn_card=given["drawn_card"],
    )
    return {
        "valid": decision.valid,
        "clock_stopped": decision.clock_stopped,
        "hands_to_play_per_table": (
            decision.hands_to_play if decision.hands_to_play is not None else "none"
        ),
        "reasons": [str(reason) for reason in decision.reasons],
    }


def call_time(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """Decide a time call and what happens when the player does not act (§18)."""
    caller = given["caller"]
    approved_by = given.get("approved_by")
    decision = timecalls.call_time(
        rules=timecalls.profile_rules(given["profile"]),
        caller=timecalls.Caller(
            role=timecalls.Role(caller["role"]),
            at_own_seat=bool(caller["at_own_seat"]),
            same_table=bool(caller["same_table"]),
        ),
        facing_bet=bool(given["facing_bet"]),
        seconds_already_used=int(given["seconds_already_used"]),
        approved_by=timecalls.Role(approved_by) if approved_by is not None else None,
    )
    if not decision.accepted:
        assert decision.reason is not None
        return {"accepted": False, "reason": str(decision.reason)}
    then = do.get("then", "no_action")
    if then != "no_action":
        raise ValueError(f"unknown do.then {then!r}")
    assert decision.on_expiry is not None
    return {
        "accepted": True,
        "seconds_before_countdown": decision.seconds_before_countdown,
        "countdown_seconds": decision.countdown_seconds,
        "total_after_call": decision.total_after_call,
        "result": str(decision.on_expiry),
    }


HANDLERS: dict[tuple[str, str], Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]] = {
    ("hand_for_hand_clock", "hand_starts"): hand_starts,
    ("hand_for_hand_clock", "all_in_called"): all_in_called,
    ("end_of_day", "start_end_of_day_countdown"): start_end_of_day_countdown,
    ("time_call", "call_time"): call_time,
}
