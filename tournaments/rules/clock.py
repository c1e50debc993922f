"""The tournament clock: levels, breaks and pauses, derived on read
(hand-for-hand's deductions in `handforhand.py`).

Pure rules (DESIGN.md layer 1): no Django, no I/O, no clock reads. The stored
`ClockState` says where the clock was put (item, when it started, time banked before
a pause, a version); everything a screen shows is derived from it, the structure and
`now` by `clock_view`. A running clock rolls over level and break boundaries by itself
when read: nothing ticks. Every operation returns a new state with `version + 1`, so a
task scheduled for a boundary can tell whether the clock has moved since.

Rules: tournament.md §11 (levels, breaks, a new level applies to the next hand), §14.3
and §14.4 (hand-for-hand), §3 (`h4h_minutes_per_hand`, `late_registration_until`,
`ante_format`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any, TypeAlias

H4H_MINUTES_PER_HAND = 2  # tournament.md §3 default; RP-8b "every hand counts as 2 minutes"

ZERO = timedelta(0)


class AnteMode(StrEnum):
    """How the level's ante is posted (tournament.md §7.3, setting `ante_format`)."""

    NONE = "none"
    EACH_PLAYER = "each_player"
    BIG_BLIND_ANTE = "big_blind_ante"


class ClockStatus(StrEnum):
    NOT_STARTED = "not_started"
    SCHEDULED = "scheduled"
    RUNNING = "running"
    PAUSED = "paused"
    FINISHED = "finished"


class ClockError(ValueError):
    """An operation that the clock's current status does not allow."""


class ClockAlreadyRunning(ClockError):
    pass


class ClockNotRunning(ClockError):
    pass


class ClockNotStarted(ClockError):
    pass


class ClockFinished(ClockError):
    pass


# --- Structure -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Level:
    """A play level (tournament.md §11.1). `duration` is in seconds."""

    number: int
    small_blind: int
    big_blind: int
    duration: int
    ante: int = 0
    ante_mode: AnteMode = AnteMode.NONE

    is_break = False


@dataclass(frozen=True, slots=True)
class Break:
    """A break; `color_up` names the denomination coloured up during it (§11.4, §12.2)."""

    duration: int
    color_up: int | None = None

    is_break = True


Item: TypeAlias = Level | Break
Structure: TypeAlias = Sequence[Item]


def validate_structure(structure: Structure) -> None:
    """Raise ValueError unless the structure can drive a clock.

    It needs at least one level, positive durations, strictly increasing level numbers,
    and blinds that are positive with the big blind not below the small blind.
    """
    if not any(isinstance(item, Level) for item in structure):
        raise ValueError("a structure needs at least one level")
    previous_number = None
    for index, item in enumerate(structure):
        if item.duration <= 0:
            raise ValueError(f"item {index}: duration must be positive")
        if isinstance(item, Level):
            if previous_number is not None and item.number <= previous_number:
                raise ValueError(f"item {index}: level numbers must increase")
            if item.small_blind <= 0 or item.big_blind < item.small_blind or item.ante < 0:
                raise ValueError(f"item {index}: blinds must be positive and bb >= sb")
            previous_number = item.number


@dataclass(frozen=True, slots=True)
class LateRegistration:
    """Late registration closes at the end of level `until_level` (setting
    `late_registration_until`, tournament.md §5.3: not in sources), or at the end of
    the break that follows it when `through_break`."""

    until_level: int
    through_break: bool = False


# --- State -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClockState:
    """The stored clock. `started_at` is when the current item would have begun had it
    run without pauses (only meaningful while running); `banked` is the time already
    played in the current item when paused."""

    status: ClockStatus = ClockStatus.NOT_STARTED
    index: int = 0
    started_at: datetime | None = None
    banked: timedelta = ZERO
    scheduled_start: datetime | None = None
    version: int = 0


@dataclass(frozen=True, slots=True)
class _Position:
    status: ClockStatus
    index: int
    elapsed: timedelta


def _duration(item: Item) -> timedelta:
    return timedelta(seconds=item.duration)


def _roll(structure: Structure, index: int, elapsed: timedelta) -> tuple[int, timedelta] | None:
    """Walk forward over finished items; None when the whole structure has run out.

    Intervals are half-open: at exactly zero left the next item is in play, because a
    new level starts when the clock reaches zero (TDA-23, tournament.md §11.2).
    """
    elapsed = max(elapsed, ZERO)
    while index < len(structure):
        duration = _duration(structure[index])
        if elapsed < duration:
            return index, elapsed
        elapsed -= duration
        index += 1
    return None


