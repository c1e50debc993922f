"""The seating board of a PKO night shows everyone, in real Chromium: at 1920x1080 and
1280x720 every seated player is on some page, each row on one line and none cut off."""

from __future__ import annotations

import pytest

from tests.browser.pko_steps import board_names
from tests.conftest import NOW, make_player, make_tournament, make_user
from tournaments.models import DisplayScreen, Entry, Table
from tournaments.services import seats as seat_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SURNAMES = ["Colombo", "Ricci", "Costa", "Bianchi", "Esposito", "Romano", "Marino", "Greco"]


def _field(players: int):
    td = make_user("td-pko-board", staff=True)
    tournament = make_tournament(td, tables=14, bounty_format="progressive", bounty_part_cents=5000)
    tables = list(Table.objects.filter(tournament=tournament).order_by("number"))
    names = []
    for i in range(players):
        player = make_player(
            f"Massimiliano{i}", f"{SURNAMES[i % len(SURNAMES)]} Della Valle {i:03d}"
        )
        entry = Entry.objects.create(
            tournament=tournament,
            player=player,
            number=i + 1,
            chips=30000,
            created_at=NOW,
            bounty_cents=5000 + 137 * i,
        )
        seat_services.seat_place(entry=entry, table=tables[i // 9], seat=i % 9 + 1, now=NOW)
        names.append(str(player))
    screen = DisplayScreen.objects.create(tournament=tournament, name="Board", kind="seating")
    return screen, names


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1280, 720)])
def test_every_seated_player_appears_on_some_page_of_the_board(daphne_url, browser, width, height):
    screen, names = _field(120)
    context = browser.new_context(locale="it-IT", viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(10000)
    url = f"{daphne_url}/s/{screen.token}/"
    page.goto(url)
    page.wait_for_function("() => document.querySelector('#board').dataset.per !== ''")
    assert int(page.locator("#board").get_attribute("data-pages")) > 1
    seen = board_names(page, url, page_word="Pagina", of_word="di")
    assert seen == set(names)
    context.close()
