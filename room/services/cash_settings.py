"""The cash room's catalogue and settings (cash-room.md §3, §5): a game added or changed by
the TD (a change applies from now), the room's settings changed by the manager and kept as
overrides of the rulebook's defaults, and the undo of both."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from room.events import room_event_log, undoes
from room.models import CashGame, CashRoom, RoomEvent
from room.selectors.cash import cash_room
from room.services.cash_log import CashRefused
from tables.cash.settings import DEFAULTS
from tables.cash.shifts import Shift
from tournaments.errors import CannotUndo
from tournaments.realtime import broadcast_cash

GAME_FIELDS = (
    "variant",
    "structure",
    "sb",
    "bb",
    "min_buy_in",
    "max_buy_in",
    "max_seats",
    "rake_percent",
    "rake_cap",
    "active",
)


def _game_values(game: CashGame) -> dict[str, Any]:
    return {
        f: (str(getattr(game, f)) if f == "rake_percent" else getattr(game, f)) for f in GAME_FIELDS
    }


@transaction.atomic
def game_save(
    *, actor: Any, game: CashGame | None, values: dict[str, Any], now: datetime
) -> CashGame:
    """Create a catalogue entry or change one (the TD's; a change applies from now, §5)."""
    if values["sb"] > values["bb"]:
        raise CashRefused(reason=_("the small blind is larger than the big blind"))
    if values.get("max_buy_in") is not None and values["max_buy_in"] < values["min_buy_in"]:
        raise CashRefused(reason=_("the maximum buy-in is below the minimum"))
    before = None if game is None else _game_values(game)
    if game is None:
        game = CashGame.objects.create(**values)
    else:
        for key, value in values.items():
            setattr(game, key, value)
        game.save()
    room_event_log(
        actor=actor,
        action="cash.game",
        data={"game": game.pk, "label": str(game), "before_game": before},
        now=now,
    )
    broadcast_cash("cash.game")
    return game


def _stored(value: Any) -> Any:
    """A setting as the room's row keeps it (JSON): tuples as lists, a shift as its pair."""
    if isinstance(value, tuple):
        return [_stored(v) for v in value]
    if isinstance(value, Shift):
        return [value.name, value.start_minutes]
    return value


@transaction.atomic
def room_settings_save(*, actor: Any, values: dict[str, Any], now: datetime) -> CashRoom:
    """Change the room's settings (the manager's, §3). `values` holds settings of
    `CashSettings` by name, checked by the form; one left at the rulebook's default is kept
    as no override, so the room follows the rulebook where it has not chosen otherwise."""
    room = cash_room()
    before = {
        "public_name_format": room.public_name_format,
        "answer_minutes": room.answer_minutes,
        "overrides": dict(room.overrides or {}),
    }
    overrides = dict(room.overrides or {})
    for key, value in values.items():
        if key in {"public_name_format", "answer_minutes"}:
            setattr(room, key, value)
        elif value == getattr(DEFAULTS, key):
            overrides.pop(key, None)
        else:
            overrides[key] = _stored(value)
    room.overrides = overrides
    room.save()
    room_event_log(actor=actor, action="cash.settings", data={"before_room": before}, now=now)
    broadcast_cash("cash.settings")
    return room


@undoes("cash.settings")
def _undo_settings(event: RoomEvent, actor: Any, now: datetime) -> None:
    room = cash_room()
    for key, value in event.data["before_room"].items():
        setattr(room, key, value)
    room.save()
    broadcast_cash("undo")


@undoes("cash.game")
def _undo_game(event: RoomEvent, actor: Any, now: datetime) -> None:
    game = CashGame.objects.filter(pk=event.data["game"]).first()
    if game is None:
        raise CannotUndo(reason=_("the game no longer exists"))
    before = event.data.get("before_game")
    if before is None:
        if game.tables.exists() or game.waiting.exists():
            raise CannotUndo(reason=_("the game has tables or a waiting list"))
        game.delete()
        return
    for key, value in before.items():
        setattr(game, key, value)
    game.save()
