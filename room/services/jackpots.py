"""The jackpots' writes (tables/cash/jackpots.md): the room's jackpot rules, the drop of
each raked hand, claims judged by the engine, their two confirmations and the payment, the
high hand of each period and its payment.

The fund (`JackpotFund`, one row) is the players' money: every write that changes it takes
its row lock first, so drops, payments and their undos happen one after the other and a
payment reads the fund as it stands. Each payment takes the next number of the fund's
payment counter; a drop or a payment whose money a later payment has used is not undone
until that payment is (its undo then gives the fund back to the cent). Every action is a
`cash.jackpot_*` row of the room's log, undoable, and pushed to the cash screens after
commit.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from room.events import room_event_log, undoes
from room.models import (
    CashRoom,
    CashTable,
    JackpotClaim,
    JackpotDrop,
    JackpotFund,
    JackpotKind,
    JackpotPayment,
    RakeRecord,
    RoomEvent,
)
from room.selectors.jackpots import (
    DEFAULTS,
    GROUPS,
    JackpotSettings,
    _plain,
    best_of,
    jackpot_settings,
    period_at,
    period_hands,
)
from tables.cash.jackpot import (
    ClaimedHand,
    Funds,
    drop_for_hand,
    game_key,
    judge_bad_beat,
    judge_high_hand,
    roll_over,
    split_bad_beat,
    split_drop,
    split_high_hand,
)
from tables.engine.errors import InvalidCards
from tables.ruling.labels import ENGINE_ERRORS
from tournaments import permissions
from tournaments.errors import CannotUndo, DomainError
from tournaments.labels import cents_text
from tournaments.models import NightClose, Table
from tournaments.realtime import broadcast_cash

PARTS = ("main", "backup", "next")


class JackpotRefused(DomainError):
    message = gettext_lazy("Not possible: %(reason)s")


# --- the rules the room set in advance ---------------------------------------------------


def stored_settings(settings: JackpotSettings) -> dict[str, Any]:
    """What the room's row keeps: only the values that differ from the spec's defaults."""
    out: dict[str, Any] = {}
    for group in GROUPS:
        rule, default = getattr(settings, group), getattr(DEFAULTS, group)
        changed = {
            f.name: _plain(getattr(rule, f.name))
            for f in fields(rule)
            if f.init and getattr(rule, f.name) != getattr(default, f.name)
        }
        if changed:
            out[group] = changed
    if settings.tournament_claims:
        out["tournament_claims"] = True
    return out


@transaction.atomic
def jackpot_settings_save(*, actor: Any, settings: JackpotSettings, now: datetime) -> CashRoom:
    """The manager sets the jackpot rules in advance (logged, undoable)."""
    permissions.require_room_role(actor, permissions.MANAGER)
    room = CashRoom.objects.select_for_update().order_by("pk").first() or CashRoom()
    before = dict(room.jackpot_rules or {})
    room.jackpot_rules = stored_settings(settings)
    room.save()
    room_event_log(actor=actor, action="cash.jackpot_settings", data={"before": before}, now=now)
    _push("cash.jackpot")
    return room


@undoes("cash.jackpot_settings")
def _undo_settings(event: RoomEvent, actor: Any, now: datetime) -> None:
    room = CashRoom.objects.select_for_update().order_by("pk").first()
    if room is None:
        raise CannotUndo(reason=_("the room's settings no longer exist"))
    room.jackpot_rules = event.data.get("before") or {}
    room.save()
    _push("undo")


# --- the fund ------------------------------------------------------------------------------


def _fund() -> JackpotFund:
    """The fund's row, locked until the transaction ends (made at the first drop)."""
    JackpotFund.objects.get_or_create(pk=1)
    return JackpotFund.objects.select_for_update().get(pk=1)


def _funds(fund: JackpotFund) -> Funds:
    return Funds(main=fund.main_cents, backup=fund.backup_cents, next=fund.next_cents)


def _add(fund: JackpotFund, delta: dict[str, int]) -> None:
    """Move the fund's parts by `delta` (cents; negative takes out). The database's check
    refuses a part below zero."""
    JackpotFund.objects.filter(pk=fund.pk).update(
        **{f"{part}_cents": F(f"{part}_cents") + delta.get(part, 0) for part in PARTS}
    )


