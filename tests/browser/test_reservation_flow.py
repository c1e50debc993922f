"""A player reserves a seat from the public page, gets the confirmation with its QR code,
arrives, and the desk registers him from his reservation with one keystroke: his seat
appears. In Italian and in English."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.browser import cash_steps, phone_steps
from tests.conftest import _staff, make_tournament
from tournaments.models import Entry, Reservation, Role, Seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "it-IT": {"held": "Il tuo posto è tenuto", "table": "Tavolo"},
    "en-GB": {"held": "Your seat is held", "table": "Table"},
}


@pytest.mark.parametrize("locale", sorted(WORDS))
def test_reserve_arrive_and_register_in_one_keystroke(live_server, browser, locale):
    words = WORDS[locale]
    event = make_tournament(
        name=f"Deepstack {locale}",
        date=timezone.localdate(),
        reservations_open=True,
        reservable_seats=20,
    )
    desk = _staff(event, f"desk-{locale}", Role.DESK)

    code, confirmation_url, status = phone_steps.reserve(
        browser, live_server.url, locale, "Giulia", "Marini", "giulia@example.com"
    )
    assert words["held"] in status
    assert Reservation.objects.get(code=code).status == Reservation.Status.HELD

    page = cash_steps.screen(browser, locale, {"width": 1200, "height": 900})
    cash_steps.login(page, live_server.url, desk.username)
    seat = phone_steps.register_from_reservation(
        page, live_server.url, event.slug, confirmation_url
    )
    assert words["table"] in seat
    entry = Entry.objects.get(tournament=event)
    assert entry.player.last_name == "Marini"
    assert Seat.objects.filter(entry=entry).exists()
    assert Reservation.objects.get(code=code).status == Reservation.Status.ARRIVED
    page.context.close()
