"""The seat card carries what the player paid, a receipt number and a QR code; the desk
search is filled from the seat card's own search."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.conftest import NOW, make_player, make_tournament
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db


def test_the_seat_card_has_the_amount_the_receipt_and_a_qr(client, tournament, td):
    entry = entry_services.entry_register(
        tournament=tournament, player=make_player(), actor=td, now=NOW
    ).entry
    client.force_login(td)
    page = client.get(reverse("seat_card", args=[tournament.slug, entry.number])).content.decode()
    assert "Paid 120.00 EUR" in page
    assert f"Receipt {tournament.pk}-0001" in page
    assert "<svg" in page.split('data-testid="seat-card-qr"')[1]
    assert "css/receipt" in page  # the 80 mm page, for this page only
    assert 'data-testid="next-search"' in page and "autofocus" in page


def test_the_seat_card_names_the_seat_of_this_event_and_survives_a_bust(client, tournament, td):
    """The card is read by the entry's number in its own event: its table and seat; an
    entry out of play (no seat any more) still has its card, without a seat; a number only
    another event holds is not found."""
    from tournaments.models import Seat

    verdi = entry_services.entry_register(
        tournament=tournament, player=make_player("Anna", "Verdi"), actor=td, now=NOW
    )
    other = make_tournament(td, name="Other event")
    for name in ("Dario", "Elena"):
        entry_services.entry_register(
            tournament=other, player=make_player(name, "Bianchi"), actor=td, now=NOW
        )
    client.force_login(td)

    def card(event, number):
        return client.get(reverse("seat_card", args=[event.slug, number]))

    page = card(tournament, verdi.entry.number).content.decode()
    assert '<p class="name">Verdi Anna</p>' in page
    where = page.split('data-testid="seat"')[1].split("</p>")[0]
    assert f"Table {verdi.table} · Seat {verdi.seat}" in where

    Seat.objects.filter(entry=verdi.entry).delete()
    page = card(tournament, verdi.entry.number)
    assert page.status_code == 200
    assert 'data-testid="seat"' not in page.content.decode()
    assert '<p class="where">No seat</p>' in page.content.decode()
    assert card(tournament, 2).status_code == 404  # only the other event has a number 2
    assert '<p class="name">Bianchi Elena</p>' in card(other, 2).content.decode()


def test_the_desk_search_opens_with_the_name_typed_on_the_seat_card(client, tournament, td):
    client.force_login(td)
    page = client.get(reverse("desk", args=[tournament.slug]), {"q": "Verdi"}).content.decode()
    box = page.split('id="q"')[1].split(">")[0]
    assert 'value="Verdi"' in box and "load" in box


def test_the_floor_eliminates_a_player_by_his_number_in_this_tournament_only(
    client, tournament, td, floor
):
    anna = entry_services.entry_register(
        tournament=tournament, player=make_player("Anna", "Verdi"), actor=td, now=NOW
    ).entry
    entry_services.entry_register(
        tournament=tournament, player=make_player("Bruno", "Neri"), actor=td, now=NOW
    )
    other = make_tournament(td, name="Other event")
    for name in ("Dario", "Elena"):
        entry_services.entry_register(
            tournament=other, player=make_player(name, "Bianchi"), actor=td, now=NOW
        )
    carla = entry_services.entry_register(
        tournament=other, player=make_player("Carla", "Rossi"), actor=td, now=NOW
    ).entry
    assert carla.number == 3  # a number nobody holds in this tournament
    client.force_login(floor)

    def eliminate(number):
        return client.post(reverse("eliminate", args=[tournament.slug, number]), follow=True)

    done = eliminate(anna.number)
    assert "Verdi Anna is out." in done.content.decode()
    anna.refresh_from_db()
    assert (anna.status, anna.place) == ("eliminated", 2)

    again = eliminate(anna.number)  # already out: said so, nothing changes
    assert "is not playing" in again.content.decode()
    anna.refresh_from_db()
    assert anna.place == 2

    # A number nobody holds here, or one held only in another event: not found, and the
    # other event's player plays on.
    assert eliminate(999).status_code == 404
    assert eliminate(10**12).status_code == 404  # past what the column holds: no 500
    assert eliminate(carla.number).status_code == 404
    carla.refresh_from_db()
    assert carla.status == "active"