def _position(structure: Structure, state: ClockState, now: datetime) -> _Position:
    last = len(structure) - 1
    status = state.status
    if status is ClockStatus.NOT_STARTED:
        return _Position(status, state.index, ZERO)
    if status is ClockStatus.FINISHED:
        return _Position(status, last, _duration(structure[last]))
    if status is ClockStatus.SCHEDULED:
        assert state.scheduled_start is not None
        if now < state.scheduled_start:
            return _Position(status, state.index, ZERO)
        status, elapsed = ClockStatus.RUNNING, now - state.scheduled_start
    elif status is ClockStatus.RUNNING:
        assert state.started_at is not None
        elapsed = now - state.started_at
    else:
        elapsed = state.banked
    rolled = _roll(structure, state.index, elapsed)
    if rolled is None:
        return _Position(ClockStatus.FINISHED, last, _duration(structure[last]))
    return _Position(status, rolled[0], rolled[1])


def _state_at(state: ClockState, position: _Position, now: datetime) -> ClockState:
    """Store `position` as a fresh state (a running clock anchored at now), version + 1."""
    running = position.status is ClockStatus.RUNNING
    return ClockState(
        status=position.status,
        index=position.index,
        started_at=now - position.elapsed if running else None,
        banked=position.elapsed if position.status is ClockStatus.PAUSED else ZERO,
        version=state.version + 1,
    )


# --- Operations ------------------------------------------------------------------------


def start(
    structure: Structure, state: ClockState, *, now: datetime, at: datetime | None = None
) -> ClockState:
    """Start the clock now, or schedule it to start at `at` (a countdown to the start).

    Precondition: the clock has not started yet (a scheduled start may be moved).
    """
    position = _position(structure, state, now)
    if position.status not in (ClockStatus.NOT_STARTED, ClockStatus.SCHEDULED):
        raise ClockAlreadyRunning(f"the clock is {position.status}")
    if at is not None and at > now:
        return ClockState(
            status=ClockStatus.SCHEDULED,
            index=state.index,
            scheduled_start=at,
            version=state.version + 1,
        )
    started = at if at is not None else now
    return ClockState(
        status=ClockStatus.RUNNING,
        index=state.index,
        started_at=started,
        version=state.version + 1,
    )


def pause(structure: Structure, state: ClockState, *, now: datetime) -> ClockState:
    """Stop the clock, banking the time already played in the current item."""
    position = _position(structure, state, now)
    if position.status is ClockStatus.FINISHED:
        raise ClockFinished("the structure has run out")
    if position.status is not ClockStatus.RUNNING:
        raise ClockNotRunning(f"the clock is {position.status}")
    return _state_at(state, replace(position, status=ClockStatus.PAUSED), now)


def resume(structure: Structure, state: ClockState, *, now: datetime) -> ClockState:
    """Restart a paused clock where it stopped."""
    position = _position(structure, state, now)
    if position.status is not ClockStatus.PAUSED:
        raise ClockNotRunning(f"only a paused clock resumes; the clock is {position.status}")
    return _state_at(state, replace(position, status=ClockStatus.RUNNING), now)


def _require_started(position: _Position) -> None:
    if position.status in (ClockStatus.NOT_STARTED, ClockStatus.SCHEDULED):
        raise ClockNotStarted("the clock has not started")


def adjust(structure: Structure, state: ClockState, *, now: datetime, seconds: float) -> ClockState:
    """Add `seconds` to the time left in the current item (negative takes time off).

    The result is clamped to the item: never more than its duration, never below zero
    (at zero a running clock moves on to the next item, as when the clock runs out).
    """
    position = _position(structure, state, now)
    _require_started(position)
    if position.status is ClockStatus.FINISHED:
        raise ClockFinished("the structure has run out")
    duration = _duration(structure[position.index])
    elapsed = min(max(position.elapsed - timedelta(seconds=seconds), ZERO), duration)
    return _state_at(state, replace(position, elapsed=elapsed), now)


