"""The books of the night: per event and per night, by payment method
and clerk, voids and refunds with reason and who, closing, corrections, PDFs. The night's
books are the room's (its manager and cashier); an event's own books are its TD's."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from room.models import CashGame, CashTable, RakeRecord, RoomEvent
from room.selectors import books as night_reads
from room.services import books as night_services
from tests.conftest import NOW, make_player, make_room_user, make_tournament, make_user
from tournaments import events
from tournaments.errors import DomainError
from tournaments.models import CashCorrection, CashRefund, Event, NightClose, RoomRole
from tournaments.rules import cashbook
from tournaments.selectors import books as book_reads
from tournaments.services import books
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def cashier(db):
    """The room's cashier: keeps the night's books, runs no event."""
    return make_room_user("cashier", RoomRole.BOOKS)


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
    report = book_reads.event_books(tournament)
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
    result = book_reads.event_books(tournament)["books"]
    assert (result.voided, result.refunds, result.balances) == (120, 120, True)
    with pytest.raises(DomainError):  # refunded once only
        books.sale_void(tournament=tournament, entry=entry, reason="again", actor=td, now=NOW)
    with pytest.raises(DomainError):  # a reason is required
        books.sale_void(
            tournament=tournament, entry=sell(tournament, desk), reason=" ", actor=td, now=NOW
        )


def test_a_closed_night_refuses_sales_and_changes_only_by_correction(tournament, td, desk, cashier):
    sell(tournament, desk)
    closed = night_services.night_close(night=tournament.date, actor=cashier, now=NOW)
    assert closed.totals["drawer"] == 120 and closed.totals["difference"] == 0
    with pytest.raises(DomainError, match="closed"):
        sell(tournament, desk)
    with pytest.raises(DomainError):
        night_services.night_close(night=tournament.date, actor=cashier, now=NOW)
    register = Event.objects.get(action="entry.register")
    with pytest.raises(DomainError, match="closed"):  # nor undone from the log
        events.event_undo(event_id=register.pk, tournament=tournament, actor=td, now=NOW)
    night_services.night_correct(
        night=tournament.date,
        amount=-20,
        method="cash",
        reason="till short",
        actor=cashier,
        now=NOW,
    )
    night = night_reads.night_books(tournament.date)
    assert night["books"].corrections == -20 and night["books"].difference == -20
    assert [c.reason for c in night["corrections"]] == ["till short"]


def test_the_night_includes_the_cash_rooms_rake(tournament, td, desk):
    sell(tournament, desk)
    game = CashGame.objects.create(sb=1, bb=2, min_buy_in=100)
    table = CashTable.objects.create(game=game, number=1, opened_at=NOW)
    RakeRecord.objects.create(table=table, game=game, at=NOW, pot=100, rake=5)
    night = night_reads.night_books(NOW.date())
    assert night["rake"] == 5 and night["books"].balances


def test_a_night_of_cash_games_alone_closes(client, cashier):
    """No tournament that night, only the cash room: its rake is in the books, and the
    night closes like any other (it was refused as a night where nothing was played)."""
    game = CashGame.objects.create(sb=1, bb=2, min_buy_in=100)
    table = CashTable.objects.create(game=game, number=1, opened_at=NOW)
    RakeRecord.objects.create(table=table, game=game, at=NOW, pot=200, rake=10)
    night = {"night": NOW.date().isoformat()}
    client.force_login(cashier)
    page = client.post(reverse("night_close"), night, follow=True).content.decode()
    assert "The night is closed." in page and 'data-testid="closed"' in page
    assert NightClose.objects.get().totals["drawer"] == 10


def test_a_night_with_nothing_played_does_not_close(client, cashier):
    client.force_login(cashier)
    page = client.post(reverse("night_close"), {"night": NOW.date().isoformat()}, follow=True)
    assert "No event was played that night." in page.content.decode()
    assert not NightClose.objects.exists()


@pytest.mark.parametrize("night", ["0001-01-01", "9999-12-31"])
def test_a_night_off_the_calendars_edge_is_no_date(client, cashier, night):
    """The night's span in the room's time zone ran off the calendar: a 500 on the books,
    their closing and the rake report. Now it is a date refused as such."""
    client.force_login(cashier)
    books_page = client.get(reverse("night_books"), {"night": night})
    assert books_page.status_code == 200  # tonight's books, as for any date not given right
    closed = client.post(reverse("night_close"), {"night": night}, follow=True)
    assert "Enter a valid date." in closed.content.decode()
    assert not NightClose.objects.exists()
    rake = client.get(reverse("cash_rake_report"), {"day": night})
    assert rake.status_code == 200 and "Enter a valid date." in rake.content.decode()


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
def test_the_books_print_at_a4_and_receipt_width(client, tournament, td, desk, cashier, size):
    sell(tournament, desk)
    for user, url in (
        (td, reverse("event_books", args=[tournament.slug])),
        (cashier, reverse("night_books") + f"?night={NOW.date().isoformat()}&"),
    ):
        client.force_login(user)
        joiner = "&" if "?" in url else "?"
        response = client.get(f"{url}{joiner}format=pdf&size={size}")
        assert response["Content-Type"] == "application/pdf"
        assert response.content.startswith(b"%PDF")


def test_the_nights_books_are_the_rooms_not_an_events_tds(client, tournament, td, cashier):
    """A TD of one event that night could close the whole night (every other event's
    desk then refused sales) and record corrections: the night belongs to the room."""
    sell(tournament, td)
    other = make_tournament(make_user("other-td"), name="Monday Turbo")
    night = {"night": NOW.date().isoformat()}
    correction = {**night, "amount": "50", "payment_method": "cash", "reason": "x"}
    client.force_login(td)
    assert client.get(reverse("night_books")).status_code == 403
    assert client.post(reverse("night_close"), night).status_code == 403
    assert client.post(reverse("night_correct"), {**correction, "confirm": "on"}).status_code == 403
    assert not NightClose.objects.exists()
    sell(other, other.staff.get().user)  # the other event still sells
    with pytest.raises(PermissionDenied):  # nor through the service
        night_services.night_close(night=NOW.date(), actor=td, now=NOW)
    own = client.get(reverse("event_books", args=[tournament.slug]))
    assert own.status_code == 200 and b'data-testid="whole-night"' not in own.content
    client.force_login(cashier)
    page = client.get(reverse("night_books"))
    assert page.status_code == 200 and b'data-testid="close-night"' in page.content
    client.post(reverse("night_close"), night)
    page = client.get(reverse("night_books")).content.decode()
    assert 'data-testid="closed"' in page
    assert "cashier closed the night; the drawer held 240." in page


def test_a_correction_is_bounded_confirmed_and_logged_in_the_rooms_log(
    client, tournament, desk, cashier
):
    """Corrections of up to 10^9 were taken at once and logged in an arbitrary event's log."""
    sell(tournament, desk)
    night_services.night_close(night=NOW.date(), actor=cashier, now=NOW)
    client.force_login(cashier)
    base = {"night": NOW.date().isoformat(), "payment_method": "card", "reason": "till short"}
    for amount in ("100001", "-100001", "1000000000", "0"):
        response = client.post(
            reverse("night_correct"), {**base, "amount": amount, "confirm": "on"}, follow=True
        )
        assert response.status_code == 200 and not CashCorrection.objects.exists(), amount
    too_big = client.post(
        reverse("night_correct"), {**base, "amount": "100001", "confirm": "on"}, follow=True
    )
    assert "A correction is at most 100000, in or out." in too_big.content.decode()
    asked = client.post(reverse("night_correct"), {**base, "amount": "-50"})
    html = asked.content.decode()
    assert asked.status_code == 200 and 'data-testid="confirm-correction"' in html
    assert "Record a correction of 50 money out, paid by Card" in html
    assert not CashCorrection.objects.exists()
    confirmed = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', html))
    assert confirmed["amount"] == "-50" and confirmed["confirm"] == "on" and confirmed["key"]
    for _click in range(2):  # a double click records it once
        client.post(reverse("night_correct"), confirmed)
    correction = CashCorrection.objects.get()
    assert (correction.amount, correction.payment_method, correction.by) == (-50, "card", cashier)
    logged = RoomEvent.objects.get(action="room.night_correction")
    assert (logged.actor, logged.data["amount"], logged.data["night"]) == (
        cashier,
        -50,
        NOW.date().isoformat(),
    )
    assert not Event.objects.filter(action="books.correction").exists()
    page = client.get(reverse("night_books")).content.decode()
    assert "cashier recorded a correction of 50 money out, paid by Card: till short" in page
    with pytest.raises(DomainError, match="at most"):  # the service holds the bound too
        night_services.night_correct(
            night=NOW.date(), amount=10**9, method="cash", reason="x", actor=cashier, now=NOW
        )


def test_a_bounty_events_books_show_the_bounty_money_apart(client, td):
    """A PKO buy-in of 80 + 20 bounty + 10 fee: the books counted 90 a head and said
    nothing of the 20 the desk also took. The bounty money is shown apart, in cents."""
    from tests.conftest import make_tournament
    from tests.tournaments.services.test_formats import bust, fill
    from tournaments.services import bounties as bounties_services

    tournament = make_tournament(
        td, bounty_format="progressive", bounty_part_cents=2000, buy_in_prize=80, buy_in_fee=10
    )
    a, b, _c = fill(tournament, td, 3)
    bust(tournament, td, b)
    bounties_services.bounty_award_record(
        tournament=tournament, eliminated=b, portions=[[a]], actor=td, now=NOW
    )
    assert book_reads.bounty_money(tournament) == {
        "taken": 6000,
        "paid": 1000,
        "to_prize_pool": 0,
        "held": 5000,
    }
    client.force_login(td)
    page = client.get(reverse("event_books", args=[tournament.slug])).content.decode()
    assert 'data-testid="bounty-money"' in page and "50.00" in page
