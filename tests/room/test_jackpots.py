"""The jackpots at the floor: drops collected with each raked hand (once, undone with the
rake), the night's books with the drops held for the players, a bad beat claimed, judged,
confirmed by two people and paid with the fund's roll-over, a period's high hand replaced
and paid, and every undo giving the fund back to the cent."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings

from room.events import room_event_undo
from room.models import (
    CashSeat,
    CashTable,
    JackpotClaim,
    JackpotDrop,
    JackpotFund,
    JackpotPayment,
    RoomEvent,
)
from room.selectors import books as night_reads
from room.selectors import jackpots as jackpots_reads
from room.services import cash_rake, jackpots
from tables.cash.jackpot import ClaimedHand, DropRule, HighHandRule
from tests.conftest import NOW, make_cash_game, make_player, make_room_user, make_tournament
from tests.tournaments.services.test_money_once import all_at_once
from tournaments.errors import CannotUndo, DomainError
from tournaments.models import RoomRole

pytestmark = pytest.mark.django_db

# The spec's defaults: 1.00 from a pot of at least 20 with a flop, 70/20/10 into the funds.
LOSER = ClaimedHand(3, ("Ah", "Ad"))  # aces full of kings on the board below
WINNER = ClaimedHand(7, ("Kc", "Kd"))  # four kings
BOARD = ["As", "Kh", "Ks", "7c", "2d"]


@pytest.fixture
def manager(db):
    return make_room_user("direttore", RoomRole.MANAGER)


@pytest.fixture
def manager2(db):
    return make_room_user("vice", RoomRole.MANAGER)


@pytest.fixture
def floor(db):
    return make_room_user("sala", RoomRole.CASH)


@pytest.fixture
def table(manager):
    game = make_cash_game(manager)
    table = CashTable.objects.create(game=game, number=4, opened_at=NOW)
    for seat in range(1, 9):
        CashSeat.objects.create(
            table=table, player=make_player(f"P{seat}", f"Seat{seat}"), number=seat, seated_at=NOW
        )
    return table


def rake(actor, table, pot=200, *, flop=True, hand=None, now=NOW):
    return cash_rake.rake_record(
        actor=actor,
        table=table,
        pot=pot,
        flop_dealt=flop,
        dealer=None,
        shift="",
        hand=hand,
        now=now,
    )


def fund() -> dict[str, int]:
    row = JackpotFund.objects.first()
    return row.parts() if row else {"main": 0, "backup": 0, "next": 0}


def undo(action: str, actor, now=NOW):
    event = RoomEvent.objects.filter(action=action, undone_at__isnull=True).latest("pk")
    return room_event_undo(event_id=event.pk, actor=actor, now=now)


# --- collection -------------------------------------------------------------------------


def test_each_raked_hand_drops_once_into_the_funds_and_its_undo_takes_it_back(floor, table):
    record = rake(floor, table, 200, hand=1)
    assert (record.jackpot_drop.cents, fund()) == (100, {"main": 70, "backup": 20, "next": 10})
    with pytest.raises(DomainError, match="already recorded"):
        rake(floor, table, 200, hand=1)  # the same form again: one rake, one drop
    rake(floor, table, 10, hand=2)  # below the minimum pot: no drop
    rake(floor, table, 300, flop=False, hand=3)  # no flop, no drop
    assert JackpotDrop.objects.count() == 1
    logged = RoomEvent.objects.filter(action="cash.rake").order_by("pk")
    assert [e.data["drop_cents"] for e in logged] == [100, 0, 0]
    rake(floor, table, 500, hand=4)
    assert fund() == {"main": 140, "backup": 40, "next": 20}
    undo("cash.rake", floor)
    assert fund() == {"main": 70, "backup": 20, "next": 10}
    assert JackpotDrop.objects.count() == 1


def test_the_room_chooses_its_drop_rule(manager, floor, table):
    settings = jackpots_reads.jackpot_settings()
    share = DropRule("share", share_per_mille=10, min_pot_cents=5000, cap_cents=300)
    jackpots.jackpot_settings_save(
        actor=manager, settings=jackpots_reads.JackpotSettings(drop=share), now=NOW
    )
    assert jackpots_reads.jackpot_settings().drop == share
    rake(floor, table, 250)  # 1% of 250 is 2.50, dropped in whole euros: 2
    rake(floor, table, 900)  # 9, capped at 3
    assert sum(JackpotDrop.objects.values_list("cents", flat=True)) == 500
    undo("cash.jackpot_settings", manager)
    assert jackpots_reads.jackpot_settings() == settings


def test_the_nights_books_hold_the_drops_for_the_players_and_balance(floor, manager, table):
    for hand in range(1, 6):
        rake(floor, table, 200, hand=hand)  # rake 10 each, drop 1.00 each
    night = night_reads.night_books(NOW.date())
    result = night["books"]
    assert (result.rake, result.jackpot_drops, result.jackpot_held) == (50, 5, 5)
    assert result.drawer == 55 and result.balances, (result.drawer, result.accounted)
    assert night["jackpot"]["fund"] == {"main": 350, "backup": 100, "next": 50}


# --- a bad beat ----------------------------------------------------------------------------


def claim(actor, table, *, loser=LOSER, winner=WINNER, board=BOARD, dealt=(1, 2, 3, 5, 7)):
    return jackpots.claim_bad_beat(
        actor=actor,
        where=jackpots.Where(cash_table=table),
        board=list(board),
        loser=loser,
        winner=winner,
        dealt=list(dealt),
        now=NOW,
    )


def test_a_bad_beat_is_judged_confirmed_twice_paid_and_rolled_over(floor, manager, table):
    for hand in range(1, 11):
        rake(floor, table, 200, hand=hand)
    assert fund() == {"main": 700, "backup": 200, "next": 100}
    bad = claim(floor, table)
    assert (bad.status, bad.reasons) == ("judged", ["bad_beat_qualifies"])
    assert bad.names["3"] == "Seat3 P3" and bad.other_seats == [1, 2, 5]
    jackpots.claim_confirm(actor=floor, claim=bad, now=NOW)
    bad.refresh_from_db()
    assert bad.status == "confirmed" and bad.floor_by == floor
    with pytest.raises(DomainError, match="manager's"):
        jackpots.claim_confirm(actor=floor, claim=bad, now=NOW)
    jackpots.claim_confirm(actor=manager, claim=bad, now=NOW)
    payment = JackpotPayment.objects.get()
    shares = {(s["role"], s["seat"]): s["cents"] for s in payment.shares}
    # 7.00: half to the loser, a quarter to the winner, a quarter to seats 1, 2 and 5.
    assert shares == {
        ("loser", 3): 350,
        ("winner", 7): 175,
        ("room", None): 0,
        ("table", 1): 59,
        ("table", 2): 58,
        ("table", 5): 58,
    }
    assert sum(shares.values()) == 700
    assert fund() == {"main": 200, "backup": 100, "next": 0}  # the backup is the new prize
    with pytest.raises(DomainError, match="already paid"):
        jackpots.claim_confirm(actor=manager, claim=bad, now=NOW)
    night = night_reads.night_books(NOW.date())["books"]
    assert (night.jackpot_drops, night.jackpots_paid, night.jackpot_held) == (10, 7, 3)
    assert night.balances
    # A later hand's drop, then the payment undone: the fund as it was, plus that drop.
    rake(floor, table, 200, hand=11)
    undo("cash.jackpot_paid", manager)
    assert fund() == {"main": 770, "backup": 220, "next": 110}
    assert JackpotClaim.objects.get().status == "confirmed"
    assert not JackpotPayment.objects.exists()


def test_the_same_person_does_not_confirm_twice(manager, manager2, table, floor):
    rake(floor, table, 200)
    bad = claim(manager, table)
    jackpots.claim_confirm(actor=manager, claim=bad, now=NOW)
    with pytest.raises(DomainError, match="same person"):
        jackpots.claim_confirm(actor=manager, claim=bad, now=NOW)
    assert not JackpotPayment.objects.exists()
    jackpots.claim_confirm(actor=manager2, claim=bad, now=NOW)
    assert JackpotPayment.objects.get().cents == 70


def test_a_claim_the_engine_refuses_says_why_and_is_never_paid(floor, manager, table):
    rake(floor, table, 200)
    weak = claim(floor, table, loser=ClaimedHand(3, ("Ah", "7d")), dealt=(3, 7))
    assert weak.status == "refused"
    assert weak.reasons == ["too_few_players", "loser_below_minimum"]
    with pytest.raises(DomainError, match="refused"):
        jackpots.claim_confirm(actor=floor, claim=weak, now=NOW)
    with pytest.raises(DomainError, match="not valid"):
        claim(floor, table, winner=ClaimedHand(7, ("Ah", "Kd")))  # the ace of hearts twice
    assert JackpotClaim.objects.count() == 1


def test_a_drop_paid_out_since_is_not_undone_with_its_rake(floor, manager, manager2, table):
    rake(floor, table, 200)
    bad = claim(floor, table)
    jackpots.claim_confirm(actor=floor, claim=bad, now=NOW)
    jackpots.claim_confirm(actor=manager, claim=bad, now=NOW)
    with pytest.raises(CannotUndo, match="undo that payment first"):
        undo("cash.rake", floor)
    with pytest.raises(CannotUndo, match="payment first"):
        undo("cash.jackpot_confirm", floor)
    undo("cash.jackpot_paid", manager2)
    undo("cash.rake", floor)
    assert fund() == {"main": 0, "backup": 0, "next": 0}


def test_tournament_tables_claim_only_when_the_room_allows_it(floor, manager, table):
    tournament = make_tournament()
    tour_table = tournament.tables.first()
    where = jackpots.Where(table=tour_table)
    kwargs = {"board": BOARD, "loser": LOSER, "winner": WINNER, "dealt": [1, 2, 3, 7], "now": NOW}
    with pytest.raises(DomainError, match="cash tables only"):
        jackpots.claim_bad_beat(actor=floor, where=where, **kwargs)
    jackpots.jackpot_settings_save(
        actor=manager, settings=jackpots_reads.JackpotSettings(tournament_claims=True), now=NOW
    )
    made = jackpots.claim_bad_beat(actor=floor, where=where, **kwargs)
    assert (made.tournament, made.table_number, made.status) == (tournament, 1, "judged")


# --- the high hand of an hour ------------------------------------------------------------------


def high(actor, table, seat, hole, board, at):
    return jackpots.high_hand_record(
        actor=actor,
        where=jackpots.Where(cash_table=table),
        board=board,
        hand=ClaimedHand(seat, hole),
        at=at,
        now=at,
    )


AAA22 = (("Ah", "Ad"), ["As", "2c", "2d", "9h", "4s"])  # aces full: the minimum
QUAD_3 = (("3h", "3d"), ["3s", "3c", "Kd", "9h", "4s"])
ACES_FULL_OF_3 = (("Ac", "Ad"), ["As", "3c", "3d", "9h", "4s"])
QUAD_9 = (("9c", "9d"), ["9s", "9h", "2d", "Th", "4s"])
QUAD_9_AGAIN = (("9c", "9d"), ["9s", "9h", "Tc", "2d", "4h"])  # the same five ranks: a tie


def test_a_high_hand_replaced_twice_is_paid_at_the_end_of_its_hour(floor, manager, table):
    for hand in range(1, 21):
        rake(floor, table, 200, hand=hand)
    at = NOW.replace(minute=5)
    first = high(floor, table, 2, *AAA22, at)
    second = high(floor, table, 5, *QUAD_3, at + timedelta(minutes=10))
    lower = high(floor, table, 6, *ACES_FULL_OF_3, at + timedelta(minutes=20))
    weak = high(floor, table, 6, ("Kh", "Kd"), ["Ks", "3c", "3d", "9h", "4s"], at)
    third = high(floor, table, 1, *QUAD_9, at + timedelta(minutes=30))
    assert [c.status for c in (first, second, lower, weak, third)] == [
        "judged",
        "judged",
        "refused",
        "refused",
        "judged",
    ]
    assert lower.reasons == ["below_high_hand"]
    assert weak.reasons == ["hand_below_minimum", "below_high_hand"]
    assert (first.reasons, second.reasons, third.reasons) == (["new_high_hand"],) * 3
    start = first.period_start
    assert jackpots_reads.best_of(jackpots_reads.period_hands(start)) == [third]
    with pytest.raises(DomainError, match="ends at"):
        jackpots.high_hand_pay(actor=floor, period_start=start, now=at + timedelta(minutes=40))
    paid = jackpots.high_hand_pay(actor=floor, period_start=start, now=at + timedelta(hours=1))
    assert paid.cents == 1400 and [(s["seat"], s["cents"]) for s in paid.shares] == [(1, 1400)]
    assert fund() == {"main": 400, "backup": 200, "next": 0}
    with pytest.raises(DomainError, match="already paid"):
        jackpots.high_hand_pay(actor=floor, period_start=start, now=at + timedelta(hours=1))
    with pytest.raises(DomainError, match="already paid"):
        high(floor, table, 2, *AAA22, at)
    undo("cash.jackpot_high_hand_paid", manager, now=at + timedelta(hours=1))
    assert fund() == {"main": 1400, "backup": 400, "next": 200}


def test_tied_high_hands_share_the_prize(floor, manager, table):
    jackpots.jackpot_settings_save(
        actor=manager,
        settings=jackpots_reads.JackpotSettings(high_hand=HighHandRule(prize_cents=1001)),
        now=NOW,
    )
    for hand in range(1, 21):
        rake(floor, table, 200, hand=hand)
    at = NOW.replace(minute=10)
    high(floor, table, 5, *QUAD_9, at)
    tie = high(floor, table, 6, *QUAD_9_AGAIN, at + timedelta(minutes=1))
    assert tie.reasons == ["ties_high_hand"]
    paid = jackpots.high_hand_pay(
        actor=floor, period_start=at.replace(minute=0), now=at + timedelta(hours=1)
    )
    assert [(s["seat"], s["cents"]) for s in paid.shares] == [(5, 501), (6, 500)]
    assert fund() == {"main": 399, "backup": 400, "next": 200}  # a prize moves nothing


# --- at once, on PostgreSQL ---------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.skipif(not settings.USING_POSTGRES, reason="needs PostgreSQL (DATABASE_URL)")
@pytest.mark.django_db(transaction=True)
def test_confirmations_and_payments_sent_at_once_pay_once(floor, manager, manager2, table):
    for hand in range(1, 21):
        rake(floor, table, 200, hand=hand)
    bad = claim(floor, table)
    jackpots.claim_confirm(actor=floor, claim=bad, now=NOW)
    # Two managers press "confirm and pay" at the same moment, twice each.
    jobs = [
        lambda who=who: jackpots.claim_confirm(actor=who, claim=bad, now=NOW)
        for who in (manager, manager2, manager, manager2)
    ]
    refused = all_at_once(jobs)
    assert JackpotPayment.objects.count() == 1 and len(refused) == 3
    assert fund() == {"main": 400, "backup": 200, "next": 0}
    # The hour's high hand paid from four tabs at once: once.
    at = NOW.replace(minute=5)
    high(floor, table, 1, *QUAD_9, at)
    later = at + timedelta(hours=1)
    start = at.replace(minute=0)
    refused = all_at_once(
        [lambda: jackpots.high_hand_pay(actor=floor, period_start=start, now=later)] * 4
    )
    assert JackpotPayment.objects.filter(kind="high_hand").count() == 1 and len(refused) == 3
    assert fund() == {"main": 200, "backup": 0, "next": 0}
    # Drops taken at four tables while a payment is undone: every cent accounted for.
    tables = [table] + [
        CashTable.objects.create(game=table.game, number=n, opened_at=NOW) for n in (5, 6, 7)
    ]
    paid = RoomEvent.objects.get(action="cash.jackpot_high_hand_paid")
    jobs = [lambda t=t: rake(floor, t, 200, now=later) for t in tables]
    jobs.append(lambda: room_event_undo(event_id=paid.pk, actor=manager, now=later))
    assert all_at_once(jobs) == []
    assert fund() == {"main": 400 + 280, "backup": 200 + 80, "next": 0 + 40}