def jump_to(structure: Structure, state: ClockState, *, now: datetime, index: int) -> ClockState:
    """Put the clock at the start of structure item `index`, keeping it running or paused.

    A clock that has not started is simply positioned there, to start from that item.
    A finished clock comes back paused.
    """
    if not 0 <= index < len(structure):
        raise ValueError(f"no item {index} in the structure")
    position = _position(structure, state, now)
    status = position.status
    if status is ClockStatus.FINISHED:
        status = ClockStatus.PAUSED
    if status in (ClockStatus.NOT_STARTED, ClockStatus.SCHEDULED):
        return replace(state, index=index, version=state.version + 1)
    return _state_at(state, _Position(status, index, ZERO), now)


def jump_to_level(
    structure: Structure, state: ClockState, *, now: datetime, number: int
) -> ClockState:
    """Put the clock at the start of the level numbered `number`."""
    for index, item in enumerate(structure):
        if isinstance(item, Level) and item.number == number:
            return jump_to(structure, state, now=now, index=index)
    raise ValueError(f"no level {number} in the structure")


def next_level(structure: Structure, state: ClockState, *, now: datetime) -> ClockState:
    """Move to the start of the next structure item (a level or a break).

    Past the last item the clock is finished.
    """
    position = _position(structure, state, now)
    _require_started(position)
    if position.status is ClockStatus.FINISHED:
        raise ClockFinished("the structure has run out")
    if position.index + 1 >= len(structure):
        last = len(structure) - 1
        return _state_at(
            state, _Position(ClockStatus.FINISHED, last, _duration(structure[last])), now
        )
    return _state_at(state, _Position(position.status, position.index + 1, ZERO), now)


def previous_level(structure: Structure, state: ClockState, *, now: datetime) -> ClockState:
    """Move to the start of the previous structure item (the first item restarts)."""
    position = _position(structure, state, now)
    _require_started(position)
    status = position.status
    if status is ClockStatus.FINISHED:
        return _state_at(state, _Position(ClockStatus.PAUSED, len(structure) - 1, ZERO), now)
    return _state_at(state, _Position(status, max(position.index - 1, 0), ZERO), now)


def finish(structure: Structure, state: ClockState, *, now: datetime) -> ClockState:
    """Stop the clock for good (the tournament or the day is over)."""
    last = len(structure) - 1
    return _state_at(state, _Position(ClockStatus.FINISHED, last, _duration(structure[last])), now)


# --- Reading ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ColorUpNotice:
    """The colour-up due at the coming break, to announce in advance (§11.4, §12.2)."""

    denomination: int
    break_index: int
    starts_in: timedelta


@dataclass(frozen=True, slots=True)
class ClockView:
    """What the clock shows at `now`. Time-to values of a paused clock assume it is
    resumed now; `ends_at` is set only while running."""

    now: datetime
    status: ClockStatus
    version: int
    index: int
    item: Item
    time_left: timedelta
    elapsed: timedelta
    ends_at: datetime | None
    starts_at: datetime | None
    next_item: Item | None
    next_level: Level | None
    time_to_next_break: timedelta | None
    late_registration_open: bool | None
    late_registration_closes_at: datetime | None
    color_up: ColorUpNotice | None
    estimated_finish: datetime | None

    @property
    def is_break(self) -> bool:
        return isinstance(self.item, Break)

    @property
    def level(self) -> Level | None:
        return self.item if isinstance(self.item, Level) else None

    @property
    def level_number(self) -> int | None:
        return self.item.number if isinstance(self.item, Level) else None

    @property
    def time_to_start(self) -> timedelta | None:
        if self.starts_at is None:
            return None
        return max(self.starts_at - self.now, ZERO)


def _first_level_after(structure: Structure, index: int) -> Level | None:
    for item in structure[index + 1 :]:
        if isinstance(item, Level):
            return item
    return None


def _level_before(structure: Structure, index: int) -> Level | None:
    """The last level at or before `index`."""
    for item in reversed(structure[: index + 1]):
        if isinstance(item, Level):
            return item
    return None


def last_level_at(structure: Structure, index: int) -> Level | None:
    """The level in play at item `index` or, at a break, the last level played before it."""
    return _level_before(structure, index)


def break_after_level(structure: Structure, number: int) -> int | None:
    """The index of the break that directly follows level `number` (None: no such break)."""
    for index, item in enumerate(structure[:-1]):
        if isinstance(item, Level) and item.number == number:
            following = structure[index + 1]
            return index + 1 if isinstance(following, Break) else None
    return None


