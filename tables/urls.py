"""The room's own addresses, under /room/ (cash games, the pit); tournaments live under /t/."""

from __future__ import annotations

from django.urls import path

from tables.views import pit

urlpatterns: list = [
    # The pit ruling tool: blackjack and punto banco (table-games.md §7.3)
    path("pit/", pit.pit_home, name="pit_home"),
    path("pit/blackjack/", pit.pit_blackjack, name="pit_blackjack"),
    path("pit/punto-banco/", pit.pit_punto_banco, name="pit_punto_banco"),
    path("pit/trainer/", pit.pit_trainer, name="pit_trainer"),
    path("pit/ruling/<int:event_id>/", pit.pit_ruling, name="pit_ruling"),
]
