"""The books of the night (issue 16, item 4): per event and per night, by payment method
and clerk, voids and refunds with reason and who, closing, corrections, PDFs."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.models import CashGame, CashTable, RakeRecord
from tests.conftest import NOW, make_player, make_user
from tournaments import cashbook, events
from tournaments.errors import DomainError
from tournaments.models import CashRefund, Event, StaffAssignment
from tournaments.services import books
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db


def sell(tournament, clerk, method="cash"):
    return entry_services.entry_register(
        tournament=tournament, player=make_player(), actor=clerk, now=NOW, payment_method=method
    ).entry


def test_the_pure_books_balance_when_every_void_is_refunded():
    sales = [
        cashbook.Sale("entry", "cash", "anna", 120),
        cashbook.Sale("entry", "card", "bruno", 120),
        cashbook.Sale("entry", "cash", "anna", 120, voided=True),
    ]
    allocation = cashbook.Allocation(fees=40, prize_pool=200)
    unrefunded = cashbook.books(sales, [], allocation)
    assert (unrefunded.drawer, unrefunded.accounted, unrefunded.difference) == (360, 240, 120)
    refunded = cashbook.books(sales, [cashbook.Payment("refund", "cash", "anna", 120)], allocation)
    assert refunded.balances
    assert refunded.by_method["cash"].net == 120 and refunded.by_method["card"].net == 120
    assert refunded.by_clerk["anna"].voids == 1 and refunded.by_clerk["anna"].refunded == 120


def test_an_events_books_by_method_and_clerk_balance_to_zero(tournament, td, desk):
    sell(tournament, desk, "cash")
    sell(tournament, desk, "card")
    sell(tournament, td, "voucher")
    report = books.event_books(tournament)
    result = report["books"]
    assert result.counts == {"entry": 3} and result.taken == 360
    assert {m: line.taken for m, line in result.by_method.items()} == {
        "cash": 120,
        "card": 120,
        "voucher": 120,
    }
    assert result.by_clerk["desk"].sales == 2 and result.by_clerk["td"].sales == 1
    assert report["allocation"].fees == 60
    assert result.balances, (result.drawer, result.accounted)


def test_a_void_refunds_with_reason_and_who_and_the_books_still_balance(tournament, td, desk):
    entry = sell(tournament, desk)
    sell(tournament, desk)
    refund = books.sale_void(
        tournament=tournament, entry=entry, reason="wrong player", actor=td, now=NOW
    )
    entry.refresh_from_db()
    assert entry.status == "voided"
    assert (refund.amount, refund.reason, refund.by) == (120, "wrong player", td)
    assert Event.objects.filter(action="books.refund", actor=td).exists()
    result = books.event_books(tournament)["books"]
    assert (result.voided, result.refunds, result.balances) == (120, 120, True)
    with pytest.raises(DomainError):  # refunded once only
        books.sale_void(tournament=tournament, entry=entry, reason="again", actor=td, now=NOW)
    with pytest.raises(DomainError):  # a reason is required
        books.sale_void(
            tournament=tournament, entry=sell(tournament, desk), reason=" ", actor=td, now=NOW
        )


def test_a_closed_night_refuses_sales_and_changes_only_by_correction(tournament, td, desk):
    sell(tournament, desk)
    closed = books.night_close(night=tournament.date, actor=td, now=NOW)
    assert closed.totals["drawer"] == 120 and closed.totals["difference"] == 0
    with pytest.raises(DomainError, match="closed"):
        sell(tournament, desk)
    with pytest.raises(DomainError):
        books.night_close(night=tournament.date, actor=td, now=NOW)
    register = Event.objects.get(action="entry.register")
    with pytest.raises(DomainError, match="closed"):  # nor undone from the log
        events.event_undo(event_id=register.pk, tournament=tournament, actor=td, now=NOW)
    books.night_correct(
        night=tournament.date, amount=-20, method="cash", reason="till short", actor=td, now=NOW
    )
    night = books.night_books(tournament.date)
    assert night["books"].corrections == -20 and night["books"].difference == -20
    assert [c.reason for c in night["corrections"]] == ["till short"]


def test_the_night_includes_the_cash_rooms_rake(tournament, td, desk):
    sell(tournament, desk)
    game = CashGame.objects.create(sb=1, bb=2, min_buy_in=100)
    table = CashTable.objects.create(game=game, number=1, opened_at=NOW)
    RakeRecord.objects.create(table=table, game=game, at=NOW, pot=100, rake=5)
    night = books.night_books(NOW.date())
    assert night["rake"] == 5 and night["books"].balances


def test_the_desk_sells_by_card_and_the_td_voids_from_the_page(client, tournament, td, desk):
    player = make_player(document_number="CARD1234")
    client.force_login(desk)
    # A player of no event here: the desk reaches him through its search (his document).
    client.get(reverse("desk_search", args=[tournament.slug]), {"q": "CARD1234"})
    client.post(reverse("register", args=[tournament.slug, player.pk]), {"payment_method": "card"})
    entry = tournament.entries.get(player=player)
    assert (entry.payment_method, entry.clerk) == ("card", desk)
    assert client.post(reverse("sale_void", args=[tournament.slug])).status_code == 403
    client.force_login(td)
    page = client.get(reverse("event_books", args=[tournament.slug])).content.decode()
    assert "Card" in page and "Balances to zero" in page
    client.post(
        reverse("sale_void", args=[tournament.slug]),
        {"entry": entry.number, "reason": "paid twice"},
    )
    assert CashRefund.objects.get().reason == "paid twice"
    bad = client.post(reverse("sale_void", args=[tournament.slug]), {"entry": "x", "reason": ""})
    assert bad.status_code == 302 and CashRefund.objects.count() == 1


@pytest.mark.parametrize("size", ["a4", "receipt"])
def test_the_books_print_at_a4_and_receipt_width(client, tournament, td, desk, size):
    sell(tournament, desk)
    client.force_login(td)
    for url in (
        reverse("event_books", args=[tournament.slug]),
        reverse("night_books") + f"?night={NOW.date().isoformat()}&",
    ):
        joiner = "&" if "?" in url else "?"
        response = client.get(f"{url}{joiner}format=pdf&size={size}")
        assert response["Content-Type"] == "application/pdf"
        assert response.content.startswith(b"%PDF")


def test_the_night_page_is_for_the_nights_tds(client, tournament, td):
    other = make_user("other-td")
    StaffAssignment.objects.create(tournament=tournament, user=other, role="floor")
    client.force_login(other)
    assert client.get(reverse("night_books")).status_code == 403
    client.force_login(td)
    page = client.get(reverse("night_books"))
    assert page.status_code == 200 and b'data-testid="close-night"' in page.content
    client.post(reverse("night_close"), {"night": NOW.date().isoformat()})
    assert b'data-testid="closed"' in client.get(reverse("night_books")).content


def test_a_bounty_events_books_show_the_bounty_money_apart(client, td):
    """A PKO buy-in of 80 + 20 bounty + 10 fee: the books counted 90 a head and said
    nothing of the 20 the desk also took. The bounty money is shown apart, in cents."""
    from tests.conftest import make_tournament
    from tests.tournaments.services.test_formats import bust, fill
    from tournaments.services import formats as fs

    tournament = make_tournament(
        td, bounty_format="progressive", bounty_part_cents=2000, buy_in_prize=80, buy_in_fee=10
    )
    a, b, _c = fill(tournament, td, 3)
    bust(tournament, td, b)
    fs.bounty_award_record(tournament=tournament, eliminated=b, portions=[[a]], actor=td, now=NOW)
    assert books.bounty_money(tournament) == {
        "taken": 6000,
        "paid": 1000,
        "to_prize_pool": 0,
        "held": 5000,
    }
    client.force_login(td)
    page = client.get(reverse("event_books", args=[tournament.slug])).content.decode()
    assert 'data-testid="bounty-money"' in page and "50.00" in page
