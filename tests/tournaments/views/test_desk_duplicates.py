"""The desk asks before adding a player it may already know: "Sara Colombo" typed beside
a known "Colombo Sara" (another of the clerk's nights, or out of this one) shows the match,
adds nobody, and the match is registered in one click; the new-player form says how the
entry was paid, and the answer survives the question."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.conftest import NOW, make_player, make_tournament
from tournaments.models import Entry, Player, Role, StaffAssignment
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db


def _known(tournament, td, first, last, **fields):
    player = make_player(first, last, **fields)
    entry_services.entry_register(tournament=tournament, player=player, actor=td, now=NOW)
    return player


def _add(client, tournament, first, last, **extra):
    data = {"first_name": first, "last_name": last, "document_number": "", "register": "1"}
    return client.post(reverse("player_new", args=[tournament.slug]), {**data, **extra})


@pytest.fixture
def last_week(td, desk):
    """Last week's night, worked at the same desk."""
    night = make_tournament(td, name="Last week")
    StaffAssignment.objects.create(tournament=night, user=desk, role=Role.DESK)
    return night


def test_a_player_of_last_weeks_night_typed_the_other_way_round_is_shown_not_added(
    client, tournament, td, desk, last_week
):
    sara = _known(last_week, td, "Sara", "Colombo", document_number="AB123424")
    client.force_login(desk)
    response = _add(client, tournament, "Sara", "Colombo ", payment_method="card")
    page = response.content.decode()
    assert response.status_code == 200
    assert 'data-testid="duplicates"' in page and "Colombo Sara" in page and "••••24" in page
    assert "AB123424" not in page  # the desk did not type it: masked
    assert Player.objects.filter(last_name__startswith="Colombo").count() == 1
    assert not tournament.entries.exists()
    # The match shown is registrable, paid as the clerk said.
    assert '<option value="card" selected>' in page
    response = client.post(
        reverse("register", args=[tournament.slug, sara.pk]), {"payment_method": "card"}
    )
    assert response.status_code == 302 and response["Location"].endswith("/entries/1/seat/")
    entry = tournament.entries.get()
    assert entry.player == sara and entry.payment_method == "card"


def test_a_player_out_of_this_event_is_shown_when_he_comes_back(client, tournament, td, desk):
    out = _known(tournament, td, "Ugo", "Neri")
    entry_services.entry_eliminate(
        tournament=tournament, entry=out.entries.get(), actor=td, now=NOW
    )
    client.force_login(desk)
    page = _add(client, tournament, "neri", "ugo").content.decode()
    assert 'data-testid="duplicates"' in page and "Neri Ugo" in page
    assert "1 entry, eliminated" in page
    assert Player.objects.filter(last_name__iexact="neri").count() == 1


def test_a_different_person_is_added_and_registered_as_paid(client, tournament, td, desk):
    _known(tournament, td, "Sara", "Colombo")
    client.force_login(desk)
    page = _add(client, tournament, "Colombo", "Sara", payment_method="voucher").content.decode()
    assert 'name="payment_method" value="voucher"' in page  # carried by "a different person"
    response = _add(
        client, tournament, "Colombo", "Sara", payment_method="voucher", different_person="1"
    )
    assert response.status_code == 302
    assert Player.objects.filter(last_name="Sara", first_name="Colombo").count() == 1
    assert Entry.objects.get(player__last_name="Sara").payment_method == "voucher"


def test_the_new_player_form_asks_how_it_was_paid_in_italian(client, tournament, desk):
    client.force_login(desk)
    page = client.get(reverse("desk", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="it")
    html = page.content.decode()
    form = html[html.index(reverse("player_new", args=[tournament.slug])) :]
    form = form[: form.index("</form>")]
    assert 'name="payment_method"' in form
    assert "Pagato con" in form and "Carta" in form and "Aggiungi e iscrivi" in form
