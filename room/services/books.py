"""Closing the night and correcting it after: the night is the room's, its close and its
corrections logged in the room's log (`room.events`). Once closed (a NightClose row with
the totals as they stood), the events' sales, voids and refunds and the cash room's rake on
that night are refused; the night changes only by a recorded correction."""

from __future__ import annotations

from dataclasses import asdict
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from room.events import room_event_log
from room.models import CashTable, JackpotFund
from room.selectors import books as night_reads
from tournaments import errors, events, permissions
from tournaments.models import CashCorrection, NightClose, Tournament
from tournaments.rules import cashbook
from tournaments.services import books as book_services
from tournaments.services import locks


class CorrectionTooLarge(errors.DomainError):
    message = gettext_lazy("A correction is at most %(limit)s, in or out.")


@transaction.atomic
def night_close(*, night: date, actor, now: datetime) -> NightClose:
    """Close the night: its totals are kept as they stood; later changes are corrections.
    Needs a room role over the books (`tournaments.permissions.BOOKS`)."""
    permissions.require_room_role(actor, permissions.BOOKS)
    # The cash tables' locks: a rake being recorded or undone finishes before the totals
    # are counted, and one that comes after sees the night closed; the jackpot fund's, so
    # a jackpot being paid does the same.
    list(CashTable.objects.select_for_update().order_by("pk").values_list("pk", flat=True))
    list(JackpotFund.objects.select_for_update().values_list("pk", flat=True))
    already = errors.DomainError(_("This night is already closed."))
    if NightClose.objects.select_for_update().filter(night=night).exists():
        raise already
    # A night of cash games alone has books too: its rake is the drawer's money.
    played = (
        Tournament.objects.filter(date=night).exists() or night_reads.rake_records(night).exists()
    )
    if not played:
        raise errors.DomainError(_("No event was played that night."))
    report = night_reads.night_books(night)
    totals = _totals(report["books"])
    # No row to lock yet: two closes at once meet at the night's unique key.
    with locks.once(already):
        closed = NightClose.objects.create(
            night=night, closed_at=now, closed_by=book_services.clerk(actor), totals=totals
        )
    room_event_log(
        actor=actor,
        action=night_reads.NIGHT_CLOSE,
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
    Needs a room role over the books (`tournaments.permissions.BOOKS`)."""
    permissions.require_room_role(actor, permissions.BOOKS)
    reason, method = book_services.checked_reason(reason), book_services.checked_method(method)
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
            by=book_services.clerk(actor),
            at=now,
        )
    room_event_log(
        actor=actor,
        action=night_reads.NIGHT_CORRECTION,
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
