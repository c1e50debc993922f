"""The room's event log: every room-level action (cash room, pit) is a row, and undo is a
service too. The counterpart of `tournaments.events` for what belongs to no tournament."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from room.models import RoomEvent
from tournaments.errors import CannotUndo
from tournaments.models import NightClose

# Room-level actions are named by area ("cash.seat", "pit.ruling", "room.undo"), so they
# never mix with a tournament's actions (whose payloads the backup remaps).
ROOM_ACTION_PREFIXES = ("room.", "cash.", "pit.")

RoomUndoHandler = Callable[[RoomEvent, Any, datetime], None]
_UNDO: dict[str, RoomUndoHandler] = {}


def undoes(action: str) -> Callable[[RoomUndoHandler], RoomUndoHandler]:
    """Register the function that reverses room events of one action. The handler raises
    `CannotUndo` (with the reason) when a later action changed what it would restore."""

    def register(handler: RoomUndoHandler) -> RoomUndoHandler:
        _UNDO[action] = handler
        return handler

    return register


def room_event_log(
    *, actor: Any, action: str, data: dict[str, Any], now: datetime, undoable: bool = True
) -> RoomEvent:
    """Append an audit row. Call inside the transaction that made the change."""
    if not action.startswith(ROOM_ACTION_PREFIXES):
        raise ValueError(f"a room action is named room.*, cash.* or pit.*, not {action!r}")
    return RoomEvent.objects.create(
        at=now,
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        data=data,
        undoable=undoable and action in _UNDO,
    )


def can_undo(event: RoomEvent) -> bool:
    return event.undoable and event.undone_at is None and event.action in _UNDO


@transaction.atomic
def room_event_undo(*, event_id: int, actor: Any, now: datetime) -> RoomEvent:
    """Reverse one logged room action and log the undo."""
    event = RoomEvent.objects.select_for_update().filter(pk=event_id).first()
    if event is None:
        raise CannotUndo(reason=_("no such action in the room's log"))
    if event.undone_at is not None:
        raise CannotUndo(reason=_("it was already undone"))
    if not can_undo(event):
        raise CannotUndo(reason=_("this kind of action is not undoable"))
    night = timezone.localdate(event.at)
    if event.action.startswith("cash.") and NightClose.objects.filter(night=night).exists():
        # A closed night's books are kept as they stood: nothing of its cash room moves.
        raise CannotUndo(
            reason=_("the books of %(night)s are closed") % {"night": night.isoformat()}
        )
    _UNDO[event.action](event, actor, now)
    event.undone_at = now
    event.undone_by = actor if actor is not None and actor.is_authenticated else None
    event.save(update_fields=["undone_at", "undone_by"])
    undo = room_event_log(
        actor=actor,
        action="room.undo",
        data={"undone_action": event.action, "undone_event": event.pk},
        now=now,
        undoable=False,
    )
    undo.undo_of = event
    undo.save(update_fields=["undo_of"])
    return undo
