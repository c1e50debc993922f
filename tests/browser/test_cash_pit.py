"""Punto banco in Italian in real Chromium: cards are typed with Italian suit letters and
shown with suit symbols (blackjack's disputes are played in the cash evening)."""

from __future__ import annotations

import pytest

from tests.browser import cash_steps as steps
from tests.conftest import make_room_user
from tournaments.models import RoomRole

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_italian_supervisor_types_italian_suits(live_server, browser):
    make_room_user("capo-pit", RoomRole.PIT)
    page = steps.screen(browser, "it-IT", {"width": 820, "height": 1180})
    steps.login(page, live_server.url, "capo-pit")
    page.goto(f"{live_server.url}/room/pit/punto-banco/")
    page.fill("#id_cards", "9c Kf 10q 8p")
    page.fill("#id_bet-0-amount", "10")
    page.click("button[value=settle]")
    page.locator("[data-testid=pit-results]").wait_for()
    assert "Punto 9♥ 10♦, Banco K♣ 8♠." in page.inner_text("[data-testid=pit-steps]")
    page.context.close()
