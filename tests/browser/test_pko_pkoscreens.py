"""A PKO night's screens in real Chromium, in Italian: the phone follows its player's
pushes (a move, a bounty won, his elimination, the winner's prize) without a search again.
"""

from __future__ import annotations

import pytest

from tests.conftest import NOW, make_player, make_tournament, make_user
from tournaments.models import Entry, Seat, Tournament
from tournaments.services import clock as clock_services
from tournaments.services import entries as entry_services
from tournaments.services import results
from tournaments.services import seats as seat_services
from tournaments.services.bounties import bounty_award_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# ms a screen may take to show a push here (CI shares two cores with Chromium).
LIVE = 5000


def _pko(td, **fields):
    tournament = make_tournament(td, tables=2, buy_in_prize=8000, buy_in_fee=1500, **fields)
    Tournament.objects.filter(pk=tournament.pk).update(
        bounty_format="progressive", bounty_part_cents=2000
    )
    tournament.refresh_from_db()
    return tournament


def _register(tournament, td, first, last):
    return entry_services.entry_register(
        tournament=tournament, player=make_player(first, last), actor=td, now=NOW
    ).entry


def _where(entry):
    seat = Seat.objects.select_related("table").get(entry=entry)
    return seat.table.number, seat.number


def _row(phone, name):
    return phone.locator("[data-testid=found]", has_text=name)


def test_the_phone_follows_its_players_moves_bounty_elimination_and_prize(daphne_url, browser):
    td = make_user("td-phone", staff=True)
    tournament = _pko(td)
    luca = _register(tournament, td, "Luca", "Ricci")
    anna = _register(tournament, td, "Anna", "Ricci")
    verdi = _register(tournament, td, "Bruno", "Verdi")
    neri = _register(tournament, td, "Carlo", "Neri")
    # Play is on and no entry can be sold: the last player left wins.
    Tournament.objects.filter(pk=tournament.pk).update(late_registration_level=None)
    tournament.refresh_from_db()
    clock_services.clock_start(tournament=tournament, actor=td, now=NOW)

    phone = browser.new_context(locale="it-IT", viewport={"width": 390, "height": 844}).new_page()
    phone.set_default_timeout(10000)
    phone.goto(f"{daphne_url}/p/{tournament.slug}/find/?q=Ricci")
    phone.wait_for_selector("[data-sync][data-state=ok]")
    table, seat = _where(luca)
    assert f"Tavolo {table} · Posto {seat}" in _row(phone, "Luca").inner_text()
    assert "Taglia 20,00" in _row(phone, "Luca").inner_text()

    # His table breaks (or the floor moves him): the phone shows the new seat at once.
    to_table = 2 if table == 1 else 1
    taken = set(
        Seat.objects.filter(table__tournament=tournament, table__number=to_table).values_list(
            "number", flat=True
        )
    )
    to_seat = min(set(range(1, 10)) - taken)
    seat_services.seat_move(
        tournament=tournament, entry=luca, table_number=to_table, seat=to_seat, actor=td, now=NOW
    )
    where = _row(phone, "Luca").locator("[data-testid=where]")
    where.filter(has_text=f"Tavolo {to_table} · Posto {to_seat}").wait_for(timeout=LIVE)
    assert f"Spostato dal tavolo {table} · {seat}" in _row(phone, "Luca").inner_text()

    # He knocks Verdi out: half of Verdi's bounty goes on his head.
    results.eliminations_record(
        tournament=tournament, busts=[results.Bust(entry=verdi)], actor=td, now=NOW
    )
    bounty_award_record(
        tournament=tournament, eliminated=verdi, portions=[[luca]], actor=td, now=NOW
    )
    _row(phone, "Luca").locator("[data-testid=bounty]", has_text="Taglia 30,00").wait_for(
        timeout=LIVE
    )
    assert "Taglia 20,00" in _row(phone, "Anna").inner_text()

    # Neri, then Luca are out: Luca's phone says his place; Anna wins, with her prize.
    results.eliminations_record(
        tournament=tournament, busts=[results.Bust(entry=neri)], actor=td, now=NOW
    )
    results.eliminations_record(
        tournament=tournament, busts=[results.Bust(entry=luca)], actor=td, now=NOW
    )
    luca.refresh_from_db()
    anna.refresh_from_db()
    assert anna.place == 1 and luca.place == 2
    _row(phone, "Luca").locator(
        "[data-testid=follow-note]", has_text="Eliminato: 2° posto"
    ).wait_for(timeout=LIVE)
    note = _row(phone, "Anna").locator("[data-testid=follow-note]")
    note.filter(has_text="Vincitore").wait_for(timeout=LIVE)
    assert anna.prize > 0
    prize = f"{anna.prize // 100},{anna.prize % 100:02d} EUR"
    assert f"Premio {prize}" in note.inner_text()
    assert not _row(phone, "Luca").locator("[data-testid=where]").is_visible()
    assert Entry.objects.filter(status=Entry.Status.ACTIVE).count() == 1


def test_the_phone_groups_the_thousands_of_a_pushed_bounty_and_prize(daphne_url, browser):
    """A high-roller's figures pushed to an Italian phone read 3.000,00 as its page does."""
    td = make_user("td-roller", staff=True)
    tournament = make_tournament(td, tables=1, buy_in_prize=200000, buy_in_fee=10000)
    Tournament.objects.filter(pk=tournament.pk).update(
        bounty_format="progressive", bounty_part_cents=200000, late_registration_level=None
    )
    tournament.refresh_from_db()
    luca = _register(tournament, td, "Luca", "Ricci")
    anna = _register(tournament, td, "Anna", "Ricci")
    verdi = _register(tournament, td, "Bruno", "Verdi")
    clock_services.clock_start(tournament=tournament, actor=td, now=NOW)

    phone = browser.new_context(locale="it-IT", viewport={"width": 390, "height": 844}).new_page()
    phone.set_default_timeout(10000)
    phone.goto(f"{daphne_url}/p/{tournament.slug}/find/?q=Ricci")
    phone.wait_for_selector("[data-sync][data-state=ok]")
    assert "Taglia 2.000,00" in _row(phone, "Luca").inner_text()

    results.eliminations_record(
        tournament=tournament, busts=[results.Bust(entry=verdi)], actor=td, now=NOW
    )
    bounty_award_record(
        tournament=tournament, eliminated=verdi, portions=[[luca]], actor=td, now=NOW
    )
    _row(phone, "Luca").locator("[data-testid=bounty]", has_text="Taglia 3.000,00").wait_for(
        timeout=LIVE
    )

    results.eliminations_record(
        tournament=tournament, busts=[results.Bust(entry=luca)], actor=td, now=NOW
    )
    anna.refresh_from_db()
    assert anna.prize >= 100000
    note = _row(phone, "Anna").locator("[data-testid=follow-note]")
    note.filter(has_text="Vincitore").wait_for(timeout=LIVE)
    euros = f"{anna.prize // 100:,}".replace(",", ".")
    assert f"Premio {euros},{anna.prize % 100:02d} EUR" in note.inner_text()
