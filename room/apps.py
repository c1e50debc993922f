import importlib
import logging
import pkgutil
from typing import Any

from django.apps import AppConfig
from django.db import transaction
from django.db.models.signals import post_save

logger = logging.getLogger(__name__)

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
    from django.utils import timezone

    from room.services import dealers

    def run() -> None:
        try:
            dealers.reflow(now=timezone.now())
        except Exception:  # noqa: BLE001 - the table's own action is committed; the next push re-flows
            logger.exception("the dealers' plan could not re-flow")

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


class RoomConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "room"
    verbose_name = "Room"

    def ready(self) -> None:
        # As in the other apps: every service module registers its undo handlers when
        # imported, so any logged action of the room can be undone whichever page comes first.
        package = importlib.import_module("room.services")
        for module in pkgutil.iter_modules(package.__path__):
            importlib.import_module(f"room.services.{module.name}")
        # Tables open, break and close in the events and the cash room, which never import
        # the room: their log rows tell the dealers' plan.
        from tables.models import RoomEvent
        from tournaments.models import Event

        post_save.connect(table_event_logged, sender=Event, dispatch_uid="room.dealers.event")
        post_save.connect(room_event_logged, sender=RoomEvent, dispatch_uid="room.dealers.room")

        # The players' notifications hear the same rows.
        from room import receivers

        post_save.connect(
            receivers.event_saved, sender="tournaments.Event", dispatch_uid="room.event_saved"
        )
        post_save.connect(
            receivers.room_event_saved,
            sender="tables.RoomEvent",
            dispatch_uid="room.room_event_saved",
        )
