"""A night at the tables, in real Chromium, once in English and once in Italian: the desk
registers 30 players by keyboard, the TV, the seating board, two table
tablets and a phone are open, the TD starts the clock from the console, a rebuy and an
add-on are sold at their windows, two players bust in one hand, one re-enters, and the
money adds up. Every screen is checked within 2 s of the action, without a reload.

Add the next defect found on a night here, as one more step.
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.utils import timezone

from tests.browser.test_night_screens import _session_cookie
from tests.conftest import make_tournament, make_user
from tournaments import selectors
from tournaments.models import DisplayScreen, Entry, Role, StaffAssignment
from tournaments.services import clock as clock_services
from tournaments.services import entries as entry_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIVE = 5000  # ms; as in test_night_screens.py: a push, not a reload (speed: bench fanout)
WORDS = {
    "en": {"start": "Start", "addon_now": "Add-ons on sale now", "rebuy": "Rebuy"},
    "it": {"start": "Avvia", "addon_now": "Add-on in vendita ora", "rebuy": "Rebuy"},
}
SURNAMES = [f"Night{chr(65 + i // 6)}{chr(97 + i % 6)}" for i in range(30)]


def _context(browser, language, user=None, url=None):
    context = browser.new_context(locale={"en": "en-GB", "it": "it-IT"}[language])
    if user is not None:
        cookies = _session_cookie(user, url)
        cookies.append({"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": url})
        context.add_cookies(cookies)
    page = context.new_page()
    page.set_default_timeout(10000)
    return page


def _screen(browser, language, url):
    page = _context(browser, language)
    page.goto(url)
    page.wait_for_selector("[data-sync][data-state=ok]")
    return page


@pytest.mark.parametrize("language", ["en", "it"])
def test_a_night_at_the_tables(daphne_url, browser, language):
    words = WORDS[language]
    td = make_user(f"td-night-{language}", staff=True)
    tournament = make_tournament(
        td,
        reentry_allowed=True,
        max_entries=2,
        rebuys_allowed=True,
        rebuy_max=2,
        rebuy_price=100,
        rebuy_chips=10000,
        rebuy_until_level=1,
        addon_allowed=True,
        addon_price=50,
        addon_chips=15000,
        addon_break_after_level=2,
    )
    desk_user = make_user(f"desk-night-{language}")
    StaffAssignment.objects.create(tournament=tournament, user=desk_user, role=Role.DESK)
    for name in SURNAMES:  # added at this event's desk (the desk finds its events' players)
        entry_services.player_create(
            tournament=tournament, actor=td, first_name="Pia", last_name=name, now=timezone.now()
        )

    # The desk registers 30 players by keyboard: name, Enter, Enter.
    desk = _context(browser, language, desk_user, daphne_url)
    desk.goto(f"{daphne_url}/t/{tournament.slug}/desk/")
    for number, name in enumerate(SURNAMES, start=1):
        desk.keyboard.type(name)
        if number > 1:
            desk.keyboard.press("Enter")  # from the seat card's search to the desk
        desk.locator("#results li").first.wait_for()
        desk.wait_for_function(
            f"() => document.querySelectorAll('#results li').length === 1"
            f" && document.querySelector('#results').textContent.includes('{name}')"
        )
        desk.keyboard.press("Enter")
        desk.locator("[data-testid=seat]").wait_for()
        desk.wait_for_function("() => document.activeElement.dataset.testid === 'next-search'")
    assert Entry.objects.filter(tournament=tournament).count() == 30

    # The screens: TV, seating board, two tablets, a phone.
    screens = {
        kind: DisplayScreen.objects.create(tournament=tournament, name=kind, kind=kind)
        for kind in ("clock", "seating")
    }
    tv = _screen(browser, language, f"{daphne_url}/s/{screens['clock'].token}/")
    board = _screen(browser, language, f"{daphne_url}/s/{screens['seating'].token}/")
    tablets = {}
    for number in (1, 2):
        screen = DisplayScreen.objects.create(
            tournament=tournament, name=f"T{number}", kind="table", table_number=number
        )
        tablets[number] = _screen(browser, language, f"{daphne_url}/s/{screen.token}/")
    phone = _context(browser, language)
    phone.goto(f"{daphne_url}/p/{tournament.slug}/find/?q={SURNAMES[0]}")
    assert SURNAMES[0] in phone.inner_text("#results")
    assert tv.inner_text("[data-testid=players]").replace(" ", "") == "30/30"

    # The TD starts the clock from the console: the draw is evened out first (8/8/7/7).
    console = _context(browser, language, td, daphne_url)
    console.goto(f"{daphne_url}/t/{tournament.slug}/clock/")
    console.wait_for_selector("[data-sync][data-state=ok]")
    start = console.get_by_role("button", name=words["start"], exact=True)
    start.click()
    tv.wait_for_function("() => document.body.dataset.clockStatus === 'running'", timeout=LIVE)
    counts = sorted(
        (t.seats.count() for t in tournament.tables.all() if t.seats.exists()), reverse=True
    )
    assert counts == [8, 8, 7, 7]
    tournament.refresh_from_db()
    for number, tablet in tablets.items():
        names = {
            str(s.entry.player.last_name)
            for s in tournament.tables.get(number=number).seats.select_related("entry__player")
        }
        tablet.wait_for_function(
            "names => names.every((n) => document.querySelector('#seats').textContent.includes(n))",
            arg=sorted(names),
            timeout=LIVE,
        )

    # A rebuy in level 1, at the desk.
    buyer = SURNAMES[3]
    desk.goto(f"{daphne_url}/t/{tournament.slug}/desk/?q={buyer}")
    desk.locator("#results li").first.wait_for()
    desk.get_by_role("link", name=words["rebuy"], exact=True).click()
    desk.fill("#id_stack", "0")
    desk.locator("form button[type=submit]").last.click()
    desk.wait_for_url(re.compile(r"/desk/$"))
    assert Entry.objects.get(player__last_name=buyer).purchases.count() == 1

    # Two players out in one hand, from the floor's page: the TV counts them at once.
    out = list(
        Entry.objects.filter(tournament=tournament, seat__table__number=1).order_by("number")[:2]
    )
    floor = console
    floor.goto(f"{daphne_url}/t/{tournament.slug}/eliminations/")
    for index, entry in enumerate(out):
        floor.check(f"#out-{entry.number}")
        floor.fill(f"[name=stack_{entry.number}]", str(1000 * (index + 1)))
    floor.locator("form[action$='/eliminations/record/'] button.primary").click()
    tv.wait_for_function(
        "() => document.querySelector('[data-testid=players]').textContent.replace(/\\s/g, '')"
        " === '28/30'",
        timeout=LIVE,
    )
    tablets[1].wait_for_function(
        "names => names.every((n) => !document.querySelector('#seats').textContent.includes(n))",
        arg=[e.player.last_name for e in out],
        timeout=LIVE,
    )
    places = sorted(Entry.objects.get(pk=e.pk).place for e in out)
    assert places == [29, 30]  # the bigger stack finishes higher

    # One of them re-enters: Enter at the desk; he is never shown out while he plays.
    again = out[0].player.last_name
    desk.goto(f"{daphne_url}/t/{tournament.slug}/desk/?q={again}")
    desk.locator("#results li").first.wait_for()
    desk.keyboard.press("Enter")
    desk.locator("[data-testid=seat]").wait_for()
    tv.wait_for_function(
        "() => document.querySelector('[data-testid=players]').textContent.replace(/\\s/g, '')"
        " === '29/31'",
        timeout=LIVE,
    )
    public = _context(browser, language)
    public.goto(f"{daphne_url}/t/{tournament.slug}/results/")
    assert again not in public.inner_text("#results")

    # The add-on break: announced on the TV, sold at the desk.
    tournament.refresh_from_db()
    clock_services.clock_jump(tournament=tournament, actor=td, index=2, now=timezone.now())
    tv.wait_for_function(
        f"() => document.querySelector('[data-addon]').textContent === '{words['addon_now']}'",
        timeout=LIVE,
    )
    buyer_entry = Entry.objects.get(player__last_name=SURNAMES[5])
    desk.goto(f"{daphne_url}/t/{tournament.slug}/desk/?q={SURNAMES[5]}")
    desk.locator("#results li").first.wait_for()
    desk.locator(f"a[href$='/entries/{buyer_entry.number}/addon/']").click()
    desk.locator("form button[type=submit]").last.click()
    desk.wait_for_url(re.compile(r"/desk/$"))
    assert buyer_entry.purchases.filter(kind="addon").count() == 1

    # The money adds up, on the page as in the books.
    money = console
    money.goto(f"{daphne_url}/t/{tournament.slug}/money/")
    shown = [int(a) for a in re.findall(r'data-amount="(-?\d+)"', money.content())]
    pool = selectors.prize_pool(tournament).prize_pool
    assert sum(shown) == pool == 31 * 100 + 100 + 50
    # The board lists the 29 still playing (two out, one back), within 2 s of the busts.
    board.wait_for_function(
        "() => document.querySelectorAll('[data-entry]').length === 29", timeout=LIVE
    )
    _break_hand_for_hand_and_results(
        daphne_url, browser, language, tournament, td, console, board, tablets
    )


def _break_hand_for_hand_and_results(
    daphne_url, browser, language, tournament, td, console, board, tablets
):

    # Two more out: the last table can break. The plan lists every seat card first.
    for entry in Entry.objects.filter(tournament=tournament, status="active").order_by("-number")[
        :2
    ]:
        entry_services.entry_eliminate(
            tournament=tournament, entry=entry, actor=td, now=timezone.now()
        )
    console.goto(f"{daphne_url}/t/{tournament.slug}/room/")
    destinations = console.locator("[data-testid=break-destinations] li")
    breaking = Entry.objects.filter(
        tournament=tournament, status="active", seat__table__number=4
    ).count()
    assert destinations.count() == breaking
    console.locator("form[action$='/room/apply/'] button.primary").click()
    board.wait_for_function(
        "() => document.querySelectorAll('[data-moves] .move').length >= 1", timeout=LIVE
    )
    moved = Entry.objects.filter(tournament=tournament, status="active", seat__arrived=False)
    assert moved.count() == breaking

    # Hand-for-hand on the bubble: a tablet reports its hand done, the console shows it.
    console.goto(f"{daphne_url}/t/{tournament.slug}/clock/")
    console.wait_for_selector("[data-sync][data-state=ok]")
    console.locator("form[action$='/h4h_start/'] button").click()
    console.wait_for_selector("[data-h4h-table='1']")
    tablets[1].locator("button[name=hand][value=done]").click()
    console.wait_for_function(
        "() => document.querySelector(\"[data-h4h-table='1']\").disabled", timeout=LIVE
    )

    # The results and a report: the PDF carries its page number.
    response = console.request.get(f"{daphne_url}/t/{tournament.slug}/reports/results.pdf")
    assert response.ok and response.body().startswith(b"%PDF")
    public = _context(browser, language)
    public.goto(f"{daphne_url}/t/{tournament.slug}/results/")
    rows = public.locator("#results tr").count()
    assert rows >= 4  # the heading and the players out (each once)
    _final_table_deal_and_the_end(daphne_url, browser, language, tournament, td, console)


def _final_table_deal_and_the_end(daphne_url, browser, language, tournament, td, console):

    # Hand-for-hand ends; players go out until the final table forms from the room's Apply.
    console.goto(f"{daphne_url}/t/{tournament.slug}/clock/")
    console.locator("form[action$='/h4h_stop/'] button").click()
    console.wait_for_selector("form[action$='/h4h_start/']")
    active = list(Entry.objects.filter(tournament=tournament, status="active").order_by("number"))
    for entry in active[: len(active) - 3]:
        entry_services.entry_eliminate(
            tournament=tournament, entry=entry, actor=td, now=timezone.now()
        )
    console.goto(f"{daphne_url}/t/{tournament.slug}/room/")
    if console.locator("[data-testid=final-table]").count():
        console.locator("form[action$='/room/apply/'] button.primary").click()
    tables = {
        e.seat.table.number
        for e in Entry.objects.filter(tournament=tournament, status="active").select_related(
            "seat__table"
        )
    }
    assert len(tables) == 1  # three players, one table

    # A deal among the last three (ICM), recorded by the TD on the money page.
    console.goto(f"{daphne_url}/t/{tournament.slug}/money/")
    for index, entry in enumerate(
        Entry.objects.filter(tournament=tournament, status="active").order_by("number")
    ):
        console.fill(f"[name=stack_{entry.number}]", str(100000 + 50000 * index))
    console.locator("#deal button[name=action][value=propose]").click()
    console.wait_for_selector("#deal-proposal")
    console.locator("#deal button[name=action][value=accept]").click()
    console.wait_for_url(re.compile(r"/money/$"))
    deal_text = console.inner_text("#deal")
    assert "icm" not in deal_text and "chip_chop" not in deal_text  # words, not codes

    # The last two go out: the winner is known and every prize adds up to the pool.
    last = list(Entry.objects.filter(tournament=tournament, status="active").order_by("number"))
    for entry in last[:2]:
        entry_services.entry_eliminate(
            tournament=tournament, entry=entry, actor=td, now=timezone.now()
        )
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    prizes = sum(e.prize or 0 for e in Entry.objects.filter(tournament=tournament))
    assert prizes == selectors.prize_pool(tournament).prize_pool
    public = _context(browser, language)
    public.goto(f"{daphne_url}/t/{tournament.slug}/results/")
    first = public.locator("#results tr").nth(1).inner_text()
    assert first.startswith("1")
