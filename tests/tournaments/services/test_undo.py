"""Undo and duplicates are safe."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.urls import reverse

from tests.conftest import NOW, make_player
from tournaments.models import Entry, Event, Player, Seat
from tournaments.services import entries as entry_services
from tournaments.services import seats as seat_services

pytestmark = pytest.mark.django_db


def _where(entry) -> tuple[int, int]:
    seat = Seat.objects.select_related("table").get(entry=entry)
    return seat.table.number, seat.number


def test_undoing_a_move_shows_what_it_changes_and_asks_once(client, tournament, td):
    registration = entry_services.entry_register(
        tournament=tournament, player=make_player("Ada", "Riva"), actor=td, now=NOW
    )
    before = _where(registration.entry)
    target = 2 if before[0] == 1 else 1
    seat_services.seat_move(
        tournament=tournament,
        entry=registration.entry,
        table_number=target,
        seat=4,
        actor=td,
        now=NOW,
    )
    event = Event.objects.get(action="seat.move")
    client.force_login(td)
    url = reverse("event_undo", args=[tournament.slug, event.pk])
    with time_machine.travel(NOW + dt.timedelta(seconds=30), tick=False):
        preview = client.post(url)
    assert preview.status_code == 200
    page = preview.content.decode()
    assert (
        "Riva Ada goes back from Table %s · Seat 4 to Table %s · Seat %s" % (target, *before)
        in page
    )
    assert _where(registration.entry) == (target, 4)  # nothing changed yet
    with time_machine.travel(NOW + dt.timedelta(seconds=40), tick=False):
        done = client.post(url, {"confirm": "1"})
    assert done.status_code == 302
    assert _where(registration.entry) == before


def test_an_old_action_asks_before_undo_and_a_fresh_one_does_not(client, tournament, td):
    first = entry_services.entry_register(
        tournament=tournament, player=make_player(), actor=td, now=NOW
    )
    second = entry_services.entry_register(
        tournament=tournament, player=make_player(), actor=td, now=NOW + dt.timedelta(minutes=9)
    )
    client.force_login(td)
    old = Event.objects.get(action="entry.register", data__entry=first.entry.pk)
    fresh = Event.objects.get(action="entry.register", data__entry=second.entry.pk)
    with time_machine.travel(NOW + dt.timedelta(minutes=10), tick=False):
        asked = client.post(reverse("event_undo", args=[tournament.slug, old.pk]))
        direct = client.post(reverse("event_undo", args=[tournament.slug, fresh.pk]))
    assert asked.status_code == 200 and b'name="confirm"' in asked.content
    assert Entry.objects.get(pk=first.entry.pk).status == Entry.Status.ACTIVE
    assert direct.status_code == 302
    assert Entry.objects.get(pk=second.entry.pk).status == Entry.Status.VOIDED


@pytest.mark.parametrize(
    ("first", "last", "document"),
    [
        ("Niccolò", "Bianchi", ""),  # same name
        ("BIANCHI", "niccolo", ""),  # either order, any case, no accents
        ("Nick", "White", "AB123"),  # the same document
    ],
)
def test_a_new_player_matching_an_active_one_is_flagged_before_registration(
    client, tournament, td, first, last, document
):
    known = make_player("Niccolò", "Bianchi", document_number="ab123")
    entry_services.entry_register(tournament=tournament, player=known, actor=td, now=NOW)
    client.force_login(td)
    count = Player.objects.count()
    response = client.post(
        reverse("player_new", args=[tournament.slug]),
        {"first_name": first, "last_name": last, "document_number": document, "register": "1"},
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert 'data-testid="duplicates"' in page and "Bianchi Niccolò" in page
    assert Player.objects.count() == count  # nothing added yet
    # A different person after all: one click adds and registers him.
    added = client.post(
        reverse("player_new", args=[tournament.slug]),
        {
            "first_name": first,
            "last_name": last,
            "document_number": document,
            "register": "1",
            "different_person": "1",
        },
    )
    assert added.status_code == 302 and Player.objects.count() == count + 1


def test_same_person_is_one_click_to_register_the_known_player(client, tournament, td):
    known = make_player("Lia", "Ferro", document_number="CF-77")
    entry = entry_services.entry_register(
        tournament=tournament, player=known, actor=td, now=NOW
    ).entry
    entry_services.entry_eliminate(tournament=tournament, entry=entry, actor=td, now=NOW)
    tournament.reentry_allowed, tournament.max_entries = True, 3
    tournament.save()
    other = make_player("Sara", "Pini")
    entry_services.entry_register(tournament=tournament, player=other, actor=td, now=NOW)
    client.force_login(td)
    page = client.post(
        reverse("player_new", args=[tournament.slug]),
        {"first_name": "sara", "last_name": "PINI"},
    ).content.decode()
    assert reverse("register", args=[tournament.slug, other.pk]) not in page  # he plays
    assert "Already playing" in page
    page = client.post(
        reverse("player_new", args=[tournament.slug]),
        {"first_name": "Lia", "last_name": "Ferro-Rossi", "document_number": "cf-77"},
    ).content.decode()
    register = reverse("register", args=[tournament.slug, known.pk])
    assert register in page
    assert client.post(register).status_code == 302  # one click: the known player re-enters
    assert known.entries.filter(status=Entry.Status.ACTIVE).count() == 1
