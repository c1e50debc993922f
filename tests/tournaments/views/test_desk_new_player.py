"""A refused "new player and register" writes nothing: no player row
is left behind, and retrying does not pile up duplicates."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments.models import Entry, Event, Player, Tournament

pytestmark = pytest.mark.django_db

NEW = {"first_name": "Carla", "last_name": "Fontana", "document_number": "", "register": "1"}


def test_a_refused_registration_keeps_no_new_player_and_retries_add_none(client, tournament, desk):
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    client.force_login(desk)
    events = Event.objects.count()
    for _attempt in range(3):
        response = client.post(reverse("player_new", args=[tournament.slug]), NEW, follow=True)
        assert response.status_code == 200
        assert "The tournament is over." in response.content.decode()
    assert not Player.objects.filter(last_name="Fontana").exists()
    assert Event.objects.count() == events


def test_an_accepted_new_player_is_registered_once(client, tournament, desk):
    client.force_login(desk)
    response = client.post(reverse("player_new", args=[tournament.slug]), NEW)
    assert response.status_code == 302 and response["Location"].endswith("/entries/1/seat/")
    assert Player.objects.filter(last_name="Fontana").count() == 1
    assert Entry.objects.filter(player__last_name="Fontana", tournament=tournament).count() == 1


def test_add_and_register_records_how_the_entry_was_paid(client, tournament, desk):
    """The books count sales by payment method: "Add and register" paid by card is a card
    sale (it was always booked as cash)."""
    client.force_login(desk)
    client.post(reverse("player_new", args=[tournament.slug]), {**NEW, "payment_method": "card"})
    assert Entry.objects.get(player__last_name="Fontana").payment_method == "card"
