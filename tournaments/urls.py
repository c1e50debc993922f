from django.urls import path

from tournaments.views import clock, core, desk, displays, setup

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
    path("<slug:slug>/clock/", clock.console, name="clock_console"),
    path("<slug:slug>/clock/<str:action>/", clock.control, name="clock_control"),
    path("<slug:slug>/screens/", clock.screens, name="screens"),
    path("<slug:slug>/screens/<int:screen_id>/revoke/", clock.screen_revoke, name="screen_revoke"),
]

# No login: screens by secret link, the public clock and the players' seat finder.
display_urlpatterns = [
    path("s/<uuid:token>/", displays.screen, name="screen"),
    path("s/<uuid:token>/hand/", displays.tablet_hand, name="tablet_hand"),
    path("p/<slug:slug>/", displays.public_clock, name="public_clock"),
    path("p/<slug:slug>/find/", displays.seat_finder, name="seat_finder"),
]
