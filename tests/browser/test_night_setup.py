"""The night begins before the first player: the TD creates the event, its structure, its
tables and the TV through the pages, in English and in Italian. The
night itself is played in test_night.py.
"""

from __future__ import annotations

import pytest
from django.conf import settings

from tests.browser.test_night_screens import _session_cookie
from tests.conftest import make_manager, make_user
from tournaments.models import DisplayScreen, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {
        "create": "Create tournament",
        "replace": "Replace the rows with it",
        "save_structure": "Save structure",
        "add_tables": "Add tables",
    },
    "it": {
        "create": "Crea torneo",
        "replace": "Sostituisci le righe con questa",
        "save_structure": "Salva struttura",
        "add_tables": "Aggiungi tavoli",
    },
}


def _words(language: str) -> dict[str, str]:
    """The buttons' words as the catalogue has them (checked, not guessed)."""
    from django.utils import translation

    with translation.override(language):
        return {
            "create": translation.gettext("Create tournament"),
            "replace": translation.gettext("Replace the rows with it"),
            "save_structure": translation.gettext("Save structure"),
            "add_tables": translation.gettext("Add tables"),
        }


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_td_sets_the_night_up_through_the_pages(daphne_url, browser, language):
    words = _words(language)
    assert words == WORDS[language]  # the buttons read as the room reads them
    # The room's manager creates the event (and so is its TD).
    td = make_manager(make_user(f"td-setup-{language}"))
    context = browser.new_context(locale={"en": "en-GB", "it": "it-IT"}[language])
    cookies = _session_cookie(td, daphne_url)
    cookies.append({"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": daphne_url})
    context.add_cookies(cookies)
    page = context.new_page()
    page.set_default_timeout(10000)

    # The event: name, buy-in, re-entry, a rebuy and an add-on.
    page.goto(f"{daphne_url}/t/new/")
    page.fill("#id_name", f"Friday Deepstack {language}")
    page.fill("#id_buy_in_prize", "90")
    page.fill("#id_buy_in_fee", "10")
    page.check("#id_reentry_allowed")
    page.fill("#id_max_entries", "2")
    page.check("#id_rebuys_allowed")
    page.fill("#id_rebuy_max", "2")
    page.fill("#id_rebuy_price", "100")
    page.fill("#id_rebuy_chips", "10000")
    page.fill("#id_rebuy_until_level", "2")
    page.check("#id_addon_allowed")
    page.fill("#id_addon_price", "50")
    page.fill("#id_addon_chips", "15000")
    page.fill("#id_addon_break_after_level", "4")
    with page.expect_navigation():
        page.get_by_role("button", name=words["create"]).click()
    errors = page.locator(".errorlist, .messages").all_inner_texts()
    assert "/structure/" in page.url, errors
    tournament = Tournament.objects.get(name=f"Friday Deepstack {language}")
    assert (tournament.reentry_allowed, tournament.max_entries) == (True, 2)
    assert (tournament.rebuy_until_level, tournament.addon_break_after_level) == (2, 4)

    # The structure: the club preset, saved.
    page.select_option("#preset", "club")
    page.get_by_role("button", name=words["replace"]).click()
    page.wait_for_function("() => document.querySelectorAll('input[name=minutes]').length > 5")
    with page.expect_navigation():
        page.get_by_role("button", name=words["save_structure"]).last.click()
    assert tournament.items.count() > 5
    assert tournament.items.filter(kind="break").exists()

    # Four tables of nine.
    page.goto(f"{daphne_url}/t/{tournament.slug}/tables/")
    page.fill("#id_first", "1")
    page.fill("#id_last", "4")
    page.fill("#id_max_seats", "9")
    page.get_by_role("button", name=words["add_tables"]).click()  # htmx: the list swaps in
    page.wait_for_function("() => document.querySelectorAll('form[id^=table-]').length === 4")
    errors = page.locator(".errorlist, .messages").all_inner_texts()
    assert tournament.tables.count() == 4, errors

    # The TV in the room: a clock screen, its link shown to copy.
    page.goto(f"{daphne_url}/t/{tournament.slug}/screens/")
    page.fill("input[name=name]", "TV")
    with page.expect_navigation():
        page.locator("form:has(input[name=name]) button[type=submit]").first.click()
    screen = DisplayScreen.objects.get(tournament=tournament, name="TV")
    assert str(screen.token) in page.content()

    # The TV shows the first level's blinds before the start.
    tv = browser.new_context(locale={"en": "en-GB", "it": "it-IT"}[language]).new_page()
    tv.goto(f"{daphne_url}/s/{screen.token}/")
    tv.wait_for_selector("[data-sync][data-state=ok]")
    first = tournament.items.filter(kind="level").first()
    assert f"{first.small_blind} / {first.big_blind}" in tv.inner_text("body")
    context.close()
