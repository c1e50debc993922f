"""A player reserves a seat from the public page, gets the confirmation with its QR code,
arrives, and the desk registers him from his reservation with one keystroke: his seat
appears. In Italian and in English."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tables.models import Seat
from tests.conftest import _staff, make_tournament
from tournaments.models import Entry, Reservation, Role

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

    player = browser.new_context(locale=locale, viewport={"width": 420, "height": 900})
    phone = player.new_page()
    phone.set_default_timeout(10000)
    phone.goto(f"{live_server.url}/events/")
    phone.click("[data-testid=reserve-link]")
    phone.fill("#id_first_name", "Giulia")
    phone.fill("#id_last_name", "Marini")
    phone.fill("#id_email", "giulia@example.com")
    phone.check("#id_accepted_terms")
    phone.click("[data-testid=reserve]")
    phone.locator("[data-testid=confirmation]").wait_for()
    code = phone.inner_text("[data-testid=reservation-code]").strip()
    assert words["held"] in phone.inner_text("[data-testid=reservation-status]")
    assert phone.locator("[data-testid=reservation-qr] svg").count() == 1
    confirmation_url = phone.url
    assert Reservation.objects.get(code=code).status == Reservation.Status.HELD
    player.close()

    staff = browser.new_context(locale=locale, viewport={"width": 1200, "height": 900})
    page = staff.new_page()
    page.set_default_timeout(10000)
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", desk.username)
    page.fill("#id_password", f"pw-{desk.username}")
    page.click("button[type=submit]")
    page.goto(f"{live_server.url}/t/{event.slug}/desk/")
    page.click("[data-testid=desk-reservations]")
    # The scanner types the QR code's address and Enter into the focused search.
    search = page.locator("[data-testid=reservation-search]")
    search.fill(confirmation_url)
    search.press("Enter")
    page.wait_for_url("**q=**")
    button = page.locator("[data-testid=register-reservation]")
    assert button.evaluate("el => el === document.activeElement")
    page.keyboard.press("Enter")  # the one keystroke
    page.locator("[data-testid=seat]").wait_for()
    assert words["table"] in page.inner_text("[data-testid=seat]")
    entry = Entry.objects.get(tournament=event)
    assert entry.player.last_name == "Marini"
    assert Seat.objects.filter(entry=entry).exists()
    assert Reservation.objects.get(code=code).status == Reservation.Status.ARRIVED
    staff.close()
