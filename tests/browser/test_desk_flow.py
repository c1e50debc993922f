"""A desk clerk logs in, registers a new player and sees his seat in large type."""

from __future__ import annotations

import re

import pytest

from tests.conftest import make_tournament, make_user
from tournaments.models import Role, Seat, StaffAssignment

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_desk_registers_a_player_and_sees_the_seat(live_server, page):
    td = make_user("td-browser", staff=True)
    tournament = make_tournament(td, tables=2)
    clerk = make_user("clerk")
    StaffAssignment.objects.create(tournament=tournament, user=clerk, role=Role.DESK)

    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", "clerk")
    page.fill("#id_password", "pw-clerk")
    page.click("button[type=submit]")
    page.goto(f"{live_server.url}/t/{tournament.slug}/desk/")
    page.fill("#id_first_name", "Giulia")
    page.fill("#id_last_name", "Verdi")
    page.click("button[name=register]")

    where = page.locator("[data-testid=seat]")
    where.wait_for()
    seat = Seat.objects.select_related("table", "entry__player").get()
    assert seat.entry.player.last_name == "Verdi"
    text = where.inner_text()
    assert re.search(rf"Table {seat.table.number}\s*·\s*Seat {seat.number}", text), text
    # Large type: the seat is the biggest thing on the card.
    size = page.eval_on_selector(
        "[data-testid=seat]", "e => parseFloat(getComputedStyle(e).fontSize)"
    )
    assert size >= 40

    # The player is found again by the as-you-type search, shown as playing.
    page.goto(f"{live_server.url}/t/{tournament.slug}/desk/")
    page.fill("#q", "Verd")
    page.locator("#results li").first.wait_for()
    assert f"Table {seat.table.number}" in page.inner_text("#results")


def test_the_desk_speaks_italian_to_an_italian_browser(live_server, browser):
    td = make_user("td-it", staff=True)
    tournament = make_tournament(td, tables=1)
    context = browser.new_context(locale="it-IT")
    page = context.new_page()
    page.goto(f"{live_server.url}/login/")
    assert page.locator("h1").inner_text() == "Accesso staff"
    page.fill("#id_username", "td-it")
    page.fill("#id_password", "pw-td-it")
    page.click("button[type=submit]")
    page.goto(f"{live_server.url}/t/{tournament.slug}/desk/")
    assert page.locator("h1").inner_text() == "Banco registrazioni"
    context.close()
