"""How the room learns what happened below it: receivers on the event logs' rows (the
events and the tables never import the room). Connected in RoomConfig.ready()."""

from __future__ import annotations

import logging
from functools import partial

from django.db import transaction

from config import scheduling
from room.services import notify

log = logging.getLogger(__name__)

# The log rows a player may be told about (room/rules/notices.py words them).
TOURNAMENT_ACTIONS = frozenset(
    {
        "entry.register",
        "seats.draw",
        "seat.move",
        "room.balance",
        "room.break",
        "room.final_table",
        "h4h.start",
        "h4h.stop",
        "entry.eliminate",
    }
)
ROOM_ACTIONS = frozenset({"cash.call", "cash.skip"})


# room/tasks.py's task, sent by name as config/scheduling.py sends the clock's.
NOTIFY_LOGGED = "room.tasks.notify_logged"


def _queue(log_name: str, row) -> None:
    """The notices of a committed row: to the Celery worker where a broker holds them (by
    its key), or here and now in the embedded server (no broker: tasks run in-process),
    from the row in hand."""
    if scheduling.can_wait():
        scheduling.send(NOTIFY_LOGGED, (log_name, row.pk))
    else:
        notify.row_notify(log_name=log_name, row=row)


def event_saved(sender, instance, created: bool, **kwargs) -> None:
    """A tournament's log row: its notices go out once its transaction commits (a floor
    action rolled back tells nobody). A failed notice never fails the floor's action."""
    if created and instance.action in TOURNAMENT_ACTIONS and instance.pk:
        transaction.on_commit(partial(_queue, "event", instance), robust=True)


def room_event_saved(sender, instance, created: bool, **kwargs) -> None:
    """A room's log row: the cash list's calls are told after the commit."""
    if created and instance.action in ROOM_ACTIONS:
        transaction.on_commit(partial(_queue, "room", instance), robust=True)
