"""A pit supervisor settles a disputed punto banco coup on a tablet, in Italian: htmx swaps
the settlement in place, then the ruling is saved to the log and opens ready to print."""

from __future__ import annotations

import os
import re

import pytest

from room.models import RoomEvent
from tests.conftest import make_user
from tournaments.models import RoomRole, RoomStaff

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_supervisor_settles_a_coup_on_a_tablet(live_server, browser):
    RoomStaff.objects.create(user=make_user("pit-boss"), role=RoomRole.PIT)
    context = browser.new_context(
        locale="it-IT", viewport={"width": 820, "height": 1180}, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(10000)
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", "pit-boss")
    page.fill("#id_password", "pw-pit-boss")
    page.click("button[type=submit]")
    page.goto(f"{live_server.url}/room/pit/punto-banco/")
    page.fill("#id_cards", "Tc 3h 2d 3c 9s")
    page.select_option("#id_bet-0-on", "banco")
    page.fill("#id_bet-0-amount", "25")
    page.select_option("#id_bet-1-on", "winning_number")
    page.select_option("#id_bet-1-number", "6")
    page.fill("#id_bet-1-amount", "10")
    page.click("button[value=settle]")
    page.locator("[data-testid=pit-results]").wait_for()
    steps = page.inner_text("[data-testid=pit-steps]")
    assert "tabella riga 6, colonna 9" in steps and "PB Art.14" in steps
    results = page.inner_text("[data-testid=pit-results]")
    assert "12.5" in results and "65" in results
    if os.environ.get("PIT_SCREENSHOT"):
        page.screenshot(path=os.environ["PIT_SCREENSHOT"], full_page=True)
    page.fill("#id_note", "Tavolo 2: contestato il pagamento del Banco con 6")
    page.click("button[value=save]")
    page.wait_for_url(re.compile(r"/room/pit/ruling/\d+/$"))
    assert page.url.endswith(f"/room/pit/ruling/{RoomEvent.objects.get().pk}/")
    assert "contestato il pagamento" in page.inner_text(".ruling-note")
    assert page.locator("[data-print]").is_visible()
    context.close()