def _assert_books_open(now: datetime) -> None:
    night = timezone.localdate(now)
    if NightClose.objects.filter(night=night).exists():
        raise DomainError(
            _("The books of %(night)s are closed: no jackpot is paid on that night any more.")
            % {"night": night.isoformat()}
        )


def _push(action: str) -> None:
    transaction.on_commit(lambda: broadcast_cash(action))


# --- the drop of a raked hand ----------------------------------------------------------------


def drop_record(record: RakeRecord) -> JackpotDrop | None:
    """Take the hand's drop into the fund, in the rake's transaction (its caller holds the
    table's lock). Nothing when the hand does not qualify (jackpots.md §2). The pot on the
    rake's record is in whole euros; the drop is in cents."""
    settings = jackpot_settings()
    cents = drop_for_hand(
        settings.drop,
        game=game_key(record.game.variant),
        pot_cents=record.pot * 100,
        flop_dealt=record.flop_dealt,
    )
    if not cents:
        return None
    split = split_drop(cents, settings.shares)
    fund = _fund()
    _add(fund, split)
    return JackpotDrop.objects.create(
        rake=record,
        at=record.at,
        cents=cents,
        seq=fund.payments,
        **{f"{part}_cents": split[part] for part in PARTS},
    )


def drop_undo(record: RakeRecord) -> None:
    """Give back the hand's drop with its rake's undo: refused when a jackpot paid since
    used the fund it went into (undo that payment first)."""
    drop = JackpotDrop.objects.filter(rake=record).first()
    if drop is None:
        return
    fund = _fund()
    if JackpotPayment.objects.filter(seq__gt=drop.seq).exists():
        raise CannotUndo(
            reason=_("its jackpot drop was in a jackpot paid since: undo that payment first")
        )
    _add(fund, {part: -getattr(drop, f"{part}_cents") for part in PARTS})
    drop.delete()


# --- where a claimed hand was played ----------------------------------------------------------


@dataclass(frozen=True)
class Where:
    """A table a hand was played at: a cash table, or a tournament's table."""

    cash_table: CashTable | None = None
    table: Table | None = None

    @property
    def number(self) -> int:
        if self.cash_table is not None:
            return self.cash_table.number
        assert self.table is not None
        return self.table.number

    def names(self) -> dict[str, str]:
        """Each seat's player, as the table has him now."""
        if self.cash_table is not None:
            seats = self.cash_table.seats.select_related("player")
            return {str(s.number): str(s.player) for s in seats}
        assert self.table is not None
        seats = self.table.seats.select_related("entry__player")
        return {str(s.number): str(s.entry.player) for s in seats}


def _where_fields(where: Where, settings: JackpotSettings) -> dict[str, Any]:
    if where.table is not None:
        if not settings.tournament_claims:
            raise JackpotRefused(
                reason=_("the room's rules take jackpot claims at cash tables only")
            )
        return {"tournament": where.table.tournament, "table_number": where.table.number}
    return {"cash_table": where.cash_table, "table_number": where.number}


def _game_of(where: Where) -> str:
    if where.cash_table is not None:
        return game_key(where.cash_table.game.variant)
    return "holdem"  # the engine's tournaments deal hold'em


def _judged(call: Any) -> Any:
    try:
        return call()
    except InvalidCards:
        raise DomainError(str(ENGINE_ERRORS[InvalidCards])) from None


def _hand(claimed: ClaimedHand) -> dict[str, Any]:
    return {"seat": claimed.seat, "hole": list(claimed.hole)}


# --- a bad beat: claimed, judged, confirmed twice, paid ----------------------------------------