def _until_end_of(structure: Structure, position: _Position, target: int) -> timedelta:
    """Clock time from the current position to the end of item `target` (>= current)."""
    time = _duration(structure[position.index]) - position.elapsed
    for item in structure[position.index + 1 : target + 1]:
        time += _duration(item)
    return time


def _late_registration_end_index(structure: Structure, late_registration: LateRegistration) -> int:
    """The index of the last item during which late registration is open (-1: none)."""
    end = -1
    for index, item in enumerate(structure):
        if isinstance(item, Level):
            if item.number > late_registration.until_level:
                break
            end = index
        elif late_registration.through_break and end == index - 1 and end >= 0:
            # The break that directly follows level N (or a run of breaks after it).
            level = _level_before(structure, index)
            if level is not None and level.number == late_registration.until_level:
                end = index
    return end


def clock_view(
    structure: Structure,
    state: ClockState,
    now: datetime,
    *,
    late_registration: LateRegistration | None = None,
) -> ClockView:
    """Derive what the clock shows at `now`.

    Precondition: `structure` passes `validate_structure`; `now` is aware.
    """
    position = _position(structure, state, now)
    status, index = position.status, position.index
    item = structure[index]
    time_left = _duration(item) - position.elapsed
    running = status is ClockStatus.RUNNING
    started = status in (ClockStatus.RUNNING, ClockStatus.PAUSED)
    # Where the remaining time is counted from: now, or the scheduled start.
    origin: datetime | None = now if started else None
    if status is ClockStatus.SCHEDULED:
        origin = state.scheduled_start

    next_break: int | None = None
    if status is not ClockStatus.FINISHED:
        for later in range(index + 1, len(structure)):
            if isinstance(structure[later], Break):
                next_break = later
                break
    time_to_next_break = (
        _until_end_of(structure, position, next_break - 1) if next_break is not None else None
    )

    color_up = None
    coming = index if isinstance(item, Break) else next_break
    if status is not ClockStatus.FINISHED and coming is not None:
        coming_break = structure[coming]
        assert isinstance(coming_break, Break)
        if coming_break.color_up is not None:
            starts_in = ZERO if coming == index else _until_end_of(structure, position, coming - 1)
            color_up = ColorUpNotice(coming_break.color_up, coming, starts_in)

    late_open: bool | None = None
    late_closes_at: datetime | None = None
    if late_registration is not None:
        end = _late_registration_end_index(structure, late_registration)
        if status is ClockStatus.FINISHED:
            late_open = False
        elif not started:
            late_open = end >= 0  # the desk registers before the start
        else:
            late_open = index <= end
        if late_open and origin is not None and status is not ClockStatus.PAUSED:
            late_closes_at = origin + _until_end_of(structure, position, end)

    remaining_total = _until_end_of(structure, position, len(structure) - 1)
    return ClockView(
        now=now,
        status=status,
        version=state.version,
        index=index,
        item=item,
        time_left=time_left,
        elapsed=position.elapsed,
        ends_at=now + time_left if running else None,
        starts_at=state.scheduled_start if status is ClockStatus.SCHEDULED else None,
        next_item=structure[index + 1] if index + 1 < len(structure) else None,
        next_level=_first_level_after(structure, index),
        time_to_next_break=time_to_next_break,
        late_registration_open=late_open,
        late_registration_closes_at=late_closes_at,
        color_up=color_up,
        estimated_finish=(
            origin + remaining_total
            if origin is not None and status is not ClockStatus.FINISHED
            else None
        ),
    )


def time_left(structure: Structure, state: ClockState, now: datetime) -> timedelta:
    """Return the time left in the item in play at `now`."""
    position = _position(structure, state, now)
    return _duration(structure[position.index]) - position.elapsed


def next_boundary(structure: Structure, state: ClockState, now: datetime) -> datetime | None:
    """Return when the clock next changes item (or starts), for scheduling announcements.

    None when nothing will change by itself (not started, paused, finished).
    """
    position = _position(structure, state, now)
    if position.status is ClockStatus.SCHEDULED:
        return state.scheduled_start
    if position.status is not ClockStatus.RUNNING:
        return None
    return now + _duration(structure[position.index]) - position.elapsed


DEALER_ROTATION_QUIET = timedelta(seconds=90)  # RP-7: postpone rotations this close


