"""The clock on a seat, on a real table tablet (Chromium, real WebSocket, daphne): the
floor calls it from the tablet and it counts down; a call near its end shows the last
seconds in large red digits and, at zero, the ruling, with no one pressing anything."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.utils import timezone

from tests.conftest import NOW, make_player, make_tournament, make_user
from tournaments.models import DisplayScreen, Event, TimeCall
from tournaments.services import entries as entry_services
from tournaments.services import timecalls as tc

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RED = "rgb(255, 59, 59)"


@pytest.fixture
def table(daphne_url, browser):
    td = make_user("td-timecall", staff=True)
    tournament = make_tournament(td, tables=1)
    regs = [
        entry_services.entry_register(
            tournament=tournament, player=make_player("Pia", name), actor=td, now=NOW
        )
        for name in ("Azzurri", "Viola")
    ]
    screen = DisplayScreen.objects.create(
        tournament=tournament, name="T1", kind="table", table_number=1
    )
    context = browser.new_context(locale="en-GB", viewport={"width": 800, "height": 1280})
    page = context.new_page()
    page.set_default_timeout(10000)
    page.goto(f"{daphne_url}/s/{screen.token}/")
    page.wait_for_selector("[data-sync][data-state=ok]")
    yield tournament, td, regs, page
    context.close()


def _seconds(page) -> int:
    return int(page.inner_text("[data-testid=timecall-countdown]"))


def test_the_floor_calls_the_clock_from_the_tablet_and_it_counts_down(table):
    tournament, _td, regs, page = table
    seat = regs[0].seat
    page.click(f"[data-timecall-seat='{seat}']")
    page.click("[data-timecall-facing='1']")  # facing a bet
    page.wait_for_selector("[data-timecall-running]")
    call = TimeCall.objects.get(tournament=tournament)
    assert (call.seat_number, call.facing_bet, call.from_tablet) == (seat, True, True)
    assert "Azzurri Pia" in page.inner_text("[data-timecall-running]")
    assert "Dead hand (Calling the clock, The clock's countdown)" in page.inner_text(
        "[data-timecall-running]"
    )
    first = _seconds(page)
    assert first in {30, 29}
    assert page.get_attribute("[data-timecall-running]", "data-phase") == "grant"
    time.sleep(1.2)
    assert _seconds(page) < first  # it counts down by itself

    page.click("[data-timecall-action='acted']")
    page.wait_for_selector("[data-testid=timecall-ruling]")
    assert "Acted in time" in page.inner_text("[data-testid=timecall-ruling]")
    call.refresh_from_db()
    assert call.outcome == "acted"


def test_the_last_seconds_count_down_in_red_then_the_ruling_shows(table):
    tournament, td, regs, page = table
    # Called 25 s ago by the floor's console: 5 s left, the final 5.
    tc.timecall_start(
        tournament=tournament,
        actor=td,
        now=timezone.now() - dt.timedelta(seconds=25),
        table_number=1,
        seat_number=regs[1].seat,
        facing_bet=True,
    )
    page.wait_for_selector("[data-timecall-running][data-phase=countdown]")
    digits = page.locator("[data-testid=timecall-countdown]")
    assert digits.evaluate("el => getComputedStyle(el).color") == RED
    seen = []
    deadline = time.monotonic() + 8
    while time.monotonic() < deadline and not page.query_selector("[data-testid=timecall-ruling]"):
        text = page.evaluate(
            "(document.querySelector('[data-testid=timecall-countdown]') || {}).textContent"
        )
        if text and (not seen or seen[-1] != text):
            seen.append(text)
        time.sleep(0.1)
    counted = [int(s) for s in seen]
    # Counted down second by second on screen (however long the page took to show it).
    assert len([s for s in counted if 1 <= s <= 5]) >= 2, counted
    assert counted == sorted(counted, reverse=True), counted

    ruling = page.inner_text("[data-testid=timecall-ruling]")
    assert (
        "Time ran out" in ruling
        and "Dead hand (Calling the clock, The clock's countdown)" in ruling
    )
    call = TimeCall.objects.get(tournament=tournament)
    assert (call.outcome, call.ruling) == ("expired", "dead_hand")
    assert Event.objects.filter(action="timecall.expire", data__ruling="dead_hand").count() == 1
