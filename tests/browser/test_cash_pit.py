"""Three pit disputes of an evening in real Chromium, in English and Italian: a refused coup
shows its reasons with their articles in place (htmx swaps the 400 answer), a Banco card
exposed out of turn is marked and annulled, and in Italian cards are typed with Italian
suit letters and shown with suit symbols."""

from __future__ import annotations

import pytest

from tables.models import RoomRole, RoomStaff
from tests.conftest import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en-GB": {
        "refused": "A split ace gets exactly one card and can't be doubled",
        "article": "Double on any two cards (one card only)",
        "exposed": "as the Banco's card 2, exposed by mistake before its turn",
        "ten": "Th",
    },
    "it-IT": {
        "refused": "Un asso diviso riceve esattamente una carta",
        "article": "Raddoppio su due carte qualsiasi",
        "exposed": "è uscita come carta 2 del Banco, scoperta per errore",
        "ten": "10♥",
    },
}


def _box(page, n: int, cards: str, amount: str) -> None:
    page.fill(f"#id_box-{n}-hands", cards)
    page.fill(f"#id_box-{n}-amount", amount)


@pytest.mark.parametrize("locale", ["en-GB", "it-IT"])
def test_the_pit_answers_every_coup(live_server, browser, tmp_path, locale):
    words = WORDS[locale]
    RoomStaff.objects.create(user=make_user("pit-boss"), role=RoomRole.PIT)
    context = browser.new_context(locale=locale, viewport={"width": 1024, "height": 768})
    page = context.new_page()
    page.set_default_timeout(10000)
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", "pit-boss")
    page.fill("#id_password", "pw-pit-boss")
    page.click("button[type=submit]")
    page.wait_for_url(lambda u: "/login/" not in u)
    page.goto(f"{live_server.url}/room/pit/blackjack/")

    # a split ace doubled: the server refuses, and the page says why, with the article
    page.fill("#id_dealer", "9h 8s")
    _box(page, 0, "As 5d x2 / Ad 9s", "50")
    _box(page, 1, "Ts 9d", "50")
    page.click("button[value=settle]")
    refusals = page.locator("[data-testid=pit-refusals]")
    refusals.wait_for()
    text = refusals.inner_text()
    assert words["refused"] in text and "BJ Art.6.4" in text and words["article"] in text
    page.screenshot(path=str(tmp_path / f"pit-refused-{locale}.png"), full_page=True)

    # the Banco's second card shown before the boxes played: marked, annulled, not dealt
    dealer = "6c Th* 9s 4d" if locale == "en-GB" else "6f 10c* 9p 4q"
    page.fill("#id_dealer", dealer)
    _box(page, 0, "Ts 8d", "100")
    _box(page, 1, "9h 9d", "100")
    page.click("button[value=settle]")
    page.locator("[data-testid=pit-results]").wait_for()
    assert page.locator("[data-testid=pit-refusals]").count() == 0
    assert page.inner_text("[data-testid=pit-house]") == "200"
    steps = page.inner_text("[data-testid=pit-steps]")
    assert words["exposed"] in steps and "BJ Art.10.2" in steps
    assert words["ten"] in page.inner_text("[data-testid=pit-exposed]")
    page.screenshot(path=str(tmp_path / f"pit-exposed-{locale}.png"), full_page=True)
    context.close()


def test_an_italian_supervisor_types_italian_suits(live_server, browser):
    RoomStaff.objects.create(user=make_user("capo-pit"), role=RoomRole.PIT)
    context = browser.new_context(locale="it-IT", viewport={"width": 820, "height": 1180})
    page = context.new_page()
    page.set_default_timeout(10000)
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", "capo-pit")
    page.fill("#id_password", "pw-capo-pit")
    page.click("button[type=submit]")
    page.wait_for_url(lambda u: "/login/" not in u)
    page.goto(f"{live_server.url}/room/pit/punto-banco/")
    page.fill("#id_cards", "9c Kf 10q 8p")
    page.fill("#id_bet-0-amount", "10")
    page.click("button[value=settle]")
    page.locator("[data-testid=pit-results]").wait_for()
    assert "Punto 9♥ 10♦, Banco K♣ 8♠." in page.inner_text("[data-testid=pit-steps]")
    context.close()
