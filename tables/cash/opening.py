"""Opening a table (cash-room.md §7): who sits, where, the button, and must-move proposals."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from tables.cash.settings import DEFAULTS, SRC, CashSettings
from tables.cash.waitlist import kept_apart
from tables.rules.buttons import Positions, draw_button

RULE_LIST_ORDER = f'{SRC} "Assegnazione e spostamento dei giocatori ai tavoli" 2'
RULE_SEAT_CARDS = f'{SRC} "Apertura e bilanciamento dei tavoli"'
RULE_BUTTON = f'{SRC} "Assegnazione del bottone"'
RULE_MUST_MOVE = f'{SRC} "Apertura e bilanciamento dei tavoli"'


@dataclass(frozen=True)
class Opening:
    seated: tuple[str, ...]  # draw order = seated_order at this table (§7.2)
    seats: Mapping[int, str]
    positions: Positions
    list_after: tuple[str, ...]
    rules: tuple[str, ...] = (RULE_LIST_ORDER, RULE_SEAT_CARDS, RULE_BUTTON)


def choose_opening_players(
    *,
    waiting: Sequence[str],
    present: Collection[str],
    max_seats: int,
    keep_apart: Collection[tuple[str, str]] = (),
) -> tuple[str, ...]:
    """Take names from the top of the list: present, not kept apart, up to max_seats (§7.2)."""
    seated: list[str] = []
    for name in waiting:
        if len(seated) >= max_seats:
            break
        if name not in present or kept_apart(name, seated, keep_apart):
            continue
        seated.append(name)
    return tuple(seated)


def open_table(
    *,
    waiting: Sequence[str],
    present: Collection[str],
    max_seats: int,
    seat_card_stack: Sequence[int],
    button_cards: Mapping[str, str],
    keep_apart: Collection[tuple[str, str]] = (),
    settings: CashSettings = DEFAULTS,
) -> Opening:
    """Seat a new table from the list by seat cards and give the button by card (§7.2-§7.3).

    `seat_card_stack` is the shuffled seat cards, top first, at least one per seated player;
    `button_cards` holds a distinct card for each seated player. Needs two players.
    """
    seated = choose_opening_players(
        waiting=waiting, present=present, max_seats=max_seats, keep_apart=keep_apart
    )
    if len(seat_card_stack) < len(seated):
        raise ValueError("not enough seat cards")
    seats = {seat_card_stack[k]: name for k, name in enumerate(seated)}
    draw = draw_button(
        max_seats=max_seats,
        cards={seat: button_cards[name] for seat, name in seats.items()},
        suit_order=settings.suit_order,
    )
    taken = set(seated)
    return Opening(
        seated=seated,
        seats=dict(sorted(seats.items())),
        positions=draw.positions,
        list_after=tuple(name for name in waiting if name not in taken),
    )


@dataclass(frozen=True)
class SeatedPlayer:
    player: str
    table: str
    seated_at: datetime


def must_move_proposal(
    *,
    older_tables: Sequence[Sequence[SeatedPlayer]],
    moves_wanted: int,
    new_table_players: Collection[str] = (),
    keep_apart: Collection[tuple[str, str]] = (),
) -> tuple[str, ...]:
    """Propose the players to move to a newly opened table: the latest seated first (§7.4).

    Keep-apart conflicts with players at the new table (or already chosen) are skipped. The
    movers are `moved_by_house`; the floor confirms.
    """
    everyone = sorted(
        (p for table in older_tables for p in table), key=lambda p: p.seated_at, reverse=True
    )
    chosen: list[str] = []
    for candidate in everyone:
        if len(chosen) >= moves_wanted:
            break
        if kept_apart(candidate.player, [*new_table_players, *chosen], keep_apart):
            continue
        chosen.append(candidate.player)
    return tuple(chosen)