def rotation_should_wait(
    structure: Structure,
    state: ClockState,
    now: datetime,
    *,
    quiet: timedelta = DEALER_ROTATION_QUIET,
) -> bool:
    """Return whether a dealer rotation due at `now` should be postponed.

    Rotations within 90 seconds of a scheduled break or level change wait (RP-7,
    TDA2015-RP-7; tournament.md §11.3). Only a running clock has a boundary coming.
    """
    boundary = next_boundary(structure, state, now)
    position = _position(structure, state, now)
    if boundary is None or position.status is not ClockStatus.RUNNING:
        return False
    return boundary - now <= quiet


def estimated_end(
    structure: Structure, state: ClockState, now: datetime, *, index: int
) -> datetime | None:
    """Return when structure item `index` ends at the current pace.

    A paused clock is assumed to resume now; None for an item already over, or when the
    clock has not been started or scheduled.
    """
    position = _position(structure, state, now)
    if position.status is ClockStatus.FINISHED or index < position.index:
        return None
    if position.status is ClockStatus.NOT_STARTED:
        return None
    origin = now
    if position.status is ClockStatus.SCHEDULED:
        assert state.scheduled_start is not None
        origin = state.scheduled_start
    return origin + _until_end_of(structure, position, index)


def level_for_hand(structure: Structure, state: ClockState, *, hand_started_at: datetime) -> Level:
    """Return the level whose blinds and ante a hand plays: the one in play when it started.

    A new level applies to the next hand started after the clock reaches zero; a hand
    under way finishes at the old level (TDA-23, tournament.md §11.2). A hand started
    during a break plays the level before it (the next level has not begun).
    Precondition: `state` is the clock state in force when the hand started.
    """
    position = _position(structure, state, hand_started_at)
    level = _level_before(structure, position.index)
    if level is None:
        level = _first_level_after(structure, position.index)
    assert level is not None  # validate_structure guarantees a level
    return level


def _seconds(delta: timedelta) -> float:
    return round(delta.total_seconds(), 3)


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _level_payload(level: Level | None) -> dict[str, Any] | None:
    if level is None:
        return None
    return {
        "number": level.number,
        "small_blind": level.small_blind,
        "big_blind": level.big_blind,
        "ante": level.ante,
        "ante_mode": str(level.ante_mode),
    }


def to_payload(view: ClockView) -> dict[str, Any]:
    """Return the JSON-safe clock message displays count down from (STYLE.md 7, 14).

    Screens compute the countdown themselves from `ends_at` and `server_time` while
    running, and show `remaining_seconds` when paused.
    """
    item = view.item
    return {
        "type": "clock",
        "version": view.version,
        "status": str(view.status),
        "server_time": view.now.isoformat(),
        "index": view.index,
        "is_break": view.is_break,
        "level": _level_payload(view.level),
        "duration_seconds": item.duration,
        "remaining_seconds": _seconds(view.time_left),
        "ends_at": _iso(view.ends_at),
        "starts_at": _iso(view.starts_at),
        "next_level": _level_payload(view.next_level),
        "next_break_in_seconds": (
            _seconds(view.time_to_next_break) if view.time_to_next_break is not None else None
        ),
        "late_registration_open": view.late_registration_open,
        "late_registration_closes_at": _iso(view.late_registration_closes_at),
        "color_up": (
            {
                "denomination": view.color_up.denomination,
                "break_index": view.color_up.break_index,
                "starts_in_seconds": _seconds(view.color_up.starts_in),
            }
            if view.color_up is not None
            else None
        ),
        "estimated_finish": _iso(view.estimated_finish),
    }


def format_clock(delta: timedelta) -> str:
    """Format a clock value as zero-padded "mm:ss" (tournament.md §1.1), rounding up
    part seconds so a screen shows 00:00 only when the time is really up."""
    total = max(math.ceil(delta.total_seconds() - 1e-9), 0)
    minutes, seconds = divmod(total, 60)
    return f"{minutes:02d}:{seconds:02d}"


def parse_clock(value: str) -> timedelta:
    """Parse a "mm:ss" clock value (minutes may exceed 59)."""
    minutes, _, seconds = value.partition(":")
    ascii_digits = all(part.isascii() and part.isdigit() for part in (minutes, seconds))
    if not seconds or not ascii_digits or len(minutes) > 6 or int(seconds) > 59:
        raise ValueError(f"not a mm:ss clock value: {value!r}")
    return timedelta(minutes=int(minutes), seconds=int(seconds))
