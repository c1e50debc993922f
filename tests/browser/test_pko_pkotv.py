"""The clock TV of a PKO night in Italian, in real Chromium at 1920x1080 and 1280x720: the
QR codes stay whole on the screen and uncovered, the bounty list is readable, prizes carry
their currency and a bounty lead shared by many players is not a list of every name."""

from __future__ import annotations

import pytest

from tests.browser.pko_steps import assert_tv_fits, tv_layout
from tests.conftest import NOW, make_player, make_tournament, make_user
from tournaments.models import DisplayScreen, Entry
from tournaments.services import bounties as bounties_services
from tournaments.services import entries as entry_services
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
    bounties_services.bounty_award_record(
        tournament=tournament, eliminated=entries[-1], portions=[[entries[0]]], actor=td, now=NOW
    )
    Entry.objects.filter(pk__in=[e.pk for e in entries[:-1]]).update(bounty_cents=5000)
    return DisplayScreen.objects.create(tournament=tournament, name="TV", kind="clock")


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1280, 720)])
def test_the_pko_clock_tv_keeps_its_qr_codes_and_reads_from_across_the_room(
    daphne_url, browser, width, height
):
    screen = _pko_night()
    context = browser.new_context(locale="it-IT", viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(10000)
    page.goto(f"{daphne_url}/s/{screen.token}/")
    seen = tv_layout(page)
    assert_tv_fits(seen, width, height, "EUR")
    # Thirty-nine players tied at the top: one short line, not thirty-nine names.
    assert "Taglia più alta" in seen["leader"]
    assert seen["leader"].count("Colombo") <= 1 and len(seen["leader"]) < 80
    context.close()