@transaction.atomic
def claim_bad_beat(
    *,
    actor: Any,
    where: Where,
    board: list[str],
    loser: ClaimedHand,
    winner: ClaimedHand,
    dealt: list[int],
    now: datetime,
) -> JackpotClaim:
    """The floor enters a bad beat: the board, the loser's and the winner's hole cards and
    the seats dealt in; the engine judges it at once (pay, or refuse with its reasons)."""
    permissions.require_room_role(actor, permissions.CASH)
    settings = jackpot_settings()
    place = _where_fields(where, settings)
    dealt = sorted(set(dealt) | {loser.seat, winner.seat})
    others = [seat for seat in dealt if seat not in (loser.seat, winner.seat)]
    game = _game_of(where)
    judgement = _judged(
        lambda: judge_bad_beat(
            settings.bad_beat,
            game=game,
            board=board,
            loser=loser,
            winner=winner,
            players_dealt=len(dealt),
        )
    )
    claim = JackpotClaim.objects.create(
        kind=JackpotKind.BAD_BEAT,
        at=now,
        recorded_by=_account(actor),
        game=game,
        board=list(board),
        hands={"loser": _hand(loser), "winner": _hand(winner)},
        players_dealt=len(dealt),
        other_seats=others,
        names=where.names(),
        status=JackpotClaim.Status.JUDGED if judgement.pay else JackpotClaim.Status.REFUSED,
        reasons=list(judgement.reasons),
        loser_rank=judgement.loser_rank,
        winner_rank=judgement.winner_rank,
        **place,
    )
    room_event_log(
        actor=actor,
        action="cash.jackpot_claim",
        data={
            "claim": claim.pk,
            "table": claim.table_number,
            "pay": judgement.pay,
            "reasons": list(judgement.reasons),
            "rule": judgement.rule,
        },
        now=now,
    )
    _push("cash.jackpot")
    return claim


@undoes("cash.jackpot_claim")
def _undo_claim(event: RoomEvent, actor: Any, now: datetime) -> None:
    claim = JackpotClaim.objects.select_for_update().filter(pk=event.data.get("claim")).first()
    if claim is None:
        raise CannotUndo(reason=_("the claim no longer exists"))
    if claim.status in (JackpotClaim.Status.CONFIRMED, JackpotClaim.Status.PAID):
        raise CannotUndo(reason=_("the claim was confirmed since: undo that first"))
    claim.delete()
    _push("undo")


def _account(actor: Any) -> Any:
    return actor if actor is not None and actor.is_authenticated else None


def _locked_claim(claim: JackpotClaim) -> JackpotClaim:
    locked = JackpotClaim.objects.select_for_update().filter(pk=claim.pk).first()
    if locked is None:
        raise DomainError(_("This claim no longer exists."))
    return locked


@transaction.atomic
def claim_confirm(*, actor: Any, claim: JackpotClaim, now: datetime) -> JackpotClaim:
    """A staff member confirms a bad beat the engine pays: first the floor (the cash-room
    floor or a manager), then a manager who is not the same person; the manager's
    confirmation pays it. The claim's row lock first: two confirmations sent at once pay
    once (the second finds it paid)."""
    held = permissions.require_room_role(actor, permissions.CASH)
    claim = _locked_claim(claim)
    status = claim.status
    if claim.kind != JackpotKind.BAD_BEAT:
        raise JackpotRefused(reason=_("a high hand is paid with its period"))
    if status == JackpotClaim.Status.REFUSED:
        raise JackpotRefused(reason=_("the engine refused this claim; it cannot be confirmed"))
    if status == JackpotClaim.Status.PAID:
        raise DomainError(_("This jackpot is already paid."))
    if status == JackpotClaim.Status.JUDGED:
        claim.status = JackpotClaim.Status.CONFIRMED
        claim.floor_by = _account(actor)
        claim.floor_at = now
        claim.save(update_fields=["status", "floor_by", "floor_at"])
        room_event_log(
            actor=actor,
            action="cash.jackpot_confirm",
            data={"claim": claim.pk, "table": claim.table_number},
            now=now,
        )
        _push("cash.jackpot")
        return claim
    if permissions.MANAGER.isdisjoint(held):
        raise JackpotRefused(reason=_("the second confirmation is a manager's"))
    if claim.floor_by_id == actor.pk:
        raise JackpotRefused(
            reason=_("the same person cannot confirm twice: another manager confirms")
        )
    _pay_bad_beat(actor=actor, claim=claim, now=now)
    return claim


@undoes("cash.jackpot_confirm")
def _undo_confirm(event: RoomEvent, actor: Any, now: datetime) -> None:
    claim = JackpotClaim.objects.select_for_update().filter(pk=event.data.get("claim")).first()
    if claim is None:
        raise CannotUndo(reason=_("the claim no longer exists"))
    if claim.status != JackpotClaim.Status.CONFIRMED:
        raise CannotUndo(reason=_("the jackpot was paid since: undo the payment first"))
    claim.status = JackpotClaim.Status.JUDGED
    claim.floor_by = None
    claim.floor_at = None
    claim.save(update_fields=["status", "floor_by", "floor_at"])
    _push("undo")


