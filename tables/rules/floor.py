"""The room as the planner reads it and what it decides (pure): the tables and the room's
settings in, halts, moves, breaks, the final table, seat-card draws and policy violations
out. The planner itself is `tables.rules.balancing`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Literal

from tables.rules.buttons import (
    DEFAULT_SUIT_ORDER,
    DealInExclusion,
    DealtInFrom,
    NextHand,
    Positions,
)
from tables.rules.seating import SeatRef

RULE_MOVER = "TDA-11a"  # with TDA2015-§10A, FIGP §52, 003 Art.7.2: the next BB moves
RULE_STUD_MOVE = "TDA-11a stud"  # moved by position: the most recently vacated seat
RULE_HALT = "TDA-11c"
RULE_BALANCE = {1: "003 Art.7.2", 2: "FIGP §52"}
RULE_BREAK = "003 Art.7.3"
RULE_ACCESSIBLE = "TDA-9"
RULE_RANDOM_BREAK = "RP-19"
RULE_SEAT_CARDS = "TDA-10b"
RULE_FINAL_TABLE = {
    "tda_rp9": "RP-9",
    "tda2015_plus_one": "TDA2015-§11",
    "figp": "FIGP §53",
    "fixed": "house final-table size",
}

_EMPTY: Mapping[int, str] = MappingProxyType({})

Game = Literal["holdem", "stud"]
Format = Literal["full_ring", "short_handed"]
# "fewest": the table with the fewest players breaks first (the fewest moves), the list
# breaking ties; "list": the TD's own order; "random": drawn (RP-19).
BreakOrder = Literal["list", "random", "fewest"]
FinalTableRule = Literal["tda_rp9", "tda2015_plus_one", "figp"]
EventType = Literal["standard", "heads_up"]


@dataclass(frozen=True)
class Table:
    """One table as the planner sees it, after the current hand.

    `seats` maps occupied seats to player ids (eliminations of the current hand removed).
    Leave it None only when just the head count is known (`player_count`). `last_hand` is
    the current hand's positions, None when the floor has not told us. `number` orders
    tables for the default balance and break lists (highest number first).
    """

    table_id: str
    max_seats: int
    seats: Mapping[int, str] | None = None
    player_count: int | None = None
    last_hand: Positions | None = None
    number: int = 0
    locked_seats: frozenset[int] = frozenset()
    # Kept for players who need them: ordinary movers get them only when nothing else is free.
    accessible_seats: frozenset[int] = frozenset()
    # Players who may not be moved now (still in a hand, accessibility needs, TD hold).
    unmovable: frozenset[str] = frozenset()
    # Players who need an accessible seat (TDA-9): a balancing move passes them over, and
    # a break or a final table gives them accessible seats only.
    needs_accessible: frozenset[str] = frozenset()
    # When each empty seat was vacated (any comparable: minutes, timestamps); stud only.
    vacated_at: Mapping[int, float] = field(default_factory=dict)

    @cached_property  # asked ~10 times per table per plan; a table is immutable
    def count(self) -> int:
        if self.seats is not None:
            return len(self.seats)
        if self.player_count is None:
            raise ValueError(f"table {self.table_id}: neither seats nor player_count given")
        return self.player_count

    @cached_property
    def capacity(self) -> int:
        return self.max_seats - len(self.locked_seats)

    @cached_property
    def has_free_seat(self) -> bool:
        """Whether a seat is neither taken nor locked (with `seats` unknown, not locked)."""
        seats = self.seats or _EMPTY
        if not self.locked_seats:  # the usual table: no set built
            return len(seats) < self.max_seats
        return len(self.locked_seats.union(seats)) < self.max_seats


@dataclass(frozen=True)
class RoomSettings:
    """The event's room policy (tournament.md §3); defaults are the spec's defaults."""

    seats_per_table: int = 9
    game: Game = "holdem"
    format: Format = "full_ring"
    balance_max_diff: int = 1
    # None means "by format": 3 for full_ring, off for short_handed (TDA-11c/d).
    halt_short_table_diff: int | Literal["off"] | None = None
    # Tables in the order they give and receive players; unlisted ones follow, highest
    # number first (tournament.md §8.2).
    balance_source_list: tuple[str, ...] = ()
    break_order: BreakOrder = "list"
    break_list: tuple[str, ...] = ()
    final_table_rule: FinalTableRule | int = "tda_rp9"
    event_type: EventType = "standard"
    deal_in_exclusion: DealInExclusion = "button_to_sb"
    suit_order: tuple[str, ...] = DEFAULT_SUIT_ORDER

    @property
    def halt_diff(self) -> int | None:
        """Return the short-table gap that halts play, or None when halting is off."""
        if self.halt_short_table_diff == "off":
            return None
        if self.halt_short_table_diff is None:
            return 3 if self.format == "full_ring" else None
        return self.halt_short_table_diff


@dataclass(frozen=True)
class Halt:
    """A table that stops play until it is rebalanced (TDA-11c)."""

    table_id: str
    short_by: int
    rule: str = RULE_HALT


@dataclass(frozen=True)
class Move:
    """One player moved to balance the room, in the order the moves are made.

    Fields the rules leave open are None: the player in a stud event (the floor picks), or
    any seat-level detail of a table whose button is unknown (see RoomPlan.needs_button).
    """

    from_table: str
    to_table: str
    player: str | None = None
    from_seat: int | None = None
    to_seat: int | None = None
    dealt_in_from: DealtInFrom | None = None
    rules: tuple[str, ...] = ()
    # Set when the only seat left is the small blind (TDA-10a allows it; tell the floor).
    floor_alert: str | None = None


@dataclass(frozen=True)
class BreakDecision:
    """Whether the next table breaks now (003 Art.7.3) and which seats its players draw."""

    break_now: bool
    table_id: str | None
    free_seats_elsewhere: int
    seat_cards: tuple[SeatRef, ...] = ()
    rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class FinalTablePlan:
    """Final-table size, whether it forms now, and the layout of the last tables (§10)."""

    formed: bool
    size: int
    layout: tuple[int, ...]
    rule: str


@dataclass(frozen=True)
class SeatCardDraw:
    """Seat cards handed out highest face-up card first (TDA-10b, §9.3)."""

    distribution_order: tuple[str, ...]
    assignments: Mapping[str, SeatRef]
    rule: str = RULE_SEAT_CARDS


@dataclass(frozen=True)
class RoomPlan:
    """What the floor should do now. When `needs_button` is not empty, the moves from or to
    those tables lack player and seats: ask the floor for the button and plan again."""

    halts: tuple[Halt, ...]
    moves: tuple[Move, ...]
    counts_after: Mapping[str, int]
    next_hand: Mapping[str, NextHand]
    break_table: BreakDecision
    final_table: FinalTablePlan
    needs_button: tuple[str, ...] = ()
    # Why the room could not be brought within the policy (no movable player, no seat).
    unresolved: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()

    @property
    def halted_tables(self) -> tuple[str, ...]:
        return tuple(halt.table_id for halt in self.halts)

    @property
    def complete(self) -> bool:
        return not self.needs_button and not self.unresolved


@dataclass(frozen=True)
class Violation:
    """A breach of the room policy found by `check_room`."""

    code: Literal[
        "over_capacity",
        "unbalanced",
        "seat_out_of_range",
        "locked_seat_occupied",
        "seat_double_booked",
        "player_seated_twice",
    ]
    table_id: str | None
    detail: str
