"""Room-level pages: the room's players and leagues (the TD of any event, a
superuser), and the public league standings (no login)."""

from django.urls import path

from tournaments.views import people, results

urlpatterns = [
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
    path("s/<uuid:token>/counts/", people.tablet_counts, name="tablet_counts"),
    path("l/<slug:league>/", people.league_public, name="league_public"),
    path("l/<slug:league>/standings.csv", people.league_csv, name="league_csv"),
]
