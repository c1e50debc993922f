"""Seat and table changes (cash-room.md §8): who gets a freed seat, and posting after a change."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from tables.cash.settings import DEFAULTS, SRC, SRC_004, CashSettings
from tables.cash.waitlist import kept_apart

Wants = Literal["seat_change", "main_table"]
EntryStatus = Literal["new_player", "seat_change", "moved_by_house", "from_closed_table"]

RULE_PRIORITY = f'{SRC} "Assegnazione e spostamento dei giocatori ai tavoli" 6'
RULE_NEW_PLAYER = f'{SRC} "Assegnazione e spostamento dei giocatori ai tavoli" 5'
RULE_LIST = f'{SRC} "Assegnazione e spostamento dei giocatori ai tavoli" 2'
RULE_HOUSE_MOVE = f"{SRC_004} §18"
RULE_SEAT_CHANGE_POST = f"{SRC_004} §18"


@dataclass(frozen=True)
class SeatRequest:
    """An open request by a seated player: he sits at (table, seat) and wants `wants`."""

    player: str
    table: str
    seat: int
    wants: Wants
    seated_order: int


@dataclass(frozen=True)
class Move:
    player: str
    from_table: str | None  # None: from the list
    from_seat: int | None
    to_table: str
    to_seat: int
    status: EntryStatus
    rule: str


@dataclass(frozen=True)
class FillPlan:
    moves: tuple[Move, ...]
    list_after: tuple[str, ...]
    left_free: tuple[tuple[str, int], ...]  # seats nobody fills (no request, empty list)


def fill_vacated_seat(
    *,
    table: str,
    seat: int,
    main_table: str | None,
    requests: Sequence[SeatRequest],
    waiting: Sequence[str],
    players_at: Mapping[str, Collection[str]] | None = None,
    keep_apart: Collection[tuple[str, str]] = (),
    settings: CashSettings = DEFAULTS,
) -> FillPlan:
    """Fill a freed seat by the chain of §8.1: requests by seated_order, then the list.

    The list's names are assumed to answer and take the seat (the call is §6.4's procedure);
    `players_at` (table -> players) is only needed for keep-apart pairs.
    """
    feeding = settings.main_table_feeding
    pending = list(requests)
    if feeding == "must_move" and main_table is not None:
        pending = [r for r in pending if r.wants != "main_table" or r.table != main_table]
    moves: list[Move] = []
    order = list(waiting)
    free: list[tuple[str, int]] = []
    seating = {t: set(p) for t, p in (players_at or {}).items()}
    target: tuple[str, int] | None = (table, seat)
    while target is not None:
        t_table, t_seat = target
        present = seating.get(t_table, set())
        candidates = [
            r
            for r in pending
            if (
                (r.wants == "seat_change" and r.table == t_table)
                or (r.wants == "main_table" and t_table == main_table and r.table != t_table)
            )
            and not kept_apart(r.player, present - {r.player}, keep_apart)
        ]
        if candidates:
            mover = min(candidates, key=lambda r: r.seated_order)
            pending = [r for r in pending if r.player != mover.player]
            status: EntryStatus
            if mover.table == t_table:
                status, rule = "seat_change", RULE_PRIORITY
            elif feeding == "must_move":
                status, rule = "moved_by_house", RULE_HOUSE_MOVE
            else:
                status, rule = "new_player", RULE_NEW_PLAYER
            moves.append(Move(mover.player, mover.table, mover.seat, t_table, t_seat, status, rule))
            seating.setdefault(mover.table, set()).discard(mover.player)
            seating.setdefault(t_table, set()).add(mover.player)
            target = (mover.table, mover.seat)
            continue
        newcomer = next((n for n in order if not kept_apart(n, present, keep_apart)), None)
        if newcomer is not None:
            order.remove(newcomer)
            moves.append(Move(newcomer, None, None, t_table, t_seat, "new_player", RULE_LIST))
        else:
            free.append(target)
        target = None
    return FillPlan(tuple(moves), tuple(order), tuple(free))


@dataclass(frozen=True)
class SeatChangePost:
    moves_away_from_button: bool
    active_players_passed: int
    must_post: Literal["bb", "none"]
    rule: str = RULE_SEAT_CHANGE_POST


def seat_change_post(
    *,
    max_seats: int,
    occupied: Collection[int],
    next_button: int,
    from_seat: int,
    to_seat: int,
    settings: CashSettings = DEFAULTS,
) -> SeatChangePost:
    """Tell whether a seat change at the same table makes the mover post a big blind (§8.4).

    `occupied` are the seats of active players now, the mover's old seat included.
    """

    def d(seat: int) -> int:
        return (seat - next_button) % max_seats

    away = d(to_seat) > d(from_seat)
    low, high = sorted((d(from_seat), d(to_seat)))
    # The arc between the two seats that does not hold the button is the one of distances
    # strictly between them (the button is at distance 0).
    passed = sum(1 for s in occupied if low < d(s) < high and s not in (from_seat, to_seat))
    post: Literal["bb", "none"] = (
        "bb" if settings.seat_change_post_rule and away and passed >= 2 else "none"
    )
    return SeatChangePost(away, passed, post)
