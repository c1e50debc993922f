import importlib
import pkgutil

from django.apps import AppConfig

# Service modules register their undo handlers when imported: import every module of both
# service packages at start-up so any logged action can be undone from the log, whichever
# page is served first (a new topic module is picked up without being listed anywhere).
SERVICE_PACKAGES = ("tournaments.services", "tables.services")


def service_modules() -> list[str]:
    names = []
    for package_name in SERVICE_PACKAGES:
        package = importlib.import_module(package_name)
        names += [f"{package_name}.{m.name}" for m in pkgutil.iter_modules(package.__path__)]
    return names


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        for module in service_modules():
            importlib.import_module(module)
        importlib.import_module("tournaments.signals")  # sockets follow roles and logouts
