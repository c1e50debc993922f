"""Opening and closing the cash room's tables (cash-room.md §7, §9.1): a table opened from
the list with its seat cards and the button by card, a table closed with its players back
on top of the list by card, and the button and blinds moved on after each hand."""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from room.models import CashGame, CashSeat, CashTable, WaitEntry
from room.selectors.cash import game_settings
from room.services.cash_lists import _list, _top
from room.services.cash_log import CashRefused, _Change
from room.services.cash_players import keep_apart_pairs
from room.services.cash_seats import _next_seated_order, _where
from tables.cash import closing, opening
from tables.rules.buttons import Positions, next_hand
from tournaments.services.locks import once

RANKS = "23456789TJQKA"


SUITS = "shdc"


def _deck(rng: random.Random) -> list[str]:
    cards = [r + s for r in RANKS for s in SUITS]
    rng.shuffle(cards)
    return cards


@transaction.atomic
def table_open(
    *,
    actor: Any,
    game: CashGame,
    number: int,
    present: set[int],
    now: datetime,
    rng: random.Random | None = None,
) -> CashTable:
    """Open a table from the list: list order, seat cards, the button by card (§7.2-§7.3).

    `present` holds the list entries' player ids in the cash area; the draw is recorded.
    """
    rng = rng or random.SystemRandom()
    if CashTable.objects.filter(number=number, status=CashTable.Status.OPEN).exists():
        raise CashRefused(reason=_("table %(table)s is already open") % {"table": number})
    entries = _list(game)
    names = [str(e.player_id) for e in entries]
    listed = {e.player_id for e in entries}
    playing = list(
        CashSeat.objects.filter(player_id__in=set(present) & listed)
        .select_related("player", "table__game")
        .order_by("table__number", "number")
    )
    if playing:
        raise CashRefused(
            reason=_(
                "already playing: %(where)s. Untick them, or seat them from the list with "
                "the stake they leave their table with"
            )
            % {"where": "; ".join(_where(s) for s in playing)}
        )
    seat_cards = list(range(1, game.max_seats + 1))
    rng.shuffle(seat_cards)
    deck = _deck(rng)
    pairs = keep_apart_pairs()
    chosen = opening.choose_opening_players(
        waiting=names, present={str(p) for p in present}, max_seats=game.max_seats, keep_apart=pairs
    )
    if len(chosen) < 2:
        raise CashRefused(reason=_("at least two players on the list must be here"))
    change = _Change(game.pk)
    result = opening.open_table(
        waiting=names,
        present={str(p) for p in present},
        max_seats=game.max_seats,
        seat_card_stack=seat_cards,
        button_cards={name: deck[k] for k, name in enumerate(chosen)},
        keep_apart=pairs,
        settings=game_settings(game),
    )
    # Two tabs opening at once, or a ticked player seated elsewhere meanwhile: the
    # constraints refuse the second write, in words.
    with once(CashRefused(reason=_("table %(table)s is already open") % {"table": number})):
        table = CashTable.objects.create(
            game=game,
            number=number,
            max_seats=game.max_seats,
            opened_at=now,
            button=result.positions.button,
            sb=result.positions.sb,
            bb=result.positions.bb,
        )
    order = _next_seated_order(game)
    seat_of = {name: seat for seat, name in result.seats.items()}
    with once(CashRefused(reason=_("a player of this draw just sat down elsewhere; open again"))):
        CashSeat.objects.bulk_create(
            CashSeat(
                table=table,
                number=seat_of[name],
                player_id=int(name),
                seated_at=now,
                seated_order=order + k,
                status=CashSeat.Status.NEW_PLAYER,
            )
            for k, name in enumerate(result.seated)
        )
    WaitEntry.objects.filter(game=game, player_id__in=[int(n) for n in result.seated]).delete()
    change.log(
        actor=actor,
        action="cash.open",
        now=now,
        table=number,
        seats={str(s): int(p) for s, p in result.seats.items()},
        button_cards={name: deck[k] for k, name in enumerate(chosen)},
        button=result.positions.button,
        rules=list(result.rules),
    )
    return table


@transaction.atomic
def table_close(
    *, actor: Any, table: CashTable, now: datetime, rng: random.Random | None = None
) -> list[int]:
    """Close a table: one card each, its players go on top of the list by card (§9.1)."""
    rng = rng or random.SystemRandom()
    game = table.game
    change = _Change(game.pk)
    players = [str(p) for p in table.seats.values_list("player_id", flat=True)]
    deck = _deck(rng)
    cards = {p: deck[k] for k, p in enumerate(players)}
    result = closing.close_table(
        players=players,
        cards=cards,
        waiting=[str(e.player_id) for e in _list(game)],
        settings=game_settings(game),
    )
    table.seats.all().delete()
    table.status, table.closed_at = CashTable.Status.CLOSED, now
    table.save(update_fields=["status", "closed_at"])
    top = _top(game)
    count = len(result.order)
    for k, name in enumerate(result.order):
        WaitEntry.objects.update_or_create(
            game=game,
            player_id=int(name),
            defaults={
                "position": top - count + 1 + k,
                "joined_at": now,
                "from_closed_table": True,
                "called_at": None,
                "called_table": None,
                "called_seat": None,
                "coming": False,
                "coming_at": None,
            },
        )
    change.log(
        actor=actor,
        action="cash.close",
        now=now,
        table=table.number,
        cards=cards,
        order=[int(n) for n in result.order],
        rule=result.rule,
    )
    return [int(n) for n in result.order]


@transaction.atomic
def table_hand_done(*, actor: Any, table: CashTable, now: datetime) -> CashTable:
    """Move the button and blinds on after a hand ("the BB always advances", dead button)."""
    occupied = list(table.seats.values_list("number", flat=True))
    if table.button is None or table.sb is None or table.bb is None or len(occupied) < 2:
        raise CashRefused(reason=_("a hand needs the positions and at least two players"))
    change = _Change(table.game_id)
    hand = next_hand(
        max_seats=table.max_seats,
        occupied=occupied,
        last_hand=Positions(button=table.button, sb=table.sb, bb=table.bb),
    )
    table.button, table.sb, table.bb = hand.positions.button, hand.positions.sb, hand.positions.bb
    table.save(update_fields=["button", "sb", "bb"])
    change.log(
        actor=actor,
        action="cash.hand",
        now=now,
        table=table.number,
        button=table.button,
        bb=table.bb,
        rules=list(hand.rules),
    )
    return table