def _pay(
    *,
    actor: Any,
    fund: JackpotFund,
    cents: int,
    shares: list[dict[str, Any]],
    now: datetime,
    **payment: Any,
) -> JackpotPayment:
    """Pay `cents` from the main and roll the fund over (jackpots.md §3), under its lock."""
    before = _funds(fund)
    try:
        after = roll_over(before, cents)
    except ValueError:
        raise JackpotRefused(
            reason=_("the jackpot holds %(amount)s") % {"amount": cents_text(before.main)}
        ) from None
    _add(fund, {part: getattr(after, part) - getattr(before, part) for part in PARTS})
    JackpotFund.objects.filter(pk=fund.pk).update(payments=F("payments") + 1)
    return JackpotPayment.objects.create(
        at=now,
        paid_by=_account(actor),
        cents=cents,
        shares=shares,
        before=asdict(before),
        after=asdict(after),
        seq=fund.payments + 1,
        **payment,
    )


def _pay_bad_beat(*, actor: Any, claim: JackpotClaim, now: datetime) -> JackpotPayment:
    fund = _fund()
    _assert_books_open(now)
    cents = fund.main_cents
    if cents <= 0:
        raise JackpotRefused(reason=_("the jackpot is empty"))
    rule = jackpot_settings().bad_beat
    loser, winner = claim.hands["loser"]["seat"], claim.hands["winner"]["seat"]
    split = split_bad_beat(
        cents, rule, loser_seat=loser, winner_seat=winner, other_seats=claim.other_seats
    )
    shares = []
    for key, amount in split.items():
        role, _sep, seat_text = key.partition(":")
        seat = {"loser": loser, "winner": winner}.get(role)
        seat = int(seat_text) if seat_text else seat
        shares.append(
            {
                "role": role,
                "seat": seat,
                "name": claim.names.get(str(seat), "") if seat is not None else "",
                "table": claim.table_number,
                "cents": amount,
            }
        )
    payment = _pay(
        actor=actor, fund=fund, cents=cents, shares=shares, now=now, kind=claim.kind, claim=claim
    )
    claim.status = JackpotClaim.Status.PAID
    claim.save(update_fields=["status"])
    room_event_log(
        actor=actor,
        action="cash.jackpot_paid",
        data={
            "claim": claim.pk,
            "payment": payment.pk,
            "table": claim.table_number,
            "cents": cents,
            "before": payment.before,
            "after": payment.after,
        },
        now=now,
    )
    _push("cash.jackpot_hit")
    return payment


@undoes("cash.jackpot_paid")
def _undo_payment(event: RoomEvent, actor: Any, now: datetime) -> None:
    fund = _fund()
    payment = JackpotPayment.objects.filter(pk=event.data.get("payment")).first()
    if payment is None:
        raise CannotUndo(reason=_("the payment no longer exists"))
    if JackpotPayment.objects.filter(seq__gt=payment.seq).exists():
        raise CannotUndo(reason=_("a jackpot was paid after it: undo that payment first"))
    # The payment's own movement backwards: drops taken since stay where they went.
    _add(fund, {part: payment.before[part] - payment.after[part] for part in PARTS})
    claims = list(JackpotClaim.objects.select_for_update().filter(pk__in=_paid_claims(payment)))
    payment.delete()
    for claim in claims:
        claim.status = (
            JackpotClaim.Status.CONFIRMED
            if claim.kind == JackpotKind.BAD_BEAT
            else JackpotClaim.Status.JUDGED
        )
        claim.save(update_fields=["status"])
    _push("undo")


def _paid_claims(payment: JackpotPayment) -> list[int]:
    if payment.claim_id is not None:
        return [payment.claim_id]
    return [s["claim"] for s in payment.shares if type(s.get("claim")) is int]


# --- the high hand of a period ------------------------------------------------------------


