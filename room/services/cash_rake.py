"""The rake (cash-room.md §12): one record per hand, from the players' contributions
through the pots or from the total, with the jackpot's drop that goes in with it; a hand is
raked once, and neither a rake nor its undo changes a night whose books are closed."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from room.events import room_event_log, undoes
from room.models import CashTable, RakeRecord, RoomEvent
from room.selectors.cash import game_settings
from room.services import jackpots
from room.services.cash_log import CashRefused
from tables.cash import rake
from tournaments.errors import CannotUndo, DomainError
from tournaments.models import NightClose
from tournaments.realtime import broadcast_cash
from tournaments.services.locks import once


class BooksClosed(DomainError):
    message = gettext_lazy(
        "The books of %(night)s are closed: the rake of that night no longer changes; "
        "the cashier records a correction instead."
    )


def _lock_table(table: CashTable) -> None:
    """Take the table's row lock: the rake's writes and the books' close (which locks
    every cash table before it counts the rake) then happen one after the other."""
    CashTable.objects.select_for_update().filter(pk=table.pk).values_list("pk").first()


def _assert_books_open(at: datetime) -> None:
    """Refuse a change to the rake of a night whose books are closed (the night is the
    local date, as the books count the rake). Call holding the table's lock."""
    night = timezone.localdate(at)
    if NightClose.objects.filter(night=night).exists():
        raise BooksClosed(night=night.isoformat())


@transaction.atomic
def rake_record(
    *,
    actor: Any,
    table: CashTable,
    pot: int,
    flop_dealt: bool,
    dealer: Any,
    shift: str,
    now: datetime,
    contributions: list[rake.Contribution] | None = None,
    hand: int | None = None,
) -> RakeRecord:
    """Record one hand's rake: from the contributions through the pots, or from the total.

    `dealer` is a staff account (the form offers those who may deal) or None; the record
    keeps the account and the name it had then. `shift` is one of the room's shifts, or
    empty when the room names none.

    `hand` is the hand the form was drawn for (the next one of the table then): a hand is
    raked once, so the same form sent twice (a double tap, a retry, two tablets) records
    one rake. The table's row is locked first, so two rakes never take the same number;
    without `hand`, the next one. Refused once the night's books are closed."""
    _lock_table(table)
    _assert_books_open(now)
    last = table.rake.aggregate(m=Max("hand"))["m"] or 0
    if hand is not None and hand <= last:
        raise _raked_already(table, hand)
    if hand is not None and hand > last + 1:
        raise CashRefused(reason=_("no such hand at this table yet"))
    hand = last + 1
    settings = game_settings(table.game)
    shift = shift.strip()
    if shift and shift not in {s.name for s in settings.shifts}:
        raise CashRefused(reason=_("the room has no such shift"))
    if contributions:
        result = rake.compute_rake(
            contributions=contributions, flop_dealt=flop_dealt, settings=settings
        )
        pot = sum(p.amount for p in result.pots)
        taken, by_pot = result.rake_total, [p.rake for p in result.pots]
    else:
        no_drop = settings.no_flop_no_drop and not flop_dealt
        taken = 0 if no_drop else rake.rake_of(pot, settings)
        by_pot = [taken]
    with once(_raked_already(table, hand)):
        record = RakeRecord.objects.create(
            table=table,
            game=table.game,
            at=now,
            hand=hand,
            dealer_account=dealer or None,
            dealer=staff_name(dealer) if dealer else "",
            shift=shift,
            flop_dealt=flop_dealt,
            pot=pot,
            rake=taken,
            rake_by_pot=by_pot,
        )
    # The jackpot's drop goes in with the rake, once per hand as the rake does.
    drop = jackpots.drop_record(record)
    room_event_log(
        actor=actor,
        action="cash.rake",
        data={
            "record": record.pk,
            "table": table.number,
            "pot": pot,
            "rake": taken,
            "drop_cents": drop.cents if drop else 0,
            "rule": rake.RULE_RAKE,
        },
        now=now,
    )
    broadcast_cash("cash.rake")
    return record


def _raked_already(table: CashTable, hand: int) -> DomainError:
    return DomainError(
        _("The rake of hand %(hand)s at table %(table)s is already recorded.")
        % {"hand": hand, "table": table.number}
    )


def staff_name(user: Any) -> str:
    """How a staff account is named on reports: its full name, else its username."""
    return (user.get_full_name() or user.get_username())[:60]


@undoes("cash.rake")
def _undo_rake(event: RoomEvent, actor: Any, now: datetime) -> None:
    record = RakeRecord.objects.filter(pk=event.data["record"]).select_related("table").first()
    if record is None:
        raise CannotUndo(reason=_("the rake it recorded no longer exists"))
    _lock_table(record.table)
    night = timezone.localdate(record.at)
    if NightClose.objects.filter(night=night).exists():
        raise CannotUndo(
            reason=_("the books of %(night)s are closed") % {"night": night.isoformat()}
        )
    jackpots.drop_undo(record)
    record.delete()
    broadcast_cash("undo")
