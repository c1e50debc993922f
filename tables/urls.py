"""The room's own addresses, under /room/ (cash games, the pit); tournaments live under /t/."""

from __future__ import annotations

from django.urls import path

from tables.views import (
    cash_board,
    cash_lists,
    cash_phone,
    cash_remote,
    cash_seats,
    cash_settings,
    cash_tables,
    cash_tablet,
    jackpots,
    pit,
    rake,
    staff,
)
from tournaments.views import unlock

urlpatterns: list = [
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
    path("cash/tables/<int:pk>/unlock/", unlock.cash_pin_unlock, name="cash_pin_unlock"),
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
