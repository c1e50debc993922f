import importlib

from django.apps import AppConfig

# Service modules register their undo handlers when imported: import them all at start-up
# so any logged action can be undone from the log, whichever page is served first.
SERVICE_MODULES = (
    "tournaments.services",
    "tournaments.services.results",
    "tournaments.services.chips",
    "tournaments.services.penalties",
    "tournaments.services.days",
    "tournaments.services.room",
    "tournaments.services.clock",
    "tournaments.services.timecalls",
    "tournaments.services.formats",
    "tables.services",
)


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        for module in SERVICE_MODULES:
            importlib.import_module(module)
