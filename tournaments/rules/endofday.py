"""End of a playing day: the FIGP "final hands" countdown (tournament.md §17, FIGP §59).

Pure rules: no Django, no I/O, no clock reads. Between 15 and 5 minutes before the end
of the day's last level the TD stops the clock, a player draws a card from 3 to 7, and
every table plays exactly that many more hands. `start_countdown` validates the whole
action (a rejected one changes nothing); `EndOfDayCountdown` counts hands down per table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from enum import StrEnum
from types import MappingProxyType

RANK_VALUES = {
    "A": 1,  # the ace is outside 3-7 whether it counts 1 or 14
    "K": 13,
    "Q": 12,
    "J": 11,
    "T": 10,
    **{str(value): value for value in range(2, 10)},
}


class EndOfDayRefusal(StrEnum):
    """Why the countdown cannot start, in the order the checks are reported (§1.2)."""

    NOT_MULTI_DAY = "not_multi_day"
    NOT_LAST_LEVEL_OF_DAY = "not_last_level_of_day"
    STOP_OUTSIDE_WINDOW = "stop_outside_window"
    CARD_OUT_OF_RANGE = "card_out_of_range"


@dataclass(frozen=True, slots=True)
class EndOfDaySettings:
    """Settings `end_of_day_window` and `end_of_day_cards` (tournament.md §3)."""

    window_latest: timedelta = timedelta(minutes=15)  # most time left when stopping
    window_earliest: timedelta = timedelta(minutes=5)  # least time left when stopping
    card_values: frozenset[int] = frozenset({3, 4, 5, 6, 7})


@dataclass(frozen=True, slots=True)
class EndOfDayDecision:
    """The outcome of the TD's stop-and-draw; when invalid nothing changes."""

    valid: bool
    reasons: tuple[EndOfDayRefusal, ...]
    hands_to_play: int | None
    rules: tuple[str, ...] = ("FIGP §59",)

    @property
    def clock_stopped(self) -> bool:
        return self.valid


def card_value(card: str) -> int:
    """Return the value of a card such as "6d" or "Th" (only the rank counts)."""
    rank = card[:-1] if len(card) > 1 else card
    rank = "T" if rank == "10" else rank.upper()
    if rank not in RANK_VALUES:
        raise ValueError(f"not a card: {card!r}")
    return RANK_VALUES[rank]


def start_countdown(
    *,
    multi_day: bool,
    is_last_level_of_day: bool,
    level_remaining: timedelta,
    drawn_card: str,
    settings: EndOfDaySettings = EndOfDaySettings(),
) -> EndOfDayDecision:
    """Validate the end-of-day stop and draw; every failing check is reported.

    The window limits are inclusive (tournament.md §17 default). The drawn card's value
    is the number of hands every table still plays (FIGP §59).
    """
    reasons: list[EndOfDayRefusal] = []
    if not multi_day:
        reasons.append(EndOfDayRefusal.NOT_MULTI_DAY)
    if not is_last_level_of_day:
        reasons.append(EndOfDayRefusal.NOT_LAST_LEVEL_OF_DAY)
    if not settings.window_earliest <= level_remaining <= settings.window_latest:
        reasons.append(EndOfDayRefusal.STOP_OUTSIDE_WINDOW)
    value = card_value(drawn_card)
    if value not in settings.card_values:
        reasons.append(EndOfDayRefusal.CARD_OUT_OF_RANGE)
    if reasons:
        return EndOfDayDecision(valid=False, reasons=tuple(reasons), hands_to_play=None)
    return EndOfDayDecision(valid=True, reasons=(), hands_to_play=value)


@dataclass(frozen=True, slots=True)
class EndOfDayCountdown:
    """Hands still to play at each table once the countdown is announced."""

    remaining: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def day_over(self) -> bool:
        return all(left == 0 for left in self.remaining.values())


def begin_countdown(decision: EndOfDayDecision, tables: Iterable[str]) -> EndOfDayCountdown:
    """Give every table the drawn number of hands (FIGP §59: every table plays exactly
    that many). Precondition: `decision.valid`."""
    if not decision.valid or decision.hands_to_play is None:
        raise ValueError("the countdown was not validly started")
    hands = decision.hands_to_play
    return EndOfDayCountdown(MappingProxyType(dict.fromkeys(tables, hands)))


def record_hand_start(countdown: EndOfDayCountdown, table: str) -> EndOfDayCountdown:
    """Count one hand started at `table`; a table with none left may not deal another."""
    left = countdown.remaining.get(table)
    if left is None:
        raise ValueError(f"table {table} is not in the countdown")
    if left == 0:
        raise ValueError(f"table {table} has played all its hands for the day")
    remaining = dict(countdown.remaining)
    remaining[table] = left - 1
    return EndOfDayCountdown(MappingProxyType(remaining))
