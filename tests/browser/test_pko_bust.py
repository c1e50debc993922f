"""A PKO night's busts in real Chromium, in English and Italian: the floor records a bust
from the table page picking the winner by seat (and a split pot with two winners), the
dealer does the same on his PIN-unlocked tablet; each bounty is awarded in the same action,
the bounties in play and the books agree, and the log shows one row to undo per bust."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from room.services import accounts
from tests.conftest import NOW, make_manager, make_player, make_tournament, make_user
from tournaments.models import BountyAward, Entry, Role, Seat, StaffAssignment
from tournaments.selectors import books as book_reads
from tournaments.selectors import formats as format_selectors
from tournaments.services import entries as entry_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOUNTY = 5000  # cents on each head at the start

WORDS = {
    "en-GB": {
        "bust": "Bust",
        "in_play": "Bounties in play",
        "undo": "Undo",
        "out": "Eliminated",
        "award": "Bounty awarded",
    },
    "it-IT": {
        "bust": "Eliminazione",
        "in_play": "Taglie in gioco",
        "undo": "Annulla azione",
        "out": "Eliminato",
        "award": "Taglia assegnata",
    },
}


def _money(cents: int, locale: str) -> str:
    text = f"{cents // 100}.{cents % 100:02d}"
    return text.replace(".", ",") if locale == "it-IT" else text


def _night(locale: str):
    td = make_user(f"td-{locale}", staff=True)
    tournament = make_tournament(
        td,
        name=f"PKO {locale}",
        tables=2,
        bounty_format="progressive",
        bounty_part_cents=BOUNTY,
        buy_in_prize=50,
        buy_in_fee=15,
    )
    for k in range(14):
        entry_services.entry_register(
            tournament=tournament,
            player=make_player(f"P{k:02d}", f"Gioc{k:02d}"),
            actor=td,
            now=NOW,
        )
    floor = make_user(f"floor-{locale}")
    StaffAssignment.objects.create(tournament=tournament, user=floor, role=Role.FLOOR)
    manager = make_manager(make_user(f"boss-{locale}"))
    dealer = f"dealer-{locale}"
    accounts.account_create(actor=manager, username=dealer, password="Tavolo-Verde-42", now=NOW)
    accounts.role_give(actor=manager, tournament=tournament, username=dealer, role="floor", now=NOW)
    accounts.pin_set(actor=manager, username=dealer, pin="4711", now=NOW)
    return tournament, floor, dealer


def _seats(tournament, table: int) -> dict[int, Entry]:
    return {
        s.number: s.entry
        for s in Seat.objects.filter(table__tournament=tournament, table__number=table)
        .select_related("entry__player")
        .order_by("number")
    }


def _bust(page, out: int, won: list[int]) -> None:
    form = page.locator("[data-testid=bust-form]")
    form.locator(f"tr[data-seat='{out}'] input[name=out]").check()
    for seat in won:
        form.locator(f"tr[data-seat='{seat}'] input[name=won]").check()
    form.locator("[data-testid=bust-record]").click()


def _rows(page, label: str):
    """The log's rows of one kind of action (its "What" column)."""
    what = page.locator("td:nth-child(3)", has_text=re.compile(rf"^\s*{label}\s*$"))
    return page.locator("tbody tr").filter(has=what)


def _agree(tournament) -> int:
    """The bounties in play, once the board and the books are seen to tell one story."""
    tournament.refresh_from_db()
    board = format_selectors.bounty_board(tournament)
    money = book_reads.bounty_money(tournament)
    active = tournament.entries.filter(status=Entry.Status.ACTIVE)
    assert board["in_play"] == sum(format_selectors.bounty_of(e, tournament) for e in active)
    # Every bust's bounty went to its winners in the same action: nothing waits.
    assert money["held"] == board["in_play"] + money["to_prize_pool"], (money, board)
    assert book_reads.event_books(tournament)["books"].balances
    return board["in_play"]


