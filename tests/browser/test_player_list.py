"""The player list filters as the TD types, and the profile opens from a row."""

from __future__ import annotations

import pytest

from tests.conftest import NOW, make_player, make_tournament, make_user
from tournaments.services import entries as entry_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_search_as_you_type_and_open_a_profile(live_server, page):
    td = make_user("td-list", staff=True)
    tournament = make_tournament(td, tables=2)
    for first, last in (("Giulia", "Verdi"), ("Marco", "Blu"), ("Anna", "Neri")):
        entry_services.entry_register(
            tournament=tournament, player=make_player(first, last), actor=td, now=NOW
        )
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", "td-list")
    page.fill("#id_password", "pw-td-list")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.goto(f"{live_server.url}/t/{tournament.slug}/players/")
    rows = page.locator("[data-testid=player-list] tbody tr")
    assert rows.count() == 3
    page.fill("#id_q", "verd")
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=player-list] tbody tr').length === 1"
    )
    assert "Verdi" in rows.first.inner_text()
    page.locator("[data-testid=player-list] tbody tr a").first.click()
    page.locator("[data-testid=history]").wait_for()
    assert tournament.name in page.locator("[data-testid=history]").inner_text()
