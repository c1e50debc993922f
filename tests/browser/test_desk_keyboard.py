"""The desk is fast by keyboard and the seat card fits an 80 mm receipt."""

from __future__ import annotations

import re

import pytest

from tests.conftest import NOW, make_tournament, make_user
from tournaments.models import Entry, Role, StaffAssignment
from tournaments.services import entries as entry_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_enter_registers_the_single_hit_and_the_focus_comes_back_to_search(live_server, page):
    td = make_user("td-keys", staff=True)
    tournament = make_tournament(td, tables=2)
    clerk = make_user("clerk-keys")
    StaffAssignment.objects.create(tournament=tournament, user=clerk, role=Role.DESK)
    # Players added at this event's desk earlier (the desk finds only its events' players).
    for first, last in (("Giulia", "Verdi"), ("Marco", "Blu")):
        entry_services.player_create(
            tournament=tournament, actor=td, first_name=first, last_name=last, now=NOW
        )
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", "clerk-keys")
    page.fill("#id_password", "pw-clerk-keys")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.goto(f"{live_server.url}/t/{tournament.slug}/desk/")

    page.keyboard.type("Verdi")  # the search has the focus
    page.locator("#results li").first.wait_for()
    page.keyboard.press("Enter")
    page.locator("[data-testid=seat]").wait_for()
    assert Entry.objects.filter(player__last_name="Verdi").count() == 1
    # After the registration the focus is in the search for the next player.
    page.wait_for_function("() => document.activeElement.dataset.testid === 'next-search'")
    page.keyboard.type("Blu")
    page.keyboard.press("Enter")
    page.locator("#results li").first.wait_for()
    page.keyboard.press("Enter")
    page.locator("[data-testid=seat]").wait_for()
    assert Entry.objects.filter(player__last_name="Blu").count() == 1

    # A new player: one Tab per field, from the first name to the buttons.
    page.goto(f"{live_server.url}/t/{tournament.slug}/desk/")
    page.focus("#id_first_name")
    order = []
    for _ in range(5):
        order.append(page.evaluate("() => document.activeElement.id"))
        page.keyboard.press("Tab")
    assert order == [
        "id_first_name",
        "id_last_name",
        "id_document_number",
        "id_nationality",
        "id_needs_accessible_seat",
    ]

    # The seat card: amount paid, receipt number, QR code, one 80 mm page.
    entry = Entry.objects.get(player__last_name="Blu")
    page.goto(f"{live_server.url}/t/{tournament.slug}/entries/{entry.number}/seat/")
    assert "Paid 120.00 EUR" in page.inner_text("[data-testid=paid]")
    assert re.search(r"Receipt \d+-0002", page.inner_text("[data-testid=receipt]"))
    assert page.locator("[data-testid=seat-card-qr] svg").count() == 1
    pdf = page.pdf(prefer_css_page_size=True)
    assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == 1
    width = float(re.search(rb"/MediaBox\s*\[\s*0 0 ([\d.]+)", pdf).group(1))
    assert abs(width - 80 / 25.4 * 72) < 3  # 80 mm in points
