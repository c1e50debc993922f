"""The seating board of a PKO night shows everyone, in real Chromium: at 1920x1080 and
1280x720 every seated player is on some page, each row on one line and none cut off."""

from __future__ import annotations

import pytest

from tables.models import Table
from tables.services import seats as seat_services
from tests.conftest import NOW, make_player, make_tournament, make_user
from tournaments.models import DisplayScreen, Entry

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


VISIBLE = """() => {
  const rows = [...document.querySelectorAll('#board .board-rows li[data-name]')];
  const single = Math.min(...rows.map((r) => r.getBoundingClientRect().height));
  return rows.map((r) => {
    const box = r.getBoundingClientRect();
    return {
      name: r.dataset.name,
      shown: box.top >= 0 && box.bottom <= innerHeight + 0.5 && box.right <= innerWidth + 0.5
        && box.left >= 0 && box.width > 0,
      oneLine: box.height < single * 1.5,
    };
  });
}"""


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1280, 720)])
def test_every_seated_player_appears_on_some_page_of_the_board(daphne_url, browser, width, height):
    screen, names = _field(120)
    context = browser.new_context(locale="it-IT", viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(10000)
    url = f"{daphne_url}/s/{screen.token}/"
    page.goto(url)
    # The screen measures what fits and asks for pages of that size.
    page.wait_for_function("() => document.querySelector('#board').dataset.per !== ''")
    board = page.locator("#board")
    pages, per = int(board.get_attribute("data-pages")), int(board.get_attribute("data-per"))
    assert pages > 1
    # A page whose own rows measure differently (a wider name, a badge) may ask for a
    # smaller size once: the walk then starts again at the size the board settled on.
    for _attempt in range(3):
        seen: set[str] = set()
        settled = True
        for number in range(1, pages + 1):
            page.goto(f"{url}?page={number}&per={per}")
            page.wait_for_selector("#board .board-rows li[data-name]")
            page.wait_for_timeout(300)  # a measurement that would ask again has had its turn
            measured = int(page.locator("#board").get_attribute("data-per"))
            if measured != per:
                per, settled = measured, False
                pages = int(page.locator("#board").get_attribute("data-pages"))
                break
            assert f"Pagina {number} di {pages}" in page.inner_text(".board-page")
            rows = page.evaluate(VISIBLE)
            assert all(r["oneLine"] for r in rows), "a row wraps to two lines"
            cut = [r["name"] for r in rows if not r["shown"]]
            assert not cut, f"rows cut off at {width}x{height}: {cut[:3]}"
            seen.update(r["name"] for r in rows)
        if settled:
            break
    assert settled, "the board never settled on a page size"
    assert seen == set(names)
    context.close()
