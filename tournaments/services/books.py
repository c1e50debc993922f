"""The event's money changed at the desk: voids and refunds with their reason and who,
refused once the night is closed (`assert_open`; closing and correcting the night are the
room app's, room/services/books.py).

A night is a date: the events played on it and the cash room's rake taken on it. Once
closed (a NightClose row with the totals as they stood), sales, voids and refunds on
that night are refused, and so are the cash room's rake and its undo
(`room.services.cash_rake`); the night changes only by a recorded correction. The night is
the room's: closing it and correcting it are logged in the room's log (`room.events`).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments import errors, events
from tournaments.models import (
    CashRefund,
    Entry,
    Event,
    PaymentMethod,
    Purchase,
    Tournament,
)
from tournaments.selectors import books as book_reads
from tournaments.services import locks

REASON_MAX = 200


class NightClosed(errors.DomainError):
    message = gettext_lazy("The night of %(night)s is closed: record a correction instead.")


def clerk(user):
    """The user who sold or gave back money, or None (a tablet, the system)."""
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def assert_open(tournament: Tournament) -> None:
    """Refuse a change to a closed night's money (sales, voids, refunds). The night is
    the tournament's date as saved."""
    if book_reads.NIGHT_CLOSED.rows(tournament_id=tournament.pk):
        raise NightClosed(night=tournament.date.isoformat())


# --- Reading the books ------------------------------------------------------------------


# --- Changing the books -----------------------------------------------------------------


def checked_reason(reason: str) -> str:
    reason = (reason or "").strip()[:REASON_MAX]
    if not reason:
        raise errors.DomainError(_("Write the reason."))
    return reason


def checked_method(method: str) -> str:
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
    reason = checked_reason(reason)
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
