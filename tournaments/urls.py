from django.urls import path

from tournaments.views import core, desk, room, setup

urlpatterns = [
    path("", core.tournament_list, name="tournament_list"),
    path("new/", setup.tournament_create, name="tournament_create"),
    path("<slug:slug>/", core.tournament_home, name="tournament_home"),
    path("<slug:slug>/settings/", setup.tournament_edit, name="tournament_edit"),
    path("<slug:slug>/structure/", setup.structure_edit, name="structure_edit"),
    path("<slug:slug>/tables/", setup.tables_edit, name="tables_edit"),
    path("<slug:slug>/staff/", setup.staff_edit, name="staff_edit"),
    path("<slug:slug>/clone/", setup.tournament_clone, name="tournament_clone"),
    path("<slug:slug>/log/", core.event_log, name="event_log"),
    path("<slug:slug>/log/<int:event_id>/undo/", core.event_undo, name="event_undo"),
    path("<slug:slug>/desk/", desk.desk, name="desk"),
    path("<slug:slug>/desk/search/", desk.search, name="desk_search"),
    path("<slug:slug>/desk/players/new/", desk.player_new, name="player_new"),
    path("<slug:slug>/desk/players/<int:player_id>/register/", desk.register, name="register"),
    path("<slug:slug>/desk/players/<int:player_id>/id-check/", desk.check_id, name="id_check"),
    path("<slug:slug>/desk/entries/<int:number>/<str:kind>/", desk.purchase, name="purchase"),
    path("<slug:slug>/entries/<int:number>/seat/", desk.seat_card, name="seat_card"),
    path("<slug:slug>/entries/<int:number>/eliminate/", desk.eliminate, name="eliminate"),
    path("<slug:slug>/room/", room.room, name="room"),
    path("<slug:slug>/room/apply/", room.room_apply, name="room_apply"),
    path("<slug:slug>/room/buttons/", room.room_buttons, name="room_buttons"),
    path("<slug:slug>/room/move/", room.player_move, name="player_move"),
    path("<slug:slug>/room/tables/<int:table>/", room.room_table, name="room_table"),
    path("<slug:slug>/room/tables/<int:table>/button/", room.table_button, name="table_button"),
    path("<slug:slug>/room/tables/<int:table>/hand/", room.table_hand, name="table_hand"),
    path("<slug:slug>/room/tables/<int:table>/status/", room.table_status, name="table_status"),
    path(
        "<slug:slug>/room/tables/<int:table>/renumber/",
        room.table_renumber,
        name="table_renumber",
    ),
    path(
        "<slug:slug>/room/tables/<int:table>/seats/<int:seat>/lock/",
        room.seat_lock,
        name="seat_lock",
    ),
    path("<slug:slug>/entries/<int:number>/arrived/", room.move_confirm, name="move_confirm"),
]
