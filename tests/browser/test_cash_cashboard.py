"""The cash room's board on a floor tablet (1024×768) and its brush board on a TV
(1920×1080), in real Chromium: a name typed at the list finds the room's players before a
record is made; a seat is one short row with its actions in a menu; closing a table and
removing a name ask first; alerts are coloured and counted; the TV shows large names, no
staff chrome, and a called player's table and seat. Screenshots go to var/screenshots/."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from django.utils import timezone

from tables.models import CashTable, RoomRole, RoomStaff, WaitEntry
from tables.services import cash as services
from tests.conftest import make_cash_game, make_player, make_user
from tournaments.models import Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("var/screenshots")
GREY = "rgb(33, 49, 66)"  # a plain badge: what every alert looked like


def _login(page, url, username):
    page.goto(f"{url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", f"pw-{username}")
    page.click("button[type=submit]")
    page.wait_for_url(lambda u: "/login/" not in u)


def _room():
    floor = make_user("boardfloor")
    RoomStaff.objects.create(user=floor, role=RoomRole.CASH)
    now = timezone.now()
    game = make_cash_game(floor, now=now, sb=1, bb=2, min_buy_in=100)
    players = [make_player(f"P{k:02d}", "Rossi" if k == 0 else f"Nome{k:02d}") for k in range(20)]
    for p in players:
        services.list_add(actor=floor, player=p, games=[game], present=True, now=now)
    for number, group in ((1, players[:9]), (2, players[9:17])):
        services.table_open(
            actor=floor,
            game=game,
            number=number,
            present={p.pk for p in group},
            now=now,
            rng=random.Random(number),
        )
    return floor, game, players


@pytest.mark.parametrize("locale", ["en-GB", "it-IT"])
def test_the_board_fits_a_tablet_and_the_brush_board_a_tv(daphne_url, browser, locale):
    floor, game, players = _room()
    english = locale == "en-GB"
    SHOTS.mkdir(parents=True, exist_ok=True)
    tablet = browser.new_context(locale=locale, viewport={"width": 1024, "height": 768}).new_page()
    tablet.set_default_timeout(10000)
    _login(tablet, daphne_url, "boardfloor")
    tablet.goto(f"{daphne_url}/room/cash/")

    # A seat is one short row (it was ~200 px with six forms): both tables of nine seats
    # fit in little more than one screen of a tablet (6,500 px before).
    for table in (1, 2):
        for number in range(1, 10):
            row = tablet.locator(f"[data-testid=seat-{table}-{number}]").bounding_box()
            assert row["height"] <= 48, (table, number, row)
        assert tablet.locator(f"[data-testid=table-{table}]").bounding_box()["height"] < 480
    assert tablet.evaluate("document.documentElement.scrollHeight") < 2600
    # Its actions in a menu, each field with a visible label.
    seat = tablet.locator("[data-testid=seat-1-1]")
    seat.locator("details.menu summary").click()
    stake = seat.locator("label", has_text="Stake he leaves with" if english else "")
    assert stake.first.is_visible()
    tablet.screenshot(path=str(SHOTS / f"cash-board-1024x768-{locale}.png"))
    seat.locator("details.menu summary").click()

    # Alerts: a sit-out past its time is coloured and counted.
    sitting = CashTable.objects.get(number=1).seats.get(number=1)
    sitting.sit_out_until = timezone.now() - timezone.timedelta(minutes=5)
    sitting.save()
    tablet.reload()
    badge = tablet.locator("[data-testid=overdue-1-1]")
    colour = badge.evaluate("el => getComputedStyle(el).backgroundColor")
    assert colour != GREY and colour.startswith("rgb(226, 85, 85")
    count = tablet.text_content("[data-testid=alert-count]")
    assert ("1 alert on the board" if english else "1 avviso sul tabellone") in count

    # Closing a table asks first; dismissed, nothing happens.
    questions = []

    def dismiss(dialog):
        questions.append(dialog.message)
        dialog.dismiss()

    tablet.once("dialog", dismiss)
    tablet.click("[data-testid=close-2]")
    tablet.wait_for_timeout(300)
    assert questions and ("Close table 2?" if english else "Chiudere il tavolo 2?") in questions[0]
    assert CashTable.objects.get(number=2).status == CashTable.Status.OPEN

    # A name typed at the list: found among the room's players, nobody new is made.
    before = Player.objects.count()
    tablet.fill("#id_find", "rossi")
    tablet.wait_for_selector(f"[data-testid=match-{players[0].pk}]")
    tablet.fill("#id_find", "Bianchi Luca")
    tablet.wait_for_selector("[data-testid=no-match]")
    tablet.check(f"input[name=games][value='{game.pk}']")
    tablet.check("#id_present")
    tablet.click("[data-testid=list-add] button[type=submit]")
    tablet.wait_for_selector(".message.error")
    assert Player.objects.count() == before
    # Asked for, the record is made and the name joins the list.
    tablet.fill("#id_find", "Bianchi Luca")
    tablet.click("[data-testid=new-player] summary")
    tablet.check("#id_create")
    tablet.fill("#id_first_name", "Luca")
    tablet.fill("#id_last_name", "Bianchi")
    tablet.check(f"input[name=games][value='{game.pk}']")
    tablet.check("#id_present")
    tablet.click("[data-testid=list-add] button[type=submit]")
    tablet.wait_for_selector("text=Bianchi Luca")
    assert Player.objects.filter(last_name="Bianchi").count() == 1
    luca = Player.objects.get(last_name="Bianchi")
    assert WaitEntry.objects.filter(player=luca).exists()

    # The TV: a free seat of table 2 is called; the called name shows table and seat.
    table = CashTable.objects.get(number=2)
    free = next(n for n in range(1, 10) if not table.seats.filter(number=n).exists())
    services.list_call(actor=floor, table=table, seat=free, now=timezone.now())
    tv = browser.new_context(locale=locale, viewport={"width": 1920, "height": 1080}).new_page()
    tv.set_default_timeout(10000)
    tv.goto(f"{daphne_url}/room/cash/board/")
    called = tv.locator("li.called")
    text = called.text_content()
    assert (
        f"seat ready: table 2 seat {free}" if english else f"posto pronto: tavolo 2 posto {free}"
    ) in text
    size = float(called.evaluate("el => getComputedStyle(el).fontSize").removesuffix("px"))
    assert size >= 32, size  # 16 px before
    assert tv.locator(".topbar").count() == 0
    assert (
        tv.get_by_text("Staff login").count() == 0 and tv.get_by_text("Accesso staff").count() == 0
    )
    width = tv.locator("#brush").bounding_box()["width"]
    assert width > 1700, width  # a 1,170 px column before
    tv.screenshot(path=str(SHOTS / f"cash-brush-1920x1080-{locale}.png"))
