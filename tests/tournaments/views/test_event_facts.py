"""The event's facts the rankings need: the room's defaults, the settings page (words in
both languages, logged and undoable, bad input refused), the player's country, the
field size, and the backup (carried; an older file without them still imports)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from room.services import people as people_services
from tests.conftest import NOW, make_manager, make_player, make_tournament, make_user
from tournaments import errors
from tournaments.events import event_undo
from tournaments.models import Event, Player, Tournament
from tournaments.selectors import rankings
from tournaments.services import backup_export, backup_import, results
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db


def _form_data(client, tournament) -> dict:
    """The settings form as the page shows it (checkboxes ticked as shown)."""
    form = client.get(reverse("tournament_edit", args=[tournament.slug])).context["form"]
    data = {
        name: ("on" if value is True else "" if value is None or value is False else value)
        for name, value in ((f.name, f.value()) for f in form)
    }
    return {k: v for k, v in data.items() if v != ""}


def test_a_new_event_takes_the_rooms_currency_city_and_country(settings, td):
    settings.ROOM_CURRENCY, settings.ROOM_CITY, settings.ROOM_COUNTRY = "CHF", "Lugano", "CH"
    event = make_tournament(td, tables=0)
    assert (event.currency, event.city, event.country) == ("CHF", "Lugano", "CH")
    assert (event.category, event.open_to_public) == ("open", True)


def test_the_td_sets_the_facts_on_the_settings_page_logged_and_undoable(client, td, tournament):
    client.force_login(td)
    data = _form_data(client, tournament)
    data.pop("open_to_public")  # unticked
    data.update(city="Campione d'Italia", country="CH", category="ladies", currency="chf")
    response = client.post(reverse("tournament_edit", args=[tournament.slug]), data)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.city, tournament.country, tournament.currency) == (
        "Campione d'Italia",
        "CH",
        "CHF",
    )
    assert (tournament.category, tournament.open_to_public) == ("ladies", False)
    change = Event.objects.get(tournament=tournament, action="tournament.update")
    assert change.data["after"]["category"] == "ladies"
    event_undo(event_id=change.pk, tournament=tournament, actor=td, now=NOW)
    tournament.refresh_from_db()
    assert (tournament.country, tournament.category, tournament.open_to_public) == (
        "IT",
        "open",
        True,
    )


def test_the_page_shows_words_in_the_readers_language(client, td, tournament):
    client.force_login(td)
    url = reverse("tournament_edit", args=[tournament.slug])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Risultati e classifiche" in page and "Femminile" in page and "Beneficenza" in page
    assert '<option value="IT" selected>Italia</option>' in page
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Results and rankings" in page and "Ladies" in page and "Charity" in page
    assert '<option value="IT" selected>Italy</option>' in page


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("country", "XX", "non è tra quelle disponibili"),
        ("category", "vip", "non è tra quelle disponibili"),
        ("currency", "E1", "Scrivi un codice valuta di tre lettere"),
    ],
)
def test_bad_facts_are_refused_in_the_readers_words_and_change_nothing(
    client, td, tournament, field, value, words
):
    client.force_login(td)
    data = {**_form_data(client, tournament), field: value}
    response = client.post(
        reverse("tournament_edit", args=[tournament.slug]), data, HTTP_ACCEPT_LANGUAGE="it"
    )
    assert response.status_code == 200
    assert words in response.content.decode()
    tournament.refresh_from_db()
    assert (tournament.country, tournament.category, tournament.currency) == ("IT", "open", "EUR")
    assert not Event.objects.filter(tournament=tournament, action="tournament.update").exists()


def test_a_players_country_is_kept_and_goes_with_an_erasure(td):
    player = make_player("Zoë", "Müller")
    people_services.player_update(player=player, actor=td, fields={"country": "DE"}, now=NOW)
    player.refresh_from_db()
    assert player.country == "DE"
    assert rankings.player_country(player) == "Germany"
    people_services.player_erase(player=player, actor=td, now=NOW)
    player.refresh_from_db()
    assert player.country == ""


def test_the_field_counts_entries_players_and_reentries(td, tournament):
    first, second = make_player("Anna"), make_player("Marco")
    entry = entry_services.entry_register(tournament=tournament, player=first, actor=td, now=NOW)
    entry_services.entry_register(tournament=tournament, player=second, actor=td, now=NOW)
    results.eliminations_record(
        tournament=tournament, busts=[results.Bust(entry=entry.entry)], actor=td, now=NOW
    )
    entry_services.entry_register(tournament=tournament, player=first, actor=td, now=NOW)
    field = rankings.field_size(tournament)
    assert (field.entries, field.players, field.reentries) == (3, 2, 1)


def test_the_backup_carries_the_facts_and_an_older_file_still_imports(td, tournament):
    importer = make_manager(make_user("importer"))
    Tournament.objects.filter(pk=tournament.pk).update(
        city="Sanremo", country="IT", category="seniors", open_to_public=False, currency="CHF"
    )
    player = make_player("José", "Núñez", country="ES")
    entry_services.entry_register(tournament=tournament, player=player, actor=td, now=NOW)
    document = backup_export.export_tournament(tournament, now=NOW)
    row = document["tournament"]
    assert (row["city"], row["country"], row["category"], row["open_to_public"]) == (
        "Sanremo",
        "IT",
        "seniors",
        False,
    )
    assert document["players"][0]["country"] == "ES"
    copy = backup_import.import_tournament(
        document, actor=importer, now=NOW + dt.timedelta(hours=1)
    )
    assert (copy.city, copy.country, copy.category, copy.open_to_public, copy.currency) == (
        "Sanremo",
        "IT",
        "seniors",
        False,
        "CHF",
    )
    # A file written before the facts existed: the same version, the fields absent. The
    # event takes the room's defaults; its players are matched as before.
    for key in ("city", "country", "category", "open_to_public"):
        del document["tournament"][key]
    for person in document["players"]:
        del person["country"]
    older = backup_import.import_tournament(
        document, actor=importer, now=NOW + dt.timedelta(hours=2)
    )
    assert (older.city, older.country, older.category, older.open_to_public) == (
        "",
        "IT",
        "open",
        True,
    )
    assert older.entries.get().player_id == player.pk
    assert Player.objects.get(pk=player.pk).country == "ES"


def test_a_backup_naming_an_unknown_country_is_refused(td, tournament):
    document = backup_export.export_tournament(tournament, now=NOW)
    document["tournament"]["country"] = "XX"
    with pytest.raises(errors.BadBackup):
        backup_import.import_tournament(document, actor=td, now=NOW)
    assert Tournament.objects.count() == 1
