import importlib
import pkgutil

from django.apps import AppConfig
from django.db.models import fields
from django.utils.translation import gettext_lazy

# Service modules register their undo handlers when imported: import every module of the
# service package at start-up so any logged action can be undone from the log, whichever
# page is served first (a new topic module is picked up without being listed anywhere).
SERVICE_PACKAGES = ("tournaments.services",)


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
        importlib.import_module("tournaments.sockets.signals")  # sockets follow roles and logouts
        # Every select's blank choice (model choices, foreign keys): Django 6.1's new label
        # has no Italian in Django's own catalogue yet, so the label comes from ours. Django
        # reads this module attribute each time a form field is built (5.2 draws dashes).
        if hasattr(fields, "BLANK_CHOICE_LABEL"):
            fields.BLANK_CHOICE_LABEL = gettext_lazy("- Select an option -")
