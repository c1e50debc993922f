"""The books of the night: the cash report per event and per night,
voids and refunds with their reason and who, closing the night, and corrections after.

A night is a date: the events played on it and the cash room's rake taken on it. Once
closed (a NightClose row with the totals as they stood), sales, voids and refunds on
that night are refused, and so are the cash room's rake and its undo
(`tables.services.cash_rake`); the night changes only by a recorded correction. The night is
the room's: closing it and correcting it are logged in the room's log (`tables.events`).
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tables import permissions as room_permissions
from tables.events import room_event_log
from tables.models import CashTable, JackpotDrop, JackpotFund, JackpotPayment, RakeRecord, RoomEvent
from tournaments import errors, events, selectors
from tournaments.models import (
    BountyAward,
    CashCorrection,
    CashRefund,
    Entry,
    Event,
    NightClose,
    PaymentMethod,
    Purchase,
    SeatTicket,
    Tournament,
)
from tournaments.prepared import NO_ID, Prepared
from tournaments.rules import cashbook
from tournaments.selectors import formats as format_selectors
from tournaments.services import locks

REASON_MAX = 200
NIGHT_CLOSE = "room.night_close"
NIGHT_CORRECTION = "room.night_correction"


class NightClosed(errors.DomainError):
    message = gettext_lazy("The night of %(night)s is closed: record a correction instead.")


class CorrectionTooLarge(errors.DomainError):
    message = gettext_lazy("A correction is at most %(limit)s, in or out.")


def _who(user) -> str:
    if user is None:
        return "—"
    return user.get_username()


def clerk(user):
    """The user who sold or gave back money, or None (a tablet, the system)."""
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def night_closed(night: date) -> NightClose | None:
    return NightClose.objects.filter(night=night).first()


# Whether the night of the tournament's date is closed, by the tournament's key: compiled
# once, and read in the trip of the row lock by a registration (`open_read`).
_NIGHT_CLOSED = Prepared(
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
    return _NIGHT_CLOSED, {"tournament_id": tournament.pk}


def assert_open(tournament: Tournament) -> None:
    """Refuse a change to a closed night's money (sales, voids, refunds). The night is
    the tournament's date as saved."""
    if _NIGHT_CLOSED.rows(tournament_id=tournament.pk):
        raise NightClosed(night=tournament.date.isoformat())


# --- Reading the books ------------------------------------------------------------------


def _allocation(tournament: Tournament) -> cashbook.Allocation:
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
            (prizes["bounty_parts"] or 0) - _bounties_paid([tournament])
        ),
    )


def _bounties_paid(tournaments: list[Tournament]) -> int:
    """The bounty cash handed to players (awards, draws, the winner's own), in cents; a
    bounty added to the prize pool is not paid out yet."""
    total = BountyAward.objects.filter(
        tournament__in=tournaments, voided=False, to_prize_pool=False
    ).aggregate(total=Sum("cash_cents"))["total"]
    return int(total or 0)


def _sales(tournaments: list[Tournament]) -> list[cashbook.Sale]:
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
            clerk=_who(entry.clerk),
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
            clerk=_who(purchase.clerk),
            amount=purchase.price,
            voided=purchase.voided,
        )
        for purchase in Purchase.objects.filter(entry__tournament__in=tournaments).select_related(
            "clerk"
        )
    ]
    return sales


def _payments(tournaments: list[Tournament]) -> list[cashbook.Payment]:
    payments = [
        cashbook.Payment(
            "refund", r.payment_method, _who(r.by), cashbook.from_cents(refund_cents(r))
        )
        for r in CashRefund.objects.filter(tournament__in=tournaments).select_related("by")
    ]
    bounties = _bounties_paid(tournaments)
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
    paid = _bounties_paid([tournament])
    to_pool = format_selectors.bounties_to_prize_pool(tournament)
    return {"taken": taken, "paid": paid, "to_prize_pool": to_pool, "held": taken - paid - to_pool}


def event_books(tournament: Tournament) -> dict[str, Any]:
    """One event's cash report: what was sold, by method and clerk, and where it belongs."""
    allocation = _allocation(tournament)
    result = cashbook.books(_sales([tournament]), _payments([tournament]), allocation)
    return {
        "bounty_money": bounty_money(tournament),
        "tournament": tournament,
        "books": result,
        "allocation": allocation,
        "refunds": list(
            CashRefund.objects.filter(tournament=tournament).select_related("by", "entry__player")
        ),
        "closed": night_closed(tournament.date),
    }


