"""The clock TV of a PKO night in Italian, in real Chromium at 1920x1080 and 1280x720: the
QR codes stay whole on the screen and uncovered, the bounty list is readable, prizes carry
their currency and a bounty lead shared by many players is not a list of every name."""

from __future__ import annotations

import pytest

from tests.conftest import NOW, make_player, make_tournament, make_user
from tournaments.models import DisplayScreen, Entry
from tournaments.services import entries as entry_services
from tournaments.services import formats as format_services
from tournaments.services import results

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SURNAMES = ["Colombo", "Ricci", "Costa", "Bianchi", "Esposito", "Romano", "Marino", "Greco"]


def _pko_night(players: int = 40):
    td = make_user("td-pko-tv", staff=True)
    tournament = make_tournament(
        td,
        name="PKO del sabato",
        tables=5,
        bounty_format="progressive",
        bounty_part_cents=5000,
        buy_in_prize=50,
        buy_in_fee=15,
    )
    entries = [
        entry_services.entry_register(
            tournament=tournament,
            player=make_player(f"Giocatore{i}", f"{SURNAMES[i % len(SURNAMES)]} {i:02d}"),
            actor=td,
            now=NOW,
        ).entry
        for i in range(players)
    ]
    # One knockout for the ticker, then thirty-nine players tied at the top.
    results.eliminations_record(
        tournament=tournament, busts=[results.Bust(entry=entries[-1])], actor=td, now=NOW
    )
    format_services.bounty_award_record(
        tournament=tournament, eliminated=entries[-1], portions=[[entries[0]]], actor=td, now=NOW
    )
    Entry.objects.filter(pk__in=[e.pk for e in entries[:-1]]).update(bounty_cents=5000)
    return DisplayScreen.objects.create(tournament=tournament, name="TV", kind="clock")


LAYOUT = """() => {
  const inside = (box) => box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight + 0.5
    && box.right <= innerWidth + 0.5 && box.width > 0 && box.height > 0;
  const qrs = [...document.querySelectorAll('.qr svg')].map((el) => el.getBoundingClientRect());
  const button = document.querySelector('[data-sound-enable]');
  const b = button && !button.hidden ? button.getBoundingClientRect() : null;
  const overlaps = (q) => b && !(b.right <= q.left || b.left >= q.right || b.bottom <= q.top
    || b.top >= q.bottom);
  const shown = document.querySelector('#figures').getBoundingClientRect();
  const bottom = Math.min(innerHeight, shown.bottom) + 0.5;
  const cut = [...document.querySelectorAll('#figures *')].filter((el) => {
    if (!el.getClientRects().length) return false;
    const box = el.getBoundingClientRect();
    return box.height > 0 && box.bottom > bottom;
  }).map((el) => el.textContent.trim().slice(0, 40));
  const bounty = document.querySelector('.bounties li');
  return {
    qrs: qrs.length,
    qrsInside: qrs.every(inside),
    covered: qrs.some(overlaps),
    cut,
    bountyShown: Boolean(bounty && bounty.getClientRects().length),
    bountyFont: bounty ? parseFloat(getComputedStyle(bounty).fontSize) : 0,
    payouts: [...document.querySelectorAll('.payouts li')].map((li) => li.textContent.trim()),
    leader: (document.querySelector('[data-testid="bounty-leader"]') || {}).textContent || '',
  };
}"""


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1280, 720)])
def test_the_pko_clock_tv_keeps_its_qr_codes_and_reads_from_across_the_room(
    daphne_url, browser, width, height
):
    screen = _pko_night()
    context = browser.new_context(locale="it-IT", viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(10000)
    page.goto(f"{daphne_url}/s/{screen.token}/")
    page.wait_for_selector(".bounties li", state="attached")
    page.wait_for_timeout(300)
    seen = page.evaluate(LAYOUT)
    assert seen["qrs"] == 2
    assert seen["qrsInside"], f"a QR code is off the screen at {width}x{height}"
    assert not seen["covered"], f"'Attiva il suono' covers a QR code at {width}x{height}"
    assert not seen["cut"], f"figures cut off at {width}x{height}: {seen['cut'][:3]}"
    # Readable from across the room: at least the size of the prizes' lines.
    assert seen["bountyShown"], f"the bounty list left the screen at {width}x{height}"
    assert seen["bountyFont"] >= 0.024 * height
    assert seen["payouts"] and all("EUR" in line for line in seen["payouts"])
    # Thirty-nine players tied at the top: one short line, not thirty-nine names.
    assert "Taglia più alta" in seen["leader"]
    assert seen["leader"].count("Colombo") <= 1 and len(seen["leader"]) < 80
    context.close()
