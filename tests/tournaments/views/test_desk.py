"""The seat card carries what the player paid, a receipt number and a QR code; the desk
search is filled from the seat card's own search (issue 13, item 9)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.conftest import NOW, make_player
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db


def test_the_seat_card_has_the_amount_the_receipt_and_a_qr(client, tournament, td):
    entry = entry_services.entry_register(
        tournament=tournament, player=make_player(), actor=td, now=NOW
    ).entry
    client.force_login(td)
    page = client.get(reverse("seat_card", args=[tournament.slug, entry.number])).content.decode()
    assert "Paid 120 EUR" in page
    assert f"Receipt {tournament.pk}-0001" in page
    assert "<svg" in page.split('data-testid="seat-card-qr"')[1]
    assert "css/receipt" in page  # the 80 mm page, for this page only
    assert 'data-testid="next-search"' in page and "autofocus" in page


def test_the_desk_search_opens_with_the_name_typed_on_the_seat_card(client, tournament, td):
    client.force_login(td)
    page = client.get(reverse("desk", args=[tournament.slug]), {"q": "Verdi"}).content.decode()
    box = page.split('id="q"')[1].split(">")[0]
    assert 'value="Verdi"' in box and "load" in box
