import importlib
import pkgutil

from django.apps import AppConfig


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
