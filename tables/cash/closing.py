"""Closing a table (cash-room.md §9): the card order back onto the list, and re-seating."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from tables.cash.settings import DEFAULTS, SRC, SRC_004, CashSettings
from tables.rules.buttons import NextHand, Positions, deal_in, rank_cards

RULE_CLOSE = f'{SRC} "Assegnazione e spostamento dei giocatori ai tavoli" 7'
RULE_NOT_NEW = f'{SRC} "Assegnazione e spostamento dei giocatori ai tavoli" 9'
RULE_NO_BLIND_OWED = f"{SRC_004} §18"
RULE_BETWEEN_BB_AND_BUTTON = f'{SRC} "Regole per l\'uso dei blind" f'


@dataclass(frozen=True)
class Closing:
    order: tuple[str, ...]
    list_after: tuple[str, ...]
    rule: str = RULE_CLOSE


def close_table(
    *,
    players: Sequence[str],
    cards: Mapping[str, str],
    waiting: Sequence[str],
    settings: CashSettings = DEFAULTS,
) -> Closing:
    """Put a closing table's players, absent ones included, on top of the list by card (§9.1).

    Each of them is `from_closed_table`. A closing player already on the list is moved up.
    """
    ranked = rank_cards({p: cards[p] for p in players}, settings.suit_order)
    if settings.close_order == "lowest_first":
        ranked.reverse()
    order = tuple(ranked)
    rest = tuple(name for name in waiting if name not in order)
    return Closing(order, order + rest)


@dataclass(frozen=True)
class Arrival:
    """How a player from a closed table (or moved by the house) enters his new table (§9.2)."""

    next_hand: NextHand
    dealt_in: bool
    posts: Literal["sb", "bb", "none"]
    dealt_in_from: Literal["next_hand", "hand_after_next"]
    owes_missed_blinds: bool
    min_buy_in_applies: bool
    markers_after: int
    rules: tuple[str, ...]


def seat_from_closed_table(
    *,
    max_seats: int,
    occupied: Collection[int],
    last_hand: Positions,
    seat: int,
) -> Arrival:
    """Seat a player from a closed table: not a new player, no blind owed, markers cleared.

    He can't be dealt in between the next hand's button and big blind (§9.2); `occupied`
    excludes him and `seat` is empty.
    """
    decision = deal_in(
        max_seats=max_seats,
        occupied=occupied,
        last_hand=last_hand,
        seat=seat,
        deal_in_exclusion="button_to_bb",
    )
    return Arrival(
        next_hand=decision.next_hand,
        dealt_in=decision.dealt_in,
        posts=decision.posts,
        dealt_in_from=decision.dealt_in_from,
        owes_missed_blinds=False,
        min_buy_in_applies=False,
        markers_after=0,
        rules=(RULE_NOT_NEW, RULE_NO_BLIND_OWED, RULE_BETWEEN_BB_AND_BUTTON),
    )
