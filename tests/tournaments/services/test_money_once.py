"""Every money write happens once, whatever two tabs, a retry or a double click do: the
same refund, correction, rake, buy-in, deal, bounty or satellite ticket sent again records
nothing more, and the database itself refuses a second copy."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

import pytest
from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.urls import reverse

from room.models import CashGame, CashSeat, CashTable, RakeRecord
from room.selectors import books as night_reads
from room.services import books as night_services
from room.services import cash_buyins, cash_lists, cash_rake, cash_tables
from tests.conftest import (
    NOW,
    make_manager,
    make_player,
    make_room_user,
    make_tournament,
)
from tournaments import errors
from tournaments.events import event_undo
from tournaments.models import (
    BountyAward,
    CashCorrection,
    CashRefund,
    Deal,
    Entry,
    Event,
    Purchase,
    Role,
    RoomRole,
    SeatTicket,
    StaffAssignment,
)
from tournaments.selectors import formats as format_selectors
from tournaments.services import books, results
from tournaments.services import bounties as bounties_services
from tournaments.services import entries as entry_services
from tournaments.services import satellites as satellites_services

pytestmark = pytest.mark.django_db


def sell(tournament, actor) -> Entry:
    return entry_services.entry_register(
        tournament=tournament, player=make_player(), actor=actor, now=NOW
    ).entry


def undone_sale(tournament, actor) -> Entry:
    """A registration undone from the log: voided, its money not yet given back."""
    entry = sell(tournament, actor)
    logged = Event.objects.get(action="entry.register", data__entry=entry.pk)
    event_undo(event_id=logged.pk, tournament=tournament, actor=actor, now=NOW)
    entry.refresh_from_db()
    assert entry.status == Entry.Status.VOIDED
    return entry


# --- Refunds ----------------------------------------------------------------------------


def test_a_sale_voided_twice_from_stale_pages_is_refunded_once(tournament, td):
    entry = undone_sale(tournament, td)
    stale = Entry.objects.get(pk=entry.pk)  # the second tab's copy, read before the first
    books.sale_void(tournament=tournament, entry=entry, reason="wrong player", actor=td, now=NOW)
    with pytest.raises(errors.DomainError, match="already refunded"):
        books.sale_void(tournament=tournament, entry=stale, reason="again", actor=td, now=NOW)
    assert CashRefund.objects.count() == 1
    assert Event.objects.filter(action="books.refund").count() == 1


def test_the_database_refuses_a_second_refund_of_the_same_sale(tournament, td):
    entry = undone_sale(tournament, td)
    refund = books.sale_void(tournament=tournament, entry=entry, reason="x", actor=td, now=NOW)
    copy = {f: getattr(refund, f) for f in ("tournament", "entry", "amount", "reason", "at")}
    with pytest.raises(IntegrityError), transaction.atomic():
        CashRefund.objects.create(**copy)


def test_each_rebuy_is_refunded_once_and_apart_from_the_buy_in(td):
    tournament = make_tournament(td, rebuys_allowed=True, rebuy_max=3, rebuy_price=50)
    entry = sell(tournament, td)
    first, second = (
        entry_services.entry_purchase(
            tournament=tournament, entry=entry, kind="rebuy", actor=td, now=NOW, stack=0
        )
        for _ in range(2)
    )
    for purchase in (second, first):  # the later one first, as undo wants
        books.sale_void(
            tournament=tournament, entry=entry, purchase=purchase, reason="x", actor=td, now=NOW
        )
    with pytest.raises(errors.DomainError, match="already refunded"):
        books.sale_void(
            tournament=tournament, entry=entry, purchase=first, reason="x", actor=td, now=NOW
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        CashRefund.objects.create(
            tournament=tournament, entry=entry, purchase=second, amount=50, reason="x", at=NOW
        )
    books.sale_void(tournament=tournament, entry=entry, reason="x", actor=td, now=NOW)
    assert CashRefund.objects.filter(entry=entry).count() == 3


def test_a_rebuy_form_sent_twice_sells_one_rebuy(client, td, desk):
    """A double click on "Confirm and charge" sold two rebuys where the rules allow three."""
    tournament = make_tournament(td, rebuys_allowed=True, rebuy_max=3, rebuy_price=50)
    StaffAssignment.objects.create(tournament=tournament, user=desk, role=Role.DESK)
    entry = sell(tournament, td)
    client.force_login(desk)
    url = reverse("purchase", args=[tournament.slug, entry.number, "rebuy"])
    page = client.get(url).content.decode()
    key = page.split('name="key" value="')[1].split('"')[0]
    assert len(key) >= 20 and key not in client.get(url).content.decode()  # fresh each time
    form = {"stack": "0", "payment_method": "cash", "key": key}
    client.post(url, form)
    again = client.post(url, form, follow=True).content.decode()
    assert "This sale is already recorded." in again
    assert entry.purchases.count() == 1
    assert Event.objects.filter(action="entry.rebuy").count() == 1
    client.post(url, {**form, "key": "another-form"})  # a second form: a second rebuy
    assert entry.purchases.count() == 2
    with pytest.raises(IntegrityError), transaction.atomic():
        Purchase.objects.create(
            entry=entry, kind="rebuy", price=50, chips=1, created_at=NOW, key=key
        )


@pytest.mark.postgres
@pytest.mark.skipif(not settings.USING_POSTGRES, reason="needs PostgreSQL (DATABASE_URL)")
@pytest.mark.django_db(transaction=True)
def test_tabs_voiding_the_same_undone_sale_at_once_record_one_refund(td):
    tournament = make_tournament(td)
    entry = undone_sale(tournament, td)
    refused = all_at_once(
        [
            lambda: books.sale_void(
                tournament=tournament, entry=entry, reason="paid twice", actor=td, now=NOW
            )
            for _ in range(6)
        ]
    )
    assert CashRefund.objects.filter(entry=entry).count() == 1
    assert Event.objects.filter(action="books.refund").count() == 1
    assert refused == ["This sale was already refunded."] * 5


@pytest.mark.postgres
@pytest.mark.skipif(not settings.USING_POSTGRES, reason="needs PostgreSQL (DATABASE_URL)")
@pytest.mark.django_db(transaction=True)
def test_tabs_voiding_the_same_playing_entry_at_once_record_one_refund(td):
    tournament = make_tournament(td)
    entry = sell(tournament, td)
    refused = all_at_once(
        [
            lambda: books.sale_void(
                tournament=tournament, entry=entry, reason="paid twice", actor=td, now=NOW
            )
            for _ in range(6)
        ]
    )
    assert CashRefund.objects.filter(entry=entry).count() == 1
    assert len(refused) == 5


# --- Corrections ------------------------------------------------------------------------


def test_a_correction_sent_twice_with_its_form_key_is_recorded_once(tournament, td):
    make_manager(td)  # the night's books are the room's
    sell(tournament, td)
    night_services.night_close(night=tournament.date, actor=td, now=NOW)
    correct = {
        "night": tournament.date,
        "amount": -20,
        "method": "cash",
        "reason": "till short",
        "actor": td,
        "now": NOW,
    }
    night_services.night_correct(**correct, key="form-1")
    with pytest.raises(errors.DomainError, match="already recorded"):
        night_services.night_correct(**correct, key="form-1")
    night_services.night_correct(**correct, key="form-2")  # a second form: a second correction
    assert CashCorrection.objects.count() == 2
    assert night_reads.night_books(tournament.date)["books"].corrections == -40
    with pytest.raises(IntegrityError), transaction.atomic():
        CashCorrection.objects.create(
            night=CashCorrection.objects.first().night, amount=5, reason="x", at=NOW, key="form-2"
        )


# --- Deals, bounties, satellite seats ---------------------------------------------------


def test_the_same_deal_sent_twice_is_recorded_once(tournament, td):
    a, b = (sell(tournament, td) for _ in range(2))
    results.payouts_set(tournament=tournament, actor=td, amounts=[130, 70], now=NOW)
    stacks = {a.pk: 30000, b.pk: 10000}
    results.deal_record(tournament=tournament, stacks=stacks, method="icm", actor=td, now=NOW)
    with pytest.raises(errors.DomainError, match="already recorded"):
        results.deal_record(tournament=tournament, stacks=stacks, method="icm", actor=td, now=NOW)
    assert Deal.objects.count() == 1
    assert Event.objects.filter(action="deal.record").count() == 1
    deal = Deal.objects.get()
    with pytest.raises(IntegrityError), transaction.atomic():
        Deal.objects.create(tournament=tournament, method="icm", shares=deal.shares, created_at=NOW)


def test_a_bounty_is_paid_to_each_winner_once_by_the_database_too(td):
    tournament = make_tournament(td, bounty_format="fixed", bounty_part_cents=2000)
    a, b = (sell(tournament, td) for _ in range(2))
    results.eliminations_record(
        tournament=tournament, busts=[results.Bust(entry=b, start_stack=1)], actor=td, now=NOW
    )
    b.refresh_from_db()
    bounties_services.bounty_award_record(
        tournament=tournament, eliminated=b, portions=[[a]], actor=td, now=NOW
    )
    with pytest.raises(errors.DomainError, match="already awarded"):
        bounties_services.bounty_award_record(
            tournament=tournament, eliminated=b, portions=[[a]], actor=td, now=NOW
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        BountyAward.objects.create(
            tournament=tournament, eliminated=b, winner=a, cash_cents=2000, created_at=NOW
        )
    assert format_selectors.bounty_totals(tournament) == {a.pk: 2000}


def test_an_award_whose_check_was_passed_is_still_refused_in_words(td, monkeypatch):
    """A second award that got past the service's check (as a race the locks did not
    cover would) meets the constraint: a message, and nothing of it is kept."""
    tournament = make_tournament(td, bounty_format="fixed", bounty_part_cents=2000)
    a, b = (sell(tournament, td) for _ in range(2))
    results.eliminations_record(
        tournament=tournament, busts=[results.Bust(entry=b, start_stack=1)], actor=td, now=NOW
    )
    b.refresh_from_db()
    bounties_services.bounty_award_record(
        tournament=tournament, eliminated=b, portions=[[a]], actor=td, now=NOW
    )
    monkeypatch.setattr(bounties_services, "_check_eliminated", lambda tournament, eliminated: None)
    with pytest.raises(errors.DomainError, match="already awarded"):
        bounties_services.bounty_award_record(
            tournament=tournament, eliminated=b, portions=[[a]], actor=td, now=NOW
        )
    assert BountyAward.objects.count() == 1
    assert Event.objects.filter(action="bounty.award").count() == 1


def test_a_satellites_seats_are_awarded_once(td):
    target = make_tournament(td, name="Main Event", buy_in_prize=1000, buy_in_fee=100)
    satellite = make_tournament(
        td, name="Satellite", prize_type="seats", target_event=target, buy_in_prize=100
    )
    entries = [sell(satellite, td) for _ in range(24)]
    for place, entry in enumerate(entries[2:], start=3):
        Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.ELIMINATED, place=place)
    satellites_services.satellite_award(tournament=satellite, actor=td, now=NOW)
    awarded = SeatTicket.objects.count()
    with pytest.raises(errors.DomainError, match="already awarded"):
        satellites_services.satellite_award(tournament=satellite, actor=td, now=NOW)
    assert SeatTicket.objects.count() == awarded
    seat = SeatTicket.objects.filter(kind="seat").first()
    with pytest.raises(IntegrityError), transaction.atomic():
        SeatTicket.objects.create(
            satellite=satellite,
            player=seat.player,
            place=seat.place,
            kind="seat",
            code="DUPLICATE",
            created_at=NOW,
        )


# --- The cash room: rake per hand, buy-ins ----------------------------------------------


@pytest.fixture
def room_floor(db):
    return make_room_user("roomfloor", RoomRole.CASH)


@pytest.fixture
def cash_table(room_floor) -> CashTable:
    game = CashGame.objects.create(sb=2, bb=5, min_buy_in=200, rake_percent=5, rake_cap=30)
    players = [make_player() for _ in range(2)]
    for player in players:
        cash_lists.list_add(actor=room_floor, games=[game], player=player, present=True, now=NOW)
    return cash_tables.table_open(
        actor=room_floor,
        game=game,
        number=3,
        present={p.pk for p in players},
        now=NOW,
        rng=random.Random(1),
    )


def test_a_hands_rake_sent_twice_from_the_tablet_is_recorded_once(client, room_floor, cash_table):
    client.force_login(room_floor)
    page = client.get(reverse("cash_tablet", args=[cash_table.pk])).content.decode()
    assert 'name="hand" value="1"' in page
    form = {"pot": 130, "flop_dealt": "on", "hand": 1, "next": "tablet"}
    url = reverse("cash_table_rake", args=[cash_table.pk])
    client.post(url, form)
    page = client.post(url, form, follow=True).content.decode()
    assert "The rake of hand 1 at table 3 is already recorded." in page
    assert list(RakeRecord.objects.values_list("hand", "rake")) == [(1, 7)]
    assert 'name="hand" value="2"' in page  # the tablet's form is for the next hand now
    client.post(url, {**form, "hand": 2})
    assert RakeRecord.objects.count() == 2
    with pytest.raises(IntegrityError), transaction.atomic():
        RakeRecord.objects.create(
            table=cash_table, game=cash_table.game, at=NOW, hand=2, pot=1, rake=0
        )


def test_a_rake_for_a_hand_not_yet_reached_is_refused(room_floor, cash_table):
    rake = {"actor": room_floor, "table": cash_table, "flop_dealt": True, "dealer": "", "shift": ""}
    with pytest.raises(errors.DomainError, match="no such hand"):
        cash_rake.rake_record(**rake, pot=100, hand=5, now=NOW)
    assert not RakeRecord.objects.exists()


def test_a_buy_in_sent_twice_sells_the_chips_once(client, room_floor, cash_table):
    seat = cash_table.seats.first()
    client.force_login(room_floor)
    page = client.get(reverse("cash_board")).content.decode()
    assert 'name="bought" value="0"' in page
    url = reverse("cash_seat_buy", args=[seat.pk])
    form = {"stack": 40, "amount": 300, "bought": 0}
    client.post(url, form)
    page = client.post(url, form, follow=True).content.decode()
    assert "This buy-in is already recorded." in page
    assert CashSeat.objects.get(pk=seat.pk).buy_in == 300
    client.post(url, {"stack": 340, "amount": 200, "bought": 300})  # a new form: a new sale
    assert CashSeat.objects.get(pk=seat.pk).buy_in == 500


@pytest.mark.postgres
@pytest.mark.skipif(not settings.USING_POSTGRES, reason="needs PostgreSQL (DATABASE_URL)")
@pytest.mark.django_db(transaction=True)
def test_tablets_raking_and_buying_at_once_write_each_once(room_floor, cash_table):
    seat = cash_table.seats.first()
    rake = {"actor": room_floor, "table": cash_table, "flop_dealt": True, "dealer": "", "shift": ""}
    jobs: list[Callable[[], object]] = [
        lambda: cash_rake.rake_record(**rake, pot=100, hand=1, now=NOW) for _ in range(4)
    ]
    jobs += [
        lambda: cash_buyins.seat_buy(
            actor=room_floor, seat=seat, stack=10, amount=300, bought=0, now=NOW
        )
        for _ in range(4)
    ]
    refused = all_at_once(jobs)
    assert RakeRecord.objects.filter(table=cash_table).count() == 1
    assert CashSeat.objects.get(pk=seat.pk).buy_in == 300
    assert len(refused) == 6


def all_at_once(jobs: list[Callable[[], object]]) -> list[str]:
    """Run each job in its own thread (its own connection), all released at the same
    moment; the refusals' messages. Any other exception fails the test."""
    barrier = threading.Barrier(len(jobs))
    refused: list[str] = []
    failures: list[BaseException] = []

    def run(job):
        try:
            barrier.wait()
            job()
        except errors.DomainError as exc:
            refused.append(str(exc))
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    return refused


@pytest.mark.postgres
@pytest.mark.skipif(not settings.USING_POSTGRES, reason="needs PostgreSQL (DATABASE_URL)")
@pytest.mark.django_db(transaction=True)
def test_two_tabs_closing_the_night_at_once_close_it_once_in_words(td):
    make_manager(td)  # the night's books are the room's
    tournament = make_tournament(td)
    sell(tournament, td)
    refused = all_at_once(
        [
            lambda: night_services.night_close(night=tournament.date, actor=td, now=NOW)
            for _ in range(4)
        ]
    )
    assert refused == ["This night is already closed."] * 3
    assert Event.objects.filter(action="books.close").count() == 1
