"""The front door in Chromium: an anonymous visitor in Italian sees
the running event's clock and the next event with its buy-in; the TD's room dashboard
shows the running event with its alerts. FRONT_SCREENSHOT=dir saves both pages."""

from __future__ import annotations

import os
from datetime import timedelta

import pytest
from django.utils import timezone

from tests.conftest import make_player, make_tournament
from tournaments.services import clock as clock_services
from tournaments.services import entries as entry_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_front_page_and_room_dashboard(live_server, browser):
    now = timezone.now()
    running = make_tournament(name="Torneo del mercoledì", date=timezone.localdate())
    td = running.staff.get().user
    make_tournament(td, name="Deepstack del venerdì", date=timezone.localdate() + timedelta(days=2))
    clock_services.clock_start(tournament=running, actor=td, now=now)
    shots = os.environ.get("FRONT_SCREENSHOT")

    context = browser.new_context(locale="it-IT", viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10000)
    page.goto(f"{live_server.url}/")
    page.locator("[data-testid=running-event]").wait_for()
    assert "Torneo del mercoledì" in page.inner_text("[data-testid=running]")
    assert "Livello 1" in page.inner_text("[data-testid=running]")
    upcoming = page.inner_text("[data-testid=upcoming]")
    assert "Deepstack del venerdì" in upcoming and "100 + 20 EUR" in upcoming
    if shots:
        page.screenshot(path=os.path.join(shots, "front-page.png"), full_page=True)

    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", td.username)
    page.fill("#id_password", f"pw-{td.username}")
    page.click("button[type=submit]")
    page.goto(f"{live_server.url}/dashboard/")
    board = page.inner_text("[data-testid=dashboard]")
    assert "Torneo del mercoledì" in board
    if shots:
        page.screenshot(path=os.path.join(shots, "room-dashboard.png"), full_page=True)

    # The books of the night: one entry by card, one in cash, balancing to zero.
    for method in ("card", "cash"):
        entry_services.entry_register(
            tournament=running, player=make_player(), actor=td, now=now, payment_method=method
        )
    page.goto(f"{live_server.url}/t/{running.slug}/books/")
    methods = page.inner_text("[data-testid=by-method]")
    assert "Carta" in methods and "Contanti" in methods
    assert "Quadra a zero" in page.inner_text("[data-testid=balance]")
    if shots:
        page.screenshot(path=os.path.join(shots, "books.png"), full_page=True)
    context.close()
