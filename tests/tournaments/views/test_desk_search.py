"""Player data stays with the events that hold it: the desk finds the
players of its own events and, by exact document number, anyone; document numbers are
masked unless typed exactly; searches are rate-limited and logged."""

from __future__ import annotations

import logging

import pytest
from django.urls import reverse

from config import ratelimit
from tests.conftest import NOW, make_player, make_tournament, make_user
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def elsewhere(db):
    """Another club's event, with a player the desk here has never met."""
    other_td = make_user("other-td", staff=True)
    other = make_tournament(other_td, name="Other club")
    stranger = make_player("Gianna", "Bianchi", document_number="CA1234567")
    entry_services.entry_register(tournament=other, player=stranger, actor=other_td, now=NOW)
    return stranger


def _search(client, tournament, q, **extra):
    return client.get(reverse("desk_search", args=[tournament.slug]), {"q": q}, **extra)


def test_the_desk_does_not_find_players_of_other_peoples_events(
    client, tournament, desk, elsewhere
):
    make_player("Gianna", "Bianchide")  # in no event at all
    client.force_login(desk)
    page = _search(client, tournament, "Bianchi").content.decode()
    assert "Gianna" not in page and "No player found" in page


def test_the_desk_finds_its_own_players_with_their_document_masked(client, tournament, td, desk):
    mine = make_player("Anna", "Verdi", document_number="AX998877")
    entry_services.entry_register(tournament=tournament, player=mine, actor=td, now=NOW)
    client.force_login(desk)
    page = _search(client, tournament, "Verdi").content.decode()
    assert "Verdi Anna" in page or "Anna Verdi" in page
    assert "AX998877" not in page and "••••77" in page


def test_an_exact_document_number_finds_anyone_and_shows_it(client, tournament, desk, elsewhere):
    client.force_login(desk)
    page = _search(client, tournament, "ca1234567").content.decode()
    assert "Gianna" in page and "CA1234567" in page
    # A part of it finds nobody and shows nothing.
    page = _search(client, tournament, "CA1234").content.decode()
    assert "Gianna" not in page and "CA1234" not in page.split("results")[-1]


def test_searches_are_rate_limited_per_account_and_logged(client, tournament, td, desk, caplog):
    client.force_login(desk)
    with caplog.at_level(logging.INFO, logger="tournaments.audit"):
        for _n in range(ratelimit.PLAYER_SEARCH.limit):
            assert _search(client, tournament, "Rossi").status_code == 200
        refused = _search(client, tournament, "Rossi")
    assert refused.status_code == 429
    assert "Too many searches" in refused.content.decode()
    lines = [r.getMessage() for r in caplog.records if r.name == "tournaments.audit"]
    assert len(lines) == ratelimit.PLAYER_SEARCH.limit + 1
    assert "player search by desk at" in lines[0] and "'Rossi'" in lines[0]
    assert "refused" in lines[-1]
    # Another account at the same desk is not held up.
    client.force_login(td)
    assert _search(client, tournament, "Rossi").status_code == 200


def test_a_duplicate_warning_masks_a_document_it_was_not_given(client, tournament, td, desk):
    same = make_player("Luca", "Neri", document_number="ZZ445566")
    entry_services.entry_register(tournament=tournament, player=same, actor=td, now=NOW)
    client.force_login(desk)
    page = client.post(
        reverse("player_new", args=[tournament.slug]),
        {"first_name": "Luca", "last_name": "Neri", "document_number": ""},
    ).content.decode()
    assert "Neri" in page and "ZZ445566" not in page


def test_a_player_added_at_this_desk_without_an_entry_is_found(client, tournament, desk):
    client.force_login(desk)
    client.post(
        reverse("player_new", args=[tournament.slug]),
        {"first_name": "Piero", "last_name": "Galli", "document_number": "PG12345"},
    )
    page = _search(client, tournament, "Galli").content.decode()
    assert "Piero" in page and "PG12345" not in page