def night_books(night: date) -> dict[str, Any]:
    """Every event of the night, the cash room's rake that day, and the corrections."""
    tournaments = list(Tournament.objects.filter(date=night).order_by("name"))
    allocation = cashbook.Allocation()
    for tournament in tournaments:
        allocation = allocation + _allocation(tournament)
    payments = _payments(tournaments)
    rake = _rake(night)
    if rake:
        payments.append(cashbook.Payment("rake", "cash", "—", rake))
    jackpot = jackpot_money(night)
    for kind in ("jackpot_drop", "jackpot_paid", "jackpot_room"):
        if jackpot[kind]:
            payments.append(cashbook.Payment(kind, "cash", "—", cashbook.from_cents(jackpot[kind])))
    closed = night_closed(night)
    corrections = list(closed.corrections.select_related("by")) if closed else []
    payments += [
        cashbook.Payment("correction", c.payment_method, _who(c.by), c.amount) for c in corrections
    ]
    return {
        "night": night,
        "events": [event_books(t) for t in tournaments],
        "books": cashbook.books(_sales(tournaments), payments, allocation),
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


def _rake_records(night: date):
    """The cash room's rake records of the night (its local date)."""
    start = timezone.make_aware(datetime.combine(night, datetime.min.time()))
    end = start + timedelta(days=1)
    return RakeRecord.objects.filter(at__gte=start, at__lt=end)


def _night_span(night: date) -> tuple[datetime, datetime]:
    start = timezone.make_aware(datetime.combine(night, datetime.min.time()))
    return start, start + timedelta(days=1)


def jackpot_money(night: date) -> dict[str, Any]:
    """The cash room's jackpot money of the night, in cents: the drops taken with the
    hands' rake, what was paid to players and the room's share of the jackpots paid; the
    fund as it stands now (held for the players over every night)."""
    start, end = _night_span(night)
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


def _rake(night: date) -> int:
    """The cash room's rake taken on the night (its local date)."""
    return _rake_records(night).aggregate(t=Sum("rake"))["t"] or 0


# --- Changing the books -----------------------------------------------------------------


def _reason(reason: str) -> str:
    reason = (reason or "").strip()[:REASON_MAX]
    if not reason:
        raise errors.DomainError(_("Write the reason."))
    return reason


def _method(method: str) -> str:
    if method not in PaymentMethod.values:
        raise errors.DomainError(_("Choose how the money was paid."))
    return method


@transaction.atomic
def sale_void(
    *,
    tournament: Tournament,
    entry: Entry,
    purchase: Purchase | None = None,
    reason: str,
    actor,
    now: datetime,
) -> CashRefund:
    """Void a sale (an entry, or a rebuy or add-on on it) and refund its money, with the
    reason and who did it. An active entry is taken out of play as its undo would; one
    already voided from the log is only refunded (once).

    The tournament's row lock first, as every money write of the event takes it: two tabs
    voiding the same sale queue here, and the second reads the first one's refund. The
    sale is read again under it (the caller's copy may be older than that refund)."""
    reason = _reason(reason)
    tournament = locks.tournament_for_update(tournament)
    assert_open(tournament)
    asked_purchase = purchase is not None
    entry = Entry.objects.select_related("player").filter(pk=entry.pk).first()
    purchase = Purchase.objects.filter(pk=purchase.pk).first() if purchase is not None else None
    if (
        entry is None
        or entry.tournament_id != tournament.pk
        or (asked_purchase and (purchase is None or purchase.entry_id != entry.pk))
    ):
        raise errors.DomainError(_("No such sale in this tournament."))
    target = purchase or entry
    already = errors.DomainError(_("This sale was already refunded."))
    if CashRefund.objects.filter(
        entry=entry, purchase=purchase if purchase is not None else None
    ).exists():
        raise already
    amount = purchase.price if purchase is not None else entry.paid
    bounty_cents = 0 if purchase is not None else entry.paid_bounty_cents
    still_sold = not purchase.voided if purchase is not None else entry.status != "voided"
    if still_sold:
        if purchase is not None:
            logged = Event.objects.filter(
                tournament=tournament,
                action=f"entry.{purchase.kind}",
                data__purchase=purchase.pk,
                undone_at__isnull=True,
            ).first()
        else:
            logged = Event.objects.filter(
                tournament=tournament,
                action="entry.register",
                data__entry=entry.pk,
                undone_at__isnull=True,
            ).first()
        if logged is None:
            raise errors.DomainError(_("This sale cannot be voided here."))
        events.event_undo(event_id=logged.pk, tournament=tournament, actor=actor, now=now)
    with locks.once(already):
        refund = CashRefund.objects.create(
            tournament=tournament,
            entry=entry,
            purchase=purchase,
            amount=amount,
            bounty_cents=bounty_cents,
            payment_method=getattr(target, "payment_method", "cash"),
            reason=reason,
            by=clerk(actor),
            at=now,
        )
    events.event_log(
        tournament=tournament,
        actor=actor,
        action="books.refund",
        data={
            "refund": refund.pk,
            "entry": entry.pk,
            "purchase": purchase.pk if purchase is not None else None,
            "name": str(entry.player),
            "amount": amount,
            "bounty_cents": bounty_cents,
            "reason": reason,
        },
        now=now,
        undoable=False,
    )
    return refund


@transaction.atomic
def night_close(*, night: date, actor, now: datetime) -> NightClose:
    """Close the night: its totals are kept as they stood; later changes are corrections.
    Needs a room role over the books (`tables.permissions.BOOKS`)."""
    room_permissions.require_room_role(actor, room_permissions.BOOKS)
    # The cash tables' locks: a rake being recorded or undone finishes before the totals
    # are counted, and one that comes after sees the night closed; the jackpot fund's, so
    # a jackpot being paid does the same.
    list(CashTable.objects.select_for_update().order_by("pk").values_list("pk", flat=True))
    list(JackpotFund.objects.select_for_update().values_list("pk", flat=True))
    already = errors.DomainError(_("This night is already closed."))
    if NightClose.objects.select_for_update().filter(night=night).exists():
        raise already
    # A night of cash games alone has books too: its rake is the drawer's money.
    played = Tournament.objects.filter(date=night).exists() or _rake_records(night).exists()
    if not played:
        raise errors.DomainError(_("No event was played that night."))
    report = night_books(night)
    totals = _totals(report["books"])
    # No row to lock yet: two closes at once meet at the night's unique key.
    with locks.once(already):
        closed = NightClose.objects.create(
            night=night, closed_at=now, closed_by=clerk(actor), totals=totals
        )
    room_event_log(
        actor=actor,
        action=NIGHT_CLOSE,
        data={"night": night.isoformat(), "drawer": totals["drawer"]},
        now=now,
        undoable=False,
    )
    # Each event's own log says why its desk now refuses sales.
    for tournament in Tournament.objects.filter(date=night):
        events.event_log(
            tournament=tournament,
            actor=actor,
            action="books.close",
            data={"night": night.isoformat(), "drawer": totals["drawer"]},
            now=now,
            undoable=False,
        )
    return closed


def _stored(value: Any) -> Any:
    """A figure as JSON keeps it: whole units as a number, cents as exact text."""
    if isinstance(value, dict):
        return {k: _stored(v) for k, v in value.items()}
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else str(value)
    return value


def _totals(result: cashbook.Books) -> dict[str, Any]:
    return _stored(
        {
            "taken": result.taken,
            "refunds": result.refunds,
            "prizes_paid": result.prizes_paid,
            "bounties_paid": result.bounties_paid,
            "rake": result.rake,
            "jackpot_drops": result.jackpot_drops,
            "jackpots_paid": result.jackpots_paid,
            "jackpot_room": result.jackpot_room,
            "corrections": result.corrections,
            "drawer": result.drawer,
            "accounted": result.accounted,
            "difference": result.difference,
            "by_method": {m: asdict(line) for m, line in result.by_method.items()},
        }
    )


@transaction.atomic
def night_correct(
    *,
    night: date,
    amount: int,
    method: str,
    reason: str,
    actor,
    now: datetime,
    key: str = "",
) -> CashCorrection:
    """Record a correction to a closed night: money in (positive) or out (negative), at
    most `cashbook.CORRECTION_MAX` either way, logged in the room's log. `key` is the
    confirmation's one-time key: the same confirmation twice records one correction.
    Needs a room role over the books (`tables.permissions.BOOKS`)."""
    room_permissions.require_room_role(actor, room_permissions.BOOKS)
    reason, method = _reason(reason), _method(method)
    if not amount:
        raise errors.DomainError(_("A correction needs an amount other than zero."))
    if abs(amount) > cashbook.CORRECTION_MAX:
        raise CorrectionTooLarge(limit=cashbook.CORRECTION_MAX)
    closed = NightClose.objects.select_for_update().filter(night=night).first()
    if closed is None:
        raise errors.DomainError(_("This night is not closed: change the sales themselves."))
    # Under the night's row lock: a second sending of the same confirmation waits here and
    # then finds the first (the constraint backs this up).
    key = (key or "").strip()[:64]
    already = errors.DomainError(_("This correction is already recorded."))
    if key and closed.corrections.filter(key=key).exists():
        raise already
    with locks.once(already):
        correction = CashCorrection.objects.create(
            night=closed,
            key=key,
            amount=amount,
            payment_method=method,
            reason=reason,
            by=clerk(actor),
            at=now,
        )
    room_event_log(
        actor=actor,
        action=NIGHT_CORRECTION,
        data={
            "night": night.isoformat(),
            "correction": correction.pk,
            "amount": amount,
            "method": method,
            "reason": reason,
        },
        now=now,
        undoable=False,
    )
    return correction
