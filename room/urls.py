"""The room app's addresses, under /room/ beside the cash room's and the pit's."""

from __future__ import annotations

from django.urls import path

from room.views import dealer_books, dealers, kiosk, rules

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
    # The dealers' floor: the floor's page and its actions, the TV board (no login, as the
    # cash room's brush board), the clock-in tablet (a PIN, no login) and a table's relief
    # line that the tablets load.
    path("dealers/", dealers.floor, name="dealer_floor"),
    path("dealers/board/", dealers.board_view, name="dealer_board"),
    path("dealers/push/", dealers.push, name="dealer_push"),
    path("dealers/override/", dealers.override, name="dealer_override"),
    path("dealers/keep/", dealers.keep, name="dealer_keep"),
    path("dealers/undo/<int:event_id>/", dealers.undo, name="dealer_undo"),
    path("dealers/clock/", dealers.clock, name="dealer_clock"),
    path("dealers/relief/<slug:kind>:<int:pk>/", dealers.relief, name="dealer_relief"),
    # The manager's: the dealers' games and shifts, the rotation's settings.
    path("dealers/staff/", dealer_books.staff, name="dealer_staff"),
    path("dealers/staff/profile/", dealer_books.profile, name="dealer_profile"),
    path("dealers/settings/", dealer_books.settings, name="dealer_settings"),
    # The books': a night's hours (CSV, XLSX, PDF) and tips (a fragment of the night's books).
    path("dealers/hours/", dealer_books.hours, name="dealer_hours"),
    path("dealers/tips/", dealer_books.tips, name="dealer_tips"),
    # The pit's tables, which the dealers deal too.
    path("pit/tables/", dealer_books.pit_tables, name="pit_tables"),
    path("pit/tables/<int:pk>/status/", dealer_books.pit_table_status, name="pit_table_status"),
]