@pytest.mark.parametrize("locale", ["en-GB", "it-IT"])
def test_pko_busts_from_the_table_page_and_the_dealer_tablet(daphne_url, browser, locale):
    words = WORDS[locale]
    tournament, floor, dealer = _night(locale)
    slug = tournament.slug

    context = browser.new_context(locale=locale)
    page = context.new_page()
    page.set_default_timeout(10000)
    page.goto(f"{daphne_url}/login/")
    page.fill("#id_username", floor.username)
    page.fill("#id_password", f"pw-{floor.username}")
    page.click("button[type=submit]")
    page.wait_for_url(lambda u: "/login/" not in u)

    # The floor at one table: one player out, one winner picked by his seat.
    mine, dealers = sorted((1, 2), key=lambda n: -len(_seats(tournament, n)))
    at_one = _seats(tournament, mine)
    out, winner, other = list(at_one)[:3]
    table_url = f"{daphne_url}{reverse('room_table', args=[slug, mine])}"
    page.goto(table_url)
    page.locator("[data-testid=floor-bust]", has_text=words["bust"]).click()
    _bust(page, out, [winner])
    page.wait_for_url(table_url)
    award = BountyAward.objects.get(eliminated=at_one[out], voided=False)
    assert award.winner_id == at_one[winner].pk
    assert _agree(tournament) == 14 * BOUNTY - BOUNTY // 2

    # A split pot: two winners share the next one's bounty.
    at_one = _seats(tournament, mine)  # as the room stands now (a balance may move one)
    split_out = next(n for n in at_one if n not in (winner, other))
    page.locator("[data-testid=floor-bust]").click()
    _bust(page, split_out, [winner, other])
    page.wait_for_url(table_url)
    shared = BountyAward.objects.filter(eliminated=at_one[split_out], voided=False)
    assert {a.winner_id for a in shared} == {at_one[winner].pk, at_one[other].pk}
    in_play = _agree(tournament)
    page.goto(f"{daphne_url}{reverse('bounties', args=[slug])}")
    board = page.locator("#bounty-board").inner_text()
    assert f"{words['in_play']}: {_money(in_play, locale)}" in board

    # The dealer of the other table unlocks his tablet with his PIN and busts from it.
    tablet = browser.new_context(locale=locale, viewport={"width": 1024, "height": 768})
    dealer_page = tablet.new_page()
    dealer_page.set_default_timeout(10000)
    dealer_page.goto(f"{daphne_url}{reverse('pin_unlock', args=[slug, dealers])}")
    dealer_page.fill("input[name=username]", dealer)
    dealer_page.fill("input[name=pin]", "4711")
    dealer_page.click("button[type=submit]")
    tablet_url = f"{daphne_url}{reverse('dealer_tablet', args=[slug, dealers])}"
    dealer_page.wait_for_url(tablet_url)
    at_two = _seats(tournament, dealers)
    out_two, winner_two = list(at_two)[:2]
    dealer_page.locator("[data-testid=dealer-bust]", has_text=words["bust"]).click()
    # Only his own table's players are offered.
    offered = dealer_page.locator("[data-testid=bust-form] tr[data-seat]")
    assert offered.count() == len(at_two)
    assert (
        str(at_one[winner].player)
        not in dealer_page.locator("[data-testid=bust-form]").inner_text()
    )
    _bust(dealer_page, out_two, [winner_two])
    dealer_page.wait_for_url(tablet_url)
    assert BountyAward.objects.get(eliminated=at_two[out_two]).winner_id == at_two[winner_two].pk
    in_play = _agree(tournament)
    assert in_play == 14 * BOUNTY - 3 * (BOUNTY // 2)
    tablet.close()

    # The log: each bust is one row to undo (its bounty award is no action of its own).
    page.goto(f"{daphne_url}{reverse('event_log', args=[slug])}")
    busts = _rows(page, words["out"])
    awards = _rows(page, words["award"])
    assert busts.count() == 3
    for k in range(3):
        assert busts.nth(k).get_by_role("button", name=words["undo"]).count() == 1
    assert awards.count() == 3
    for k in range(3):
        assert awards.nth(k).get_by_role("button").count() == 0
    # Undoing the dealer's bust takes its bounty back with it: the books still agree.
    busts.first.get_by_role("button", name=words["undo"]).click()
    page.wait_for_url(lambda u: "/log/" in u and "/undo/" not in u)
    at_two[out_two].refresh_from_db()
    assert at_two[out_two].status == Entry.Status.ACTIVE
    assert not BountyAward.objects.filter(eliminated=at_two[out_two], voided=False).exists()
    assert _agree(tournament) == 14 * BOUNTY - 2 * (BOUNTY // 2)
    context.close()
