"""The room app's addresses: `urlpatterns` under /room/ beside the cash room's and the
pit's; `people_urlpatterns` at the site's root, where the room's players and leagues have
always been (the TD of any event, a superuser), with the public league standings (no
login)."""

from __future__ import annotations

from django.urls import path

from room.views import (
    cash_board,
    cash_lists,
    cash_phone,
    cash_remote,
    cash_seats,
    cash_settings,
    cash_tables,
    cash_tablet,
    dealer_books,
    dealers,
    jackpots,
    kiosk,
    people,
    phone,
    pit,
    rake,
    rules,
    staff,
)

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
    # The cash room, the pit and who holds a room role
    # Who holds a room role (the room's TD gives them)
    path("staff/", staff.room_staff, name="room_staff"),
    path("staff/undo/<int:event_id>/", staff.room_staff_undo, name="room_staff_undo"),
    # The pit ruling tool: blackjack and punto banco (table-games.md §7.3)
    path("pit/", pit.pit_home, name="pit_home"),
    path("pit/blackjack/", pit.pit_blackjack, name="pit_blackjack"),
    path("pit/punto-banco/", pit.pit_punto_banco, name="pit_punto_banco"),
    path("pit/trainer/", pit.pit_trainer, name="pit_trainer"),
    path("pit/ruling/<int:event_id>/", pit.pit_ruling, name="pit_ruling"),
    path("cash/", cash_board.cash_board, name="cash_board"),
    path("cash/board/", cash_board.brush_board, name="cash_brush"),
    path("cash/me/<str:token>/", cash_phone.phone, name="cash_phone"),
    path("cash/me/<str:token>/answer/<int:pk>/", cash_phone.phone_answer, name="cash_phone_answer"),
    path("cash/me/<str:token>/join/", cash_remote.phone_join, name="cash_phone_join"),
    path("cash/lists/<int:pk>/arrived/", cash_remote.entry_arrived, name="cash_entry_arrived"),
    path("cash/games/add/", cash_settings.game_add, name="cash_game_add"),
    path("cash/settings/", cash_settings.room_settings, name="cash_room_settings"),
    path("cash/keep-apart/", cash_settings.keep_apart, name="cash_keep_apart"),
    path("cash/lists/add/", cash_lists.list_add, name="cash_list_add"),
    path("cash/players/search/", cash_lists.player_search, name="cash_player_search"),
    path("cash/lists/<int:pk>/remove/", cash_lists.entry_remove, name="cash_entry_remove"),
    path("cash/lists/<int:pk>/answer/", cash_lists.entry_answer, name="cash_entry_answer"),
    path("cash/lists/<int:pk>/no-answer/", cash_lists.entry_no_answer, name="cash_entry_no_answer"),
    path("cash/lists/<int:pk>/seat/", cash_lists.entry_seat, name="cash_entry_seat"),
    path("cash/lists/<int:pk>/skip/", cash_lists.entry_skip, name="cash_entry_skip"),
    path("cash/games/<int:pk>/open/", cash_tables.table_open, name="cash_table_open"),
    path("cash/tables/<int:pk>/call/", cash_tables.table_call, name="cash_table_call"),
    path("cash/tables/<int:pk>/fill/", cash_tables.table_fill, name="cash_table_fill"),
    path("cash/tables/<int:pk>/close/", cash_tables.table_close, name="cash_table_close"),
    path("cash/tables/<int:pk>/hand/", cash_tablet.table_hand, name="cash_table_hand"),
    path("cash/tables/<int:pk>/rake/", cash_tablet.table_rake, name="cash_table_rake"),
    path("cash/tables/<int:pk>/tablet/", cash_tablet.cash_tablet, name="cash_tablet"),
    # No login: a dealer unlocks the table's tablet with his PIN.
    path("cash/tables/<int:pk>/unlock/", cash_tablet.cash_pin_unlock, name="cash_pin_unlock"),
    path("cash/seats/<int:pk>/move/", cash_seats.seat_move, name="cash_seat_move"),
    path("cash/seats/<int:pk>/request/", cash_seats.seat_request, name="cash_seat_request"),
    path("cash/seats/<int:pk>/sit-out/", cash_seats.seat_sit_out, name="cash_seat_sit_out"),
    path("cash/seats/<int:pk>/sit-back/", cash_seats.seat_sit_back, name="cash_seat_sit_back"),
    path("cash/seats/<int:pk>/marker/", cash_seats.seat_marker, name="cash_seat_marker"),
    path("cash/seats/<int:pk>/leave/", cash_seats.seat_leave, name="cash_seat_leave"),
    path("cash/seats/<int:pk>/buy/", cash_seats.seat_buy, name="cash_seat_buy"),
    path("cash/undo/<int:event_id>/", cash_board.cash_undo, name="cash_undo"),
    path(
        "cash/players/<int:player_id>/phone-link/",
        cash_lists.phone_link_new,
        name="cash_phone_link_new",
    ),
    path("cash/rake/", rake.rake_report, name="cash_rake_report"),
    # The jackpots: the floor's page, the manager's rules and their printout, claims, high
    # hands, payments and their slips; the TV screen needs no login, as the brush board.
    path("jackpots/", jackpots.jackpot_home, name="jackpot_home"),
    path("jackpots/board/", jackpots.jackpot_board, name="jackpot_board"),
    path("jackpots/settings/", jackpots.jackpot_settings, name="jackpot_settings"),
    path("jackpots/rules/", jackpots.jackpot_rules, name="jackpot_rules"),
    path("jackpots/claims/", jackpots.jackpot_claim, name="jackpot_claim"),
    path("jackpots/claims/<int:pk>/confirm/", jackpots.jackpot_confirm, name="jackpot_confirm"),
    path("jackpots/high-hands/", jackpots.jackpot_high_hand, name="jackpot_high_hand"),
    path("jackpots/periods/pay/", jackpots.jackpot_pay_period, name="jackpot_pay_period"),
    path("jackpots/payments/<int:pk>/slips/", jackpots.jackpot_slips, name="jackpot_slips"),
    path("jackpots/undo/<int:event_id>/", jackpots.jackpot_undo, name="jackpot_undo"),
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
    path("leagues/<int:league_id>/ranking.<str:fmt>", people.league_ranking, name="league_ranking"),
    path("l/<slug:league>/", people.league_public, name="league_public"),
    path("l/<slug:league>/standings.csv", people.league_csv, name="league_csv"),
]
