"""The night's books: every event of the night, the cash room's rake and jackpot money
taken that day, the corrections, and the room's log of its close and corrections."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from django.db.models import Sum
from django.utils import timezone

from room.models import JackpotDrop, JackpotFund, JackpotPayment, RakeRecord, RoomEvent
from tournaments.models import CashRefund, Tournament
from tournaments.rules import cashbook
from tournaments.selectors import books as book_reads

NIGHT_CLOSE = "room.night_close"


NIGHT_CORRECTION = "room.night_correction"


def night_books(night: date) -> dict[str, Any]:
    """Every event of the night, the cash room's rake that day, and the corrections."""
    tournaments = list(Tournament.objects.filter(date=night).order_by("name"))
    allocation = cashbook.Allocation()
    for tournament in tournaments:
        allocation = allocation + book_reads.allocation(tournament)
    payments = book_reads.payments(tournaments)
    rake = rake_taken(night)
    if rake:
        payments.append(cashbook.Payment("rake", "cash", "—", rake))
    jackpot = jackpot_money(night)
    for kind in ("jackpot_drop", "jackpot_paid", "jackpot_room"):
        if jackpot[kind]:
            payments.append(cashbook.Payment(kind, "cash", "—", cashbook.from_cents(jackpot[kind])))
    closed = book_reads.night_closed(night)
    corrections = list(closed.corrections.select_related("by")) if closed else []
    payments += [
        cashbook.Payment("correction", c.payment_method, book_reads.who(c.by), c.amount)
        for c in corrections
    ]
    return {
        "night": night,
        "events": [book_reads.event_books(t) for t in tournaments],
        "books": cashbook.books(book_reads.sales(tournaments), payments, allocation),
        "allocation": allocation,
        "rake": rake,
        "jackpot": jackpot,
        "closed": closed,
        "corrections": corrections,
        "refunds": list(
            CashRefund.objects.filter(tournament__in=tournaments).select_related(
                "by", "entry__player"
            )
        ),
        "log": night_log(night),
    }


def night_log(night: date) -> list[RoomEvent]:
    """The room's log rows of the night's books (its close and corrections), oldest first."""
    return list(
        RoomEvent.objects.filter(
            action__in=[NIGHT_CLOSE, NIGHT_CORRECTION], data__night=night.isoformat()
        )
        .select_related("actor")
        .order_by("at", "pk")
    )


def rake_records(night: date):
    """The cash room's rake records of the night (its local date)."""
    start = timezone.make_aware(datetime.combine(night, datetime.min.time()))
    end = start + timedelta(days=1)
    return RakeRecord.objects.filter(at__gte=start, at__lt=end)


def night_span(night: date) -> tuple[datetime, datetime]:
    start = timezone.make_aware(datetime.combine(night, datetime.min.time()))
    return start, start + timedelta(days=1)


def jackpot_money(night: date) -> dict[str, Any]:
    """The cash room's jackpot money of the night, in cents: the drops taken with the
    hands' rake, what was paid to players and the room's share of the jackpots paid; the
    fund as it stands now (held for the players over every night)."""
    start, end = night_span(night)
    drops = JackpotDrop.objects.filter(at__gte=start, at__lt=end).aggregate(t=Sum("cents"))["t"]
    paid = room = 0
    for payment in JackpotPayment.objects.filter(at__gte=start, at__lt=end):
        for share in payment.shares:
            if share.get("role") == "room":
                room += int(share["cents"])
            else:
                paid += int(share["cents"])
    fund = JackpotFund.objects.order_by("pk").first()
    return {
        "jackpot_drop": int(drops or 0),
        "jackpot_paid": paid,
        "jackpot_room": room,
        "fund": fund.parts() if fund is not None else {"main": 0, "backup": 0, "next": 0},
    }


def rake_taken(night: date) -> int:
    """The cash room's rake taken on the night (its local date)."""
    return rake_records(night).aggregate(t=Sum("rake"))["t"] or 0
