"""Writes of the pit: a table-game ruling saved to the room's log (no model of its own)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction

from room.events import room_event_log
from room.models import RoomEvent


@transaction.atomic
def pit_ruling_save(*, actor: Any, ruling: dict[str, Any], now: datetime) -> RoomEvent:
    """Log one pit ruling (game, what was entered, each step, every bet's result) as it was
    computed; it is a record, not an action, so it is not undoable."""
    return room_event_log(actor=actor, action="pit.ruling", data=ruling, now=now, undoable=False)
