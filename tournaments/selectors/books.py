"""What an event's books read: its sales, payments and where the money belongs, the
bounty money beside them, and whether a night is closed. The night's books across the
events and the cash room are the room app's (room/selectors/books.py)."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db.models import Sum

from config.speedups.prepared import NO_ID, Prepared
from tournaments import selectors
from tournaments.models import (
    BountyAward,
    CashRefund,
    Entry,
    NightClose,
    PaymentMethod,
    Purchase,
    SeatTicket,
    Tournament,
)
from tournaments.rules import cashbook
from tournaments.selectors import formats as format_selectors


def who(user) -> str:
    if user is None:
        return "—"
    return user.get_username()


def night_closed(night: date) -> NightClose | None:
    return NightClose.objects.filter(night=night).first()


# Whether the night of the tournament's date is closed, by the tournament's key: compiled
# once, and read in the trip of the row lock by a registration (`open_read`).
NIGHT_CLOSED = Prepared(
    lambda tournament_id: (
        NightClose.objects.filter(
            night__in=Tournament.objects.filter(pk=tournament_id).values("date")
        )
        .order_by()
        .values_list("pk")[:1]
    ),
    tournament_id=NO_ID,
)


def open_read(tournament: Tournament) -> tuple[Prepared[Any], dict[str, Any]]:
    """`assert_open`'s read, as `prepared.ahead` takes it."""
    return NIGHT_CLOSED, {"tournament_id": tournament.pk}


def allocation(tournament: Tournament) -> cashbook.Allocation:
    pool = selectors.prize_pool(tournament)
    counted = tournament.entries.exclude(status=Entry.Status.VOIDED).exclude(
        kind=Entry.Kind.CARRIED
    )
    prizes = counted.aggregate(
        paid=Sum("prize"), deals=Sum("deal_amount"), bounty_parts=Sum("paid_bounty_cents")
    )
    is_flight = tournament.parent_id is not None
    return cashbook.Allocation(
        fees=counted.count() * tournament.buy_in_fee,
        house_share=0 if is_flight else pool.organiser_share,
        taxes=0 if is_flight else pool.taxes,
        prize_pool=0 if is_flight else pool.prize_pool,
        added_money=0 if is_flight else pool.added_money,
        overlay=0 if is_flight else pool.overlay,
        guarantee=tournament.guarantee,
        prizes_paid=prizes["paid"] or 0,
        deals=prizes["deals"] or 0,
        bounties_held=cashbook.from_cents(
            (prizes["bounty_parts"] or 0) - bounties_paid([tournament])
        ),
    )


def bounties_paid(tournaments: list[Tournament]) -> int:
    """The bounty cash handed to players (awards, draws, the winner's own), in cents; a
    bounty added to the prize pool is not paid out yet."""
    total = BountyAward.objects.filter(
        tournament__in=tournaments, voided=False, to_prize_pool=False
    ).aggregate(total=Sum("cash_cents"))["total"]
    return int(total or 0)


def sales(tournaments: list[Tournament]) -> list[cashbook.Sale]:
    # A satellite's seat ticket paid the buy-in: a voucher, whatever the desk chose.
    by_ticket = set(
        SeatTicket.objects.filter(
            redeemed_entry__tournament__in=tournaments, voided=False
        ).values_list("redeemed_entry_id", flat=True)
    )
    sales = [
        cashbook.Sale(
            kind=entry.kind,
            method=PaymentMethod.VOUCHER if entry.pk in by_ticket else entry.payment_method,
            clerk=who(entry.clerk),
            amount=cashbook.from_cents(entry.paid_cents),
            voided=entry.status == Entry.Status.VOIDED,
        )
        for entry in Entry.objects.filter(tournament__in=tournaments, paid__gt=0).select_related(
            "clerk"
        )
    ]
    sales += [
        cashbook.Sale(
            kind=purchase.kind,
            method=purchase.payment_method,
            clerk=who(purchase.clerk),
            amount=purchase.price,
            voided=purchase.voided,
        )
        for purchase in Purchase.objects.filter(entry__tournament__in=tournaments).select_related(
            "clerk"
        )
    ]
    return sales


def payments(tournaments: list[Tournament]) -> list[cashbook.Payment]:
    payments = [
        cashbook.Payment(
            "refund", r.payment_method, who(r.by), cashbook.from_cents(refund_cents(r))
        )
        for r in CashRefund.objects.filter(tournament__in=tournaments).select_related("by")
    ]
    bounties = bounties_paid(tournaments)
    if bounties:
        payments.append(cashbook.Payment("bounty", "cash", "—", cashbook.from_cents(bounties)))
    paid = (
        Entry.objects.filter(tournament__in=tournaments, prize__gt=0)
        .exclude(status=Entry.Status.VOIDED)
        .aggregate(total=Sum("prize"))["total"]
    )
    if paid:
        payments.append(cashbook.Payment("prize", "cash", "—", paid))
    return payments


def refund_cents(refund: CashRefund) -> int:
    """What a refund gave back, bounty part included, in cents."""
    return refund.amount * 100 + refund.bounty_cents


def bounty_money(tournament: Tournament) -> dict[str, int] | None:
    """A bounty event's bounty money, in cents, beside the books (formats.md §5): the
    bounty parts of the buy-ins taken at the desk, the bounties paid to players, those
    added to the prize pool, and what is still held for the players' heads. None without
    bounties. (The buy-in's prize part and fee are the books' own figures.)"""
    if tournament.bounty_format == "none":
        return None
    # What the desk took for bounties, as each buy-in was sold (refunded ones left out).
    taken = (
        tournament.entries.exclude(status=Entry.Status.VOIDED).aggregate(
            total=Sum("paid_bounty_cents")
        )["total"]
        or 0
    )
    paid = bounties_paid([tournament])
    to_pool = format_selectors.bounties_to_prize_pool(tournament)
    return {"taken": taken, "paid": paid, "to_prize_pool": to_pool, "held": taken - paid - to_pool}


def event_books(tournament: Tournament) -> dict[str, Any]:
    """One event's cash report: what was sold, by method and clerk, and where it belongs."""
    allocated = allocation(tournament)
    result = cashbook.books(sales([tournament]), payments([tournament]), allocated)
    return {
        "bounty_money": bounty_money(tournament),
        "tournament": tournament,
        "books": result,
        "allocation": allocated,
        "refunds": list(
            CashRefund.objects.filter(tournament=tournament).select_related("by", "entry__player")
        ),
        "closed": night_closed(tournament.date),
    }
