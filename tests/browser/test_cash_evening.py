"""A cash evening in real Chromium (issue 19, item 6): lists fill from the floor's board, a
table opens from the list, a called player answers on his phone, the table closes and its
players go back on top of the list; the public brush board and the phone follow by push,
without a reload; the phone also in Italian."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tables.models import CashSeat, CashTable, RoomRole, RoomStaff, WaitEntry
from tables.views.cash import phone_token
from tests.conftest import make_cash_game, make_user
from tournaments.models import Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIVE = 3000  # ms: what a screen may take to show an action


def _login(page, url, username):
    page.goto(f"{url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", f"pw-{username}")
    page.click("button[type=submit]")
    page.wait_for_url(lambda u: "/login/" not in u)


def _screen(browser, url, locale="en-GB"):
    page = browser.new_context(locale=locale).new_page()
    page.set_default_timeout(10000)
    page.goto(url)
    return page


def test_a_cash_evening_with_live_screens(daphne_url, browser):
    floor = make_user("cashfloor")
    RoomStaff.objects.create(user=floor, role=RoomRole.CASH)
    game = make_cash_game(floor, now=timezone.now())
    brush = _screen(browser, f"{daphne_url}/room/cash/board/")
    board = _screen(browser, f"{daphne_url}/login/")
    _login(board, daphne_url, "cashfloor")
    board.goto(f"{daphne_url}/room/cash/")

    for first in ("Anna", "Bruno", "Carla", "Dario"):
        # New to the room: the search finds nobody, the floor asks for a new record.
        board.click("[data-testid=new-player] summary")
        board.check("#id_create")
        board.fill("#id_first_name", first)
        board.fill("#id_last_name", "Rossi")
        board.check(f"input[name=games][value='{game.pk}']")
        board.check("#id_present")
        board.click("[data-testid=list-add] button[type=submit]")
        board.wait_for_selector(f"text=Rossi {first} is on the list.")
    brush.wait_for_function(
        "() => document.querySelector('#brush').textContent.includes('Dario R.')", timeout=LIVE
    )

    carla = Player.objects.get(first_name="Carla")
    phone = _screen(browser, f"{daphne_url}/room/cash/me/{phone_token(carla)}/")
    phone_it = _screen(browser, f"{daphne_url}/room/cash/me/{phone_token(carla)}/", "it-IT")
    assert "number 3 on the list" in phone.text_content("[data-testid=my-lists]")

    # Table 4 opens from the list; Carla is not in the cash area and keeps her place.
    board.click(f"[data-testid=game-{game.pk}] summary:text-is('Open a table from this list')")
    board.uncheck(f"[data-testid=game-{game.pk}] input[name=present][value='{carla.pk}']")
    board.fill(f"[data-testid=game-{game.pk}] input[name=number]", "4")
    board.click("text=Open: draw seats and the button")
    board.wait_for_selector("text=Table 4 is open")
    brush.wait_for_function(
        "() => document.querySelector('#brush').textContent.includes('T4 3/9')", timeout=LIVE
    )
    phone.wait_for_function(
        "() => document.querySelector('[data-testid=my-lists]').textContent.includes('number 1')",
        timeout=LIVE,
    )

    # A free seat is called: Carla's phone shows the seat and the countdown, live.
    table = CashTable.objects.get(number=4)
    free = next(s for s in range(1, 10) if not table.seats.filter(number=s).exists())
    board.click(f"[data-testid=seat-4-{free}] button:has-text('Call from the list')")
    phone.wait_for_selector("[data-testid=seat-ready]", timeout=LIVE)
    ready = phone.text_content("[data-testid=seat-ready]")
    assert f"Your seat is ready: table 4 seat {free} — answer within 15 minutes" in ready
    assert phone.text_content("[data-testid=countdown]").startswith(("15:00", "14:5"))
    phone_it.wait_for_selector("[data-testid=seat-ready]", timeout=LIVE)
    assert "Il tuo posto è pronto: tavolo 4 posto" in phone_it.text_content(
        "[data-testid=seat-ready]"
    )
    phone.click("button[name=takes_seat][value=yes]")
    phone.wait_for_selector("text=The seat is kept for you")

    # The floor seats her from the list with the minimum buy-in.
    entry = WaitEntry.objects.get(player=carla)
    board.reload()
    board.click(f"[data-testid=entry-menu-{entry.player_id}] summary")
    board.click(f"[data-testid=entry-{entry.player_id}] button:text-is('Seat')")
    board.wait_for_selector(f"text=sits at table 4 seat {free}")
    assert CashSeat.objects.get(player=carla).buy_in == 200
    brush.wait_for_function(
        "() => document.querySelector('#brush').textContent.includes('T4 4/9')", timeout=LIVE
    )

    # The table closes: its four players are on top of the list, in card order.
    board.once("dialog", lambda dialog: dialog.accept())  # "Close table 4?"
    board.click("[data-testid=close-4]")
    board.wait_for_selector("text=its players are on top of the list")
    brush.wait_for_function(
        f"() => document.querySelectorAll('[data-testid=brush-list-{game.pk}] li').length === 4",
        timeout=LIVE,
    )
    assert "closed table" in brush.text_content(f"[data-testid=brush-list-{game.pk}]")
    assert WaitEntry.objects.filter(game=game, from_closed_table=True).count() == 4
