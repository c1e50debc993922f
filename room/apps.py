import importlib
import pkgutil

from django.apps import AppConfig
from django.db.models.signals import post_save


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
        # Tables open, break and close in the events (which never import the room) and in
        # the cash room: the log rows of both tell the dealers' plan, one path for both.
        from room import receivers
        from room.views import people
        from tournaments.views import results

        # The event's results page offers the rankings of the leagues holding it.
        if people.league_downloads not in results.RESULTS_DOWNLOADS:  # ready() may run again
            results.RESULTS_DOWNLOADS.append(people.league_downloads)

        post_save.connect(
            receivers.table_event_logged,
            sender="tournaments.Event",
            dispatch_uid="room.dealers.event",
        )
        post_save.connect(
            receivers.room_event_logged, sender="room.RoomEvent", dispatch_uid="room.dealers.room"
        )
        # The players' notifications hear the same rows.
        post_save.connect(
            receivers.event_saved, sender="tournaments.Event", dispatch_uid="room.event_saved"
        )
        post_save.connect(
            receivers.room_event_saved,
            sender="room.RoomEvent",
            dispatch_uid="room.room_event_saved",
        )
