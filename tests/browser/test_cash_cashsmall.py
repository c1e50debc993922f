"""What a room manager sees on the screens around a cash evening, in real Chromium, in
English and in Italian: the staff navigation is whole at 1280 px (a laptop at the desk),
and the lobby's TV with no event running says nothing about a connection it never makes."""

from __future__ import annotations

import pytest

from tests.browser.cash_steps import login
from tests.conftest import make_manager, make_tournament, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("locale", ["en-GB", "it-IT"])
def test_the_navigation_is_whole_at_1280_px(daphne_url, browser, locale, tmp_path):
    manager = make_manager(make_user(f"manager-{locale}"))
    # A PKO satellite: the navigation's longest row (its format's own page too).
    event = make_tournament(manager, name="Winter Satellite", bounty_format="progressive")
    context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(10000)
    login(page, daphne_url, manager.username)
    language = locale[:2]
    page.goto(f"{daphne_url}/t/{event.slug}/")
    assert page.get_attribute("html", "lang") == language
    links = page.locator(".topnav a")
    assert links.count() >= 13
    clipped = page.evaluate(
        """() => {
            const nav = document.querySelector('.topnav');
            const box = nav.getBoundingClientRect();
            const out = [...nav.querySelectorAll('a')].filter((a) => {
                const r = a.getBoundingClientRect();
                return r.left < box.left - 1 || r.right > box.right + 1 ||
                       r.right > window.innerWidth || r.width === 0;
            }).map((a) => a.textContent);
            return {out, scrolls: nav.scrollWidth > nav.clientWidth + 1,
                    page: document.documentElement.scrollWidth > window.innerWidth};
        }"""
    )
    page.screenshot(path=str(tmp_path / f"nav-1280-{language}.png"))
    assert clipped == {"out": [], "scrolls": False, "page": False}, clipped
    # Every link is there to click: the last one (Setup) opens its page.
    links.last.click()
    page.wait_for_url(f"**/t/{event.slug}/settings/")
    context.close()


@pytest.mark.parametrize(
    ("locale", "words"),
    [("en-GB", ("Reconnecting", "Connecting", "Offline")), ("it-IT", ("Riconnession", "Offline"))],
)
def test_the_idle_lobby_tv_does_not_say_reconnecting(daphne_url, browser, locale, words):
    context = browser.new_context(locale=locale, viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.set_default_timeout(10000)
    page.goto(f"{daphne_url}/lobby/")
    idle = "No event is running." if locale == "en-GB" else "Nessun evento in corso."
    page.wait_for_selector(f"text={idle}")
    # screen.js redraws the connection's state every five seconds: wait for one round.
    page.wait_for_timeout(5500)
    shown = page.inner_text("body")
    for word in words:
        assert word not in shown, (word, shown)
    assert page.locator("[data-sync]").count() == 0
    context.close()
