"""The room app's addresses, under /room/ beside the cash room's and the pit's."""

from __future__ import annotations

from django.urls import path

from room.views import kiosk, rules

urlpatterns: list = [
    path("kiosks/", kiosk.kiosks, name="kiosks"),
    path("kiosks/<int:pk>/revoke/", kiosk.kiosk_revoke, name="kiosk_revoke"),
    path("reservations/rules/", rules.reservation_rules, name="reservation_rules"),
    # No login: a kiosk's secret link, and a player's visit at it.
    path("kiosk/<uuid:token>/", kiosk.kiosk_start, name="kiosk_start"),
    path("kiosk/<uuid:token>/v/<str:visit>/", kiosk.kiosk_player, name="kiosk_player"),
    path(
        "kiosk/<uuid:token>/v/<str:visit>/<str:action>/",
        kiosk.kiosk_action,
        name="kiosk_action",
    ),
]
