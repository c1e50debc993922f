"""A PKO night read by an Italian TD in real Chromium (it-IT): the staff menu is whole at
1280 px, the TV clock writes chips as the Italian pages do, and the ruling tool names
its rules and its options in words, a rule's text shown on hover or tap."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.conftest import make_tournament, make_user
from tournaments.models import DisplayScreen
from tournaments.services import clock as clock_services
from tournaments.services import setup as setup_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _login(page, url, username):
    page.goto(f"{url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", f"pw-{username}")
    page.click("button[type=submit]")
    page.wait_for_url(lambda u: "/login/" not in u)


MENU = """() => [...document.querySelectorAll('.topnav a')].map((a) => {
  const box = a.getBoundingClientRect();
  let clipped = false;
  for (let el = a.parentElement; el; el = el.parentElement) {
    const style = getComputedStyle(el);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
    const outer = el.getBoundingClientRect();
    if (box.left < outer.left - 0.5 || box.right > outer.right + 0.5
        || box.top < outer.top - 0.5 || box.bottom > outer.bottom + 0.5) clipped = true;
  }
  return {
    text: a.textContent.trim(),
    shown: box.width > 0 && box.height > 0 && box.left >= 0 && box.right <= innerWidth + 0.5,
    clipped,
  };
})"""


def test_every_menu_item_is_on_screen_at_1280_in_italian(live_server, browser):
    td = make_user("td-menu-it", staff=True)
    tournament = make_tournament(
        td, name="PKO del sabato", bounty_format="progressive", bounty_part_cents=1500
    )
    context = browser.new_context(locale="it-IT", viewport={"width": 1280, "height": 720})
    page = context.new_page()
    _login(page, live_server.url, td.username)
    page.goto(f"{live_server.url}/t/{tournament.slug}/")
    items = page.evaluate(MENU)
    assert len(items) >= 12  # every page of the TD's menu
    hidden = [i["text"] for i in items if not i["shown"] or i["clipped"]]
    assert hidden == [], f"menu items cut off at 1280 px: {hidden}"
    assert "Riepilogo" in [i["text"] for i in items]
    context.close()


def test_the_tv_clock_writes_chips_the_italian_way(daphne_url, browser):
    td = make_user("td-tv-it", staff=True)
    tournament = make_tournament(td, tables=1)
    setup_services.structure_set(
        tournament=tournament,
        actor=td,
        items=[
            setup_services.ItemSpec(kind="level", small_blind=1000, big_blind=2000, minutes=20),
            setup_services.ItemSpec(kind="level", small_blind=1500, big_blind=3000, minutes=20),
        ],
        now=timezone.now(),
    )
    clock_services.clock_start(tournament=tournament, actor=td, now=timezone.now())
    screen = DisplayScreen.objects.create(tournament=tournament, name="TV", kind="clock")
    context = browser.new_context(locale="it-IT", viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.goto(f"{daphne_url}/s/{screen.token}/")
    page.wait_for_selector("[data-blinds]")
    # Blank what the server wrote: what comes back is the screen's own countdown script.
    page.evaluate("document.querySelector('[data-blinds]').textContent = ''")
    page.evaluate("document.querySelector('[data-next]').textContent = ''")
    page.wait_for_selector("[data-blinds]:not(:empty)")
    page.wait_for_selector("[data-next]:not(:empty)")
    assert page.inner_text("[data-blinds]") == "1.000 / 2.000"
    assert page.inner_text("[data-next]").startswith("1.500 / 3.000")
    context.close()


def test_the_ruling_tool_names_rules_and_options_in_italian(live_server, browser):
    td = make_user("td-ruling-it", staff=True)
    tournament = make_tournament(td, tables=2)
    context = browser.new_context(locale="it-IT", viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.set_default_timeout(10000)
    _login(page, live_server.url, td.username)
    page.goto(f"{live_server.url}/t/{tournament.slug}/ruling/")
    page.click("details:has(#street) summary")
    options = page.locator("#setting_limit_short_allin_raise option").all_inner_texts()
    assert options == ["L'all-in più una puntata", "L'all-in vale come puntata intera"]
    every_option = " ".join(page.locator(".ruling-settings option").all_inner_texts())
    for code in ("allin_plus_bet", "always_fold", "always_full_call", "by_position"):
        assert code not in every_option

    for seat in (1, 2, 3):
        page.fill(f"input[name=stack_{seat}]", "20000")
    page.fill("#button", "3")
    page.select_option("#street", "flop")
    page.fill("#pot", "1000")
    page.click("form:has(input[name=op][value=start]) button.primary")
    page.locator(".ruling-next").wait_for()
    page.select_option("#act-kind", "bet")
    page.fill("#act-to", "2000")
    page.click("form:has(input[name=op][value=act]) button.primary")
    page.locator(".ruling-steps li .ruling-answer").first.wait_for()
    page.select_option("#act-kind", "chips")
    page.fill("#act-chips", "500")
    page.click("form:has(input[name=op][value=act]) button.primary")
    cite = page.locator(".ruling-steps li:nth-child(2) .cite").first
    cite.wait_for()
    # The step reads as words; the rule's code and sources wait behind a hover or a tap.
    step = page.inner_text(".ruling-steps li:nth-child(2)")
    assert "Undercall" in step and "R-CALL-3" not in step
    tip = cite.locator(".cite-text")
    assert not tip.is_visible()
    cite.hover()
    assert tip.is_visible() and "R-CALL-3" in tip.inner_text()
    page.mouse.move(0, 0)
    cite.focus()  # a tap on a tablet focuses it
    assert tip.is_visible()
    context.close()
