"""Hand-for-hand on the clock (tournament.md §14.3, §14.4): what the clock shows while
every table plays one hand at a time, the time each hand deducts, the hold for an all-in.

Pure rules, as the clock they read (`tournaments.rules.clock`): no Django, no I/O, time
passed in."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from tournaments.rules.clock import (
    H4H_MINUTES_PER_HAND,
    ZERO,
    Break,
    ClockNotRunning,
    ClockState,
    ClockStatus,
    Structure,
    _duration,
    _Position,
    _position,
    _state_at,
    clock_view,
    level_for_hand,
    next_level,
)


@dataclass(frozen=True, slots=True)
class HandStartClock:
    """The clock as set at a hand-for-hand hand start, and the level that hand plays."""

    level_number: int | None  # None when the clock has reached a break
    remaining: timedelta
    blinds_level: int


def hand_for_hand_deduct(
    structure: Structure,
    state: ClockState,
    *,
    now: datetime,
    minutes_per_hand: int = H4H_MINUTES_PER_HAND,
) -> ClockState:
    """Take one hand's time off the stopped hand-for-hand clock.

    Every hand counts as exactly `minutes_per_hand`, however long it took (RP-8b), taken
    off one hand at a time (RP-8c). Time past the end of a level counts against the next
    level (RP-8d; tournament.md §14.3 [interpretation], case HH-03). Reaching a break
    stops there, with the break's full time: the break is taken when the clock reaches it
    and the overrun is dropped (§14.3 suggested default [not in sources]).
    Precondition: the clock is paused (hand-for-hand stops the running clock).
    """
    position = _position(structure, state, now)
    if position.status is not ClockStatus.PAUSED:
        raise ClockNotRunning("hand-for-hand deducts time from a paused clock")
    index, elapsed = position.index, position.elapsed + timedelta(minutes=minutes_per_hand)
    while True:
        duration = _duration(structure[index])
        if elapsed < duration:
            break
        if index + 1 >= len(structure):
            return _state_at(state, _Position(ClockStatus.FINISHED, index, duration), now)
        elapsed -= duration
        index += 1
        if isinstance(structure[index], Break):
            elapsed = ZERO
            break
    return _state_at(state, _Position(ClockStatus.PAUSED, index, elapsed), now)


def hand_for_hand_hand_start(
    structure: Structure,
    state: ClockState,
    *,
    now: datetime,
    minutes_per_hand: int = H4H_MINUTES_PER_HAND,
    charge_previous_hand: bool = True,
) -> tuple[ClockState, HandStartClock]:
    """Set the stopped clock for a new hand-for-hand hand and say which level it plays.

    The previous hand is charged at this start; the hand in progress at the
    announcement counts too (RP-8b), so `charge_previous_hand` is false only for the
    first hand when hand-for-hand was announced between hands. The hand plays the level
    the clock shows at its start (TDA-23: a new level applies to the next hand).
    Precondition: the clock is paused.
    """
    if charge_previous_hand:
        state = hand_for_hand_deduct(structure, state, now=now, minutes_per_hand=minutes_per_hand)
    view = clock_view(structure, state, now)
    level = level_for_hand(structure, state, hand_started_at=now)
    return state, HandStartClock(view.level_number, view.time_left, level.number)


def project_hand_for_hand(
    structure: Structure,
    state: ClockState,
    *,
    now: datetime,
    count: int,
    minutes_per_hand: int = H4H_MINUTES_PER_HAND,
    announcement_during_hand: bool = True,
) -> list[HandStartClock]:
    """Project the clock at each of the next `count` hand-for-hand hand starts.

    Real hand durations play no part (RP-8b). A break the clock reaches is assumed to be
    taken before the next hand (§14.3 suggested default), so that hand starts at the
    level after the break.
    Precondition: the clock is paused at the announcement.
    """
    starts: list[HandStartClock] = []
    for hand in range(count):
        state, start_clock = hand_for_hand_hand_start(
            structure,
            state,
            now=now,
            minutes_per_hand=minutes_per_hand,
            charge_previous_hand=hand > 0 or announcement_during_hand,
        )
        while isinstance(structure[state.index], Break) and state.status is ClockStatus.PAUSED:
            state = next_level(structure, state, now=now)
            view = clock_view(structure, state, now)
            start_clock = HandStartClock(view.level_number, view.time_left, view.level_number or 0)
        starts.append(start_clock)
        if state.status is ClockStatus.FINISHED:
            break
    return starts


@dataclass(frozen=True, slots=True)
class AllInHold:
    """What to do when all-ins are called during a hand-for-hand hand (§14.4)."""

    hold_cards_face_down: tuple[str, ...]
    must_finish_first: tuple[str, ...]
    resume: str = "one_at_a_time_after_others_finish"
    next_hand_signal_after: str = "all_tables_complete"
    rules: tuple[str, ...] = ("RP-8f", "FIGP §60")


def hand_for_hand_all_in(
    *, tables: Sequence[str], called_all_in_tables: Sequence[str]
) -> AllInHold:
    """Decide which tables hold their cards face down and which must finish first.

    A table with a called all-in stops with every hand face down and waits until every
    other table has finished the hand (RP-8f, FIGP §60); several such tables resume one
    at a time in the TD's order; the next hand is signalled only when all have finished.
    Precondition: every called table is one of `tables`.
    """
    called = set(called_all_in_tables)
    unknown = called.difference(tables)
    if unknown:
        raise ValueError(f"tables not playing this hand: {sorted(unknown)}")
    return AllInHold(
        hold_cards_face_down=tuple(table for table in tables if table in called),
        must_finish_first=tuple(table for table in tables if table not in called),
    )


def hand_for_hand_next_hand_ready(finished: Sequence[bool]) -> bool:
    """Return whether the next hand-for-hand hand may be signalled (every table done)."""
    return all(finished)
