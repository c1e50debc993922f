"""The room app's addresses: `urlpatterns` under /room/ beside the cash room's and the
pit's; `people_urlpatterns` at the site's root, where the room's players and leagues have
always been (the TD of any event, a superuser), with the public league standings (no
login)."""

from __future__ import annotations

from django.urls import path

from room.views import dealer_books, dealers, kiosk, people, phone, rules
from tournaments.views import results

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
    # The players' phones: the installable app, its service worker and its QR codes.
    path("phone/", phone.app_home, name="room_phone_app"),
    path("phone/manifest.webmanifest", phone.manifest, name="room_manifest"),
    path("phone/sw.js", phone.service_worker, name="room_service_worker"),
    path("phone/qr/", phone.app_qr, name="room_phone_qr"),
    path("phone/qr/<slug:slug>/<int:number>/", phone.entry_qr, name="room_entry_qr"),
    # A player's notifications, by his signed link; one-tap unsubscribe; a call's answer.
    path("me/<str:token>/", phone.notify_page, name="room_notify_page"),
    path("me/<str:token>/push/", phone.notify_subscribe, name="room_notify_subscribe"),
    path("me/<str:token>/push/off/", phone.notify_unsubscribe, name="room_notify_unsubscribe"),
    path("me/<str:token>/email/", phone.notify_email, name="room_notify_email"),
    path("me/<str:token>/cash/", phone.notify_cash, name="room_notify_cash"),
    path("cash/me/<str:token>/notify/", phone.notify_from_cash, name="room_notify_from_cash"),
    path("off/<str:token>/", phone.notify_off, name="room_notify_off"),
    path("answer/<str:token>/", phone.notify_answer, name="room_notify_answer"),
]

people_urlpatterns = [
    path("people/", people.people, name="people"),
    path("people/duplicates/", people.people_duplicates, name="people_duplicates"),
    path("people/<int:player_id>/", people.person, name="person"),
    path("people/<int:player_id>/photo/", people.person_photo, name="person_photo"),
    path("people/<int:player_id>/export/", people.person_export, name="person_export"),
    path("people/<int:player_id>/erase/", people.person_erase, name="person_erase"),
    path("people/<int:player_id>/contact/", people.person_contact, name="person_contact"),
    path("people/<int:player_id>/merge/", people.person_merge, name="person_merge"),
    path("people/merges/<int:event_id>/undo/", people.merge_undo, name="merge_undo"),
    path("leagues/", people.league_list, name="league_list"),
    path("leagues/<int:league_id>/", people.league_edit, name="league_edit"),
    path(
        "leagues/<int:league_id>/ranking.<str:fmt>", results.league_ranking, name="league_ranking"
    ),
    path("l/<slug:league>/", people.league_public, name="league_public"),
    path("l/<slug:league>/standings.csv", people.league_csv, name="league_csv"),
]
