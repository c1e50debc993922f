"""The room's dealer shifts (cash-room.md §12.8): named by the room, each starting at a time
of day and running until the next one starts. Pure: the moment is passed in."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Shift:
    name: str
    start_minutes: int  # minutes after midnight, room time


def shift_at(minute_of_day: int, shifts: tuple[Shift, ...]) -> Shift | None:
    """The shift running at `minute_of_day`: the one that started last, the latest of the
    day before when none has started yet today (a night shift runs past midnight). None
    when the room defines no shifts."""
    if not shifts:
        return None
    ordered = sorted(shifts, key=lambda s: s.start_minutes)
    started = [s for s in ordered if s.start_minutes <= minute_of_day]
    return started[-1] if started else ordered[-1]