def test_players_entered_here_and_added_here_come_in_one_list_in_name_order(
    client, tournament, td, desk, elsewhere
):
    """Searched as two lists (entered in the user's events, added at their desks), each
    stopping at the limit: the desk sees one list, in name order, cut at the limit."""
    from tournaments import selectors

    for first in ("Aldo", "Carla", "Elio"):
        player = make_player(first, "Moro")
        entry_services.entry_register(tournament=tournament, player=player, actor=td, now=NOW)
    client.force_login(desk)
    for first in ("Bruno", "Dora"):
        client.post(
            reverse("player_new", args=[tournament.slug]),
            {"first_name": first, "last_name": "Moro", "document_number": ""},
        )
    make_player("Anna", "Moro")  # in no event of this desk's
    found = selectors.player_search("moro", user=desk, limit=3)
    assert [p.first_name for p in found] == ["Aldo", "Bruno", "Carla"]
    page = _search(client, tournament, "Moro").content.decode()
    names = [n for n in ("Aldo", "Bruno", "Carla", "Dora", "Elio", "Anna") if n in page]
    assert names == ["Aldo", "Bruno", "Carla", "Dora", "Elio"]
    assert page.index("Bruno") < page.index("Carla") < page.index("Dora")


# --- A player id is reached through the desk's own search, never by walking ids -----------


def _register(client, tournament, player):
    return client.post(reverse("register", args=[tournament.slug, player.pk]))


def test_walking_player_ids_at_the_desk_finds_nobody_and_writes_nothing(
    client, tournament, desk, elsewhere
):
    from tournaments.models import Entry, IdCheck

    client.force_login(desk)
    for view in ("register", "id_check"):
        for player_id in (elsewhere.pk, elsewhere.pk + 1000):
            url = reverse(view, args=[tournament.slug, player_id])
            assert client.post(url).status_code == 404, (view, player_id)
    assert not Entry.objects.filter(tournament=tournament).exists()
    assert not IdCheck.objects.exists()


def test_a_player_the_search_showed_by_his_document_is_registered_here_only(
    client, tournament, td, desk, elsewhere
):
    from tournaments.models import IdCheck, Role, StaffAssignment

    other_desk = make_tournament(td, name="Late night")
    StaffAssignment.objects.create(tournament=other_desk, user=desk, role=Role.DESK)
    client.force_login(desk)
    _search(client, tournament, "CA1234567")
    # Shown at this event's desk: not at another desk of his.
    assert _register(client, other_desk, elsewhere).status_code == 404
    checked = client.post(reverse("id_check", args=[tournament.slug, elsewhere.pk]))
    assert checked.status_code == 302 and IdCheck.objects.filter(player=elsewhere).count() == 1
    assert _register(client, tournament, elsewhere).status_code == 302
    assert tournament.entries.filter(player=elsewhere).count() == 1
    assert not other_desk.entries.exists()


def test_what_the_search_showed_expires(client, tournament, desk, elsewhere, frozen_clock):
    import datetime as dt

    from tournaments.views import desk as desk_views

    client.force_login(desk)
    _search(client, tournament, "CA1234567")
    frozen_clock.shift(dt.timedelta(seconds=desk_views.SHOWN_FOR + 60))
    assert _register(client, tournament, elsewhere).status_code == 404
    assert not tournament.entries.exists()


def test_a_td_of_another_event_does_not_find_its_players_by_name(client, tournament, td, elsewhere):
    """Being a TD (of this event) reaches no other event's players: by name nobody, by the
    exact document the one player."""
    client.force_login(td)
    page = _search(client, tournament, "Gianna").content.decode()
    assert "Gianna" not in page and "No player found" in page
    assert "Gianna" in _search(client, tournament, "CA1234567").content.decode()


def test_the_room_manager_finds_every_player_but_never_a_merged_away_record(
    client, tournament, elsewhere
):
    from room.services import people as people_services
    from tests.conftest import make_manager

    manager = make_manager()
    twin = make_player("Gianna", "Bianchi", document_number="OLD999")
    people_services.players_merge(source=twin, target=elsewhere, actor=manager, now=NOW)
    client.force_login(manager)
    page = _search(client, tournament, "Gianna").content.decode()
    assert page.count("Gianna") == 1 and "••••67" in page  # the kept record alone
    assert "No player found" in _search(client, tournament, "OLD999").content.decode()
    assert _register(client, tournament, twin).status_code == 404