@transaction.atomic
def high_hand_record(
    *,
    actor: Any,
    where: Where,
    board: list[str],
    hand: ClaimedHand,
    at: datetime | None = None,
    now: datetime,
) -> JackpotClaim:
    """The floor records a hand for its period's high hand: the engine checks the minimum,
    both hole cards and the period's high hand so far (a better one replaces it, an equal
    one shares it). `at` is when the hand was played (now when not given). The fund's lock
    first: two hands recorded at once are judged one after the other."""
    permissions.require_room_role(actor, permissions.CASH)
    at = at or now
    if at > now:
        raise JackpotRefused(reason=_("the hand's time is later than now"))
    settings = jackpot_settings()
    place = _where_fields(where, settings)
    _fund()
    start, end = period_at(at, settings)
    if JackpotPayment.objects.filter(kind=JackpotKind.HIGH_HAND, period_start=start).exists():
        raise JackpotRefused(reason=_("the high hand of that period is already paid"))
    best = best_of(period_hands(start))
    game = _game_of(where)
    judgement = _judged(
        lambda: judge_high_hand(
            settings.high_hand,
            game=game,
            board=board,
            hand=hand,
            current_best_rank=best[0].winner_rank if best else None,
        )
    )
    claim = JackpotClaim.objects.create(
        kind=JackpotKind.HIGH_HAND,
        at=at,
        recorded_by=_account(actor),
        game=game,
        board=list(board),
        hands={"hand": _hand(hand)},
        names=where.names(),
        status=JackpotClaim.Status.JUDGED if judgement.pay else JackpotClaim.Status.REFUSED,
        reasons=list(judgement.reasons),
        winner_rank=judgement.winner_rank,
        period_start=start,
        period_end=end,
        **place,
    )
    room_event_log(
        actor=actor,
        action="cash.jackpot_high_hand",
        data={
            "claim": claim.pk,
            "table": claim.table_number,
            "seat": hand.seat,
            "pay": judgement.pay,
            "reasons": list(judgement.reasons),
            "replaces": [c.pk for c in best if judgement.reasons == ("new_high_hand",)],
            "rule": judgement.rule,
        },
        now=now,
    )
    _push("cash.jackpot")
    return claim


@undoes("cash.jackpot_high_hand")
def _undo_high_hand(event: RoomEvent, actor: Any, now: datetime) -> None:
    _fund()
    claim = JackpotClaim.objects.select_for_update().filter(pk=event.data.get("claim")).first()
    if claim is None:
        raise CannotUndo(reason=_("the high hand no longer exists"))
    if claim.status == JackpotClaim.Status.PAID:
        raise CannotUndo(reason=_("its period was paid since: undo that payment first"))
    claim.delete()
    _push("undo")


@transaction.atomic
def high_hand_pay(*, actor: Any, period_start: datetime, now: datetime) -> JackpotPayment:
    """Pay a period's high hand once the period is over: the prize (or the whole jackpot,
    as the rules say), shared equally by tied hands. Once per period (a database
    constraint backs the fund's lock)."""
    permissions.require_room_role(actor, permissions.CASH)
    fund = _fund()
    _assert_books_open(now)
    settings = jackpot_settings()
    hands = period_hands(period_start)
    if not hands:
        raise JackpotRefused(reason=_("no high hand was recorded in that period"))
    end = hands[0].period_end
    assert end is not None
    if end > now:
        raise JackpotRefused(
            reason=_("the period ends at %(time)s")
            % {"time": timezone.localtime(end).strftime("%H:%M")}
        )
    if JackpotPayment.objects.filter(
        kind=JackpotKind.HIGH_HAND, period_start=period_start
    ).exists():
        raise DomainError(_("The high hand of this period is already paid."))
    winners = best_of(hands)
    prize = settings.high_hand.prize_cents
    cents = fund.main_cents if prize is None else prize
    if cents <= 0:
        raise JackpotRefused(reason=_("the jackpot is empty"))
    split = split_high_hand(cents, [w.pk for w in winners])
    shares = [
        {
            "role": "high_hand",
            "claim": w.pk,
            "seat": w.hands["hand"]["seat"],
            "name": w.names.get(str(w.hands["hand"]["seat"]), ""),
            "table": w.table_number,
            "cents": split[w.pk],
        }
        for w in winners
    ]
    payment = _pay(
        actor=actor,
        fund=fund,
        cents=cents,
        shares=shares,
        now=now,
        kind=JackpotKind.HIGH_HAND,
        period_start=period_start,
        period_end=end,
    )
    JackpotClaim.objects.filter(pk__in=[w.pk for w in winners]).update(
        status=JackpotClaim.Status.PAID
    )
    room_event_log(
        actor=actor,
        action="cash.jackpot_high_hand_paid",
        data={
            "payment": payment.pk,
            "period": period_start.isoformat(),
            "cents": cents,
            "winners": [w.pk for w in winners],
            "before": payment.before,
            "after": payment.after,
        },
        now=now,
    )
    _push("cash.jackpot_hit")
    return payment


undoes("cash.jackpot_high_hand_paid")(_undo_payment)
