"""How the room learns what happened below it: receivers on the event logs' rows (the
events and the tables never import the room). Connected in RoomConfig.ready()."""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone

from config import scheduling
from room.services import dealers, notify

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


# The logged actions of the events and the cash room that open, break or close a table:
# each re-flows the dealers' plan at once (room.services.dealers.reflow).
EVENT_TABLE_ACTIONS = frozenset(
    {
        "table.status",
        "room.break",
        "room.final_table",
        "seats.draw",
        "clock.start",
        "day.next",
        "flights.merge",
        "event.undo",
    }
)
ROOM_TABLE_ACTIONS = frozenset({"cash.open", "cash.close"})


def _reflow_after_commit() -> None:
    def run() -> None:
        try:
            dealers.reflow(now=timezone.now())
        except Exception:  # noqa: BLE001 - the table's own action is committed; the next push re-flows
            log.exception("the dealers' plan could not re-flow")

    transaction.on_commit(run)


def table_event_logged(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    """A tournament's log row: re-flow the dealers' plan when it opened or closed tables."""
    if created and instance.action in EVENT_TABLE_ACTIONS:
        _reflow_after_commit()


def room_event_logged(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    """The room's log row: a cash table opened or closed, or the undo of one."""
    if not created:
        return
    action = instance.action
    if action == "room.undo" and isinstance(instance.data, dict):
        action = str(instance.data.get("undone_action", ""))
    if action in ROOM_TABLE_ACTIONS:
        _reflow_after_commit()
