"""Time calls: the floor calls the clock on a seat, the grant runs, and the ruling is
recorded when it runs out (tournament.md §18).

The rules are in tournaments/rules/timecalls.py; this module stores, logs and broadcasts. The
expiry needs no one to press anything: a Celery task is scheduled at the expiry time
when a broker can hold it, and the table tablet asks for it when its own countdown
reaches zero. `timecall_expire` is idempotent and checks the time itself, so the two may
both arrive, in any order, early or late.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q, Subquery
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config import scheduling
from tournaments import errors, realtime
from tournaments.events import event_log, logged_id, scoped, undoes
from tournaments.models import Entry, Event, Seat, Table, TimeCall, Tournament
from tournaments.rules import timecalls


class TimeCallRefused(errors.DomainError):
    message = gettext_lazy("The clock cannot be called: %(reason)s")


def _refusal(reason: timecalls.Refusal | None, rules: timecalls.TimeCallRules) -> str:
    if reason is timecalls.Refusal.REQUESTED_TOO_EARLY:
        return _("the player has %(seconds)s s to act before the clock can be called") % {
            "seconds": rules.min_seconds_before_request
        }
    if reason is timecalls.Refusal.NOT_APPROVED:
        return _("a player's request needs the floor's approval")
    return _("the caller must be at his own seat, at that table")


def ruling_label(ruling: str) -> str:
    """The ruling in the user's language."""
    return str(TimeCall.Ruling(ruling).label) if ruling in TimeCall.Ruling.values else ruling


def _payload(call: TimeCall) -> dict[str, Any]:
    return {
        "type": "timecall",
        "id": call.pk,
        "table": call.table_number,
        "seat": call.seat_number,
        "outcome": call.outcome,
        "called_at": call.called_at.isoformat(),
        "expires_at": call.expires_at.isoformat(),
        "countdown": call.countdown_seconds,
        "ruling": call.ruling,
    }


def _publish(call: TimeCall) -> None:
    realtime.broadcast(call.tournament_id, _payload(call), tables=(call.table_number,))


def _schedule_expiry(call: TimeCall) -> None:
    """Queue the expiry for the moment the time runs out, when a broker can hold it.

    Without a broker (CELERY_TASK_ALWAYS_EAGER) a task cannot wait: the tablet asks for
    the expiry when its countdown ends, and the console's next read catches up.
    """
    scheduling.after_commit(scheduling.EXPIRE_TIME_CALL, (call.pk,), eta=call.expires_at)


def _data(call: TimeCall, **extra: Any) -> dict[str, Any]:
    return {
        "call": call.pk,
        "table": call.table_number,
        "seat": call.seat_number,
        "name": call.player_name,
        **extra,
    }


@transaction.atomic
def timecall_start(
    *,
    tournament: Tournament,
    actor,
    now: datetime,
    table_number: int,
    seat_number: int,
    facing_bet: bool,
    seconds_used: int = 0,
) -> TimeCall:
    """Call the clock on the player in `seat_number` at `table_number` (floor or TD).

    `seconds_used` is how long the player has already had (figp and codice003 allow a
    call only after 30 s). Refused, with nothing changed, when the rules refuse, the seat
    is empty or a call is already running at that table.
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    table = Table.objects.filter(tournament=tournament, number=table_number).first()
    if table is None:
        raise errors.DomainError(_("There is no table %(table)s.") % {"table": table_number})
    seat = (
        Seat.objects.select_related("entry__player")
        .filter(table=table, number=seat_number, entry__status=Entry.Status.ACTIVE)
        .first()
    )
    if seat is None:
        raise errors.DomainError(
            _("Table %(table)s, seat %(seat)s is empty.")
            % {"table": table_number, "seat": seat_number}
        )
    if TimeCall.objects.filter(
        tournament=tournament, table_number=table_number, outcome=TimeCall.Outcome.RUNNING
    ).exists():
        raise errors.DomainError(
            _("The clock is already running at table %(table)s.") % {"table": table_number}
        )
    rules = timecalls.profile_rules(tournament.time_call_profile)
    decision = timecalls.call_time(
        rules=rules,
        caller=timecalls.Caller(role=timecalls.Role.FLOOR),
        facing_bet=facing_bet,
        seconds_already_used=max(seconds_used, 0),
    )
    if not decision.accepted or decision.on_expiry is None:
        raise TimeCallRefused(reason=_refusal(decision.reason, rules))
    from_tablet = actor is None or not actor.is_authenticated
    try:
        with transaction.atomic():
            call = TimeCall.objects.create(
                tournament=tournament,
                table_number=table_number,
                seat_number=seat_number,
                entry=seat.entry,
                player_name=str(seat.entry.player),
                called_by=None if from_tablet else actor,
                from_tablet=from_tablet,
                called_at=now,
                profile=rules.profile,
                grant_seconds=decision.total_after_call,
                countdown_seconds=decision.countdown_seconds,
                facing_bet=facing_bet,
                on_expiry=decision.on_expiry,
                rules=", ".join(decision.rules),
            )
    except IntegrityError:  # another call won the race for this table
        raise errors.DomainError(
            _("The clock is already running at table %(table)s.") % {"table": table_number}
        ) from None
    event_log(
        tournament=tournament,
        actor=actor,
        action="timecall.start",
        data=_data(
            call,
            seconds=call.grant_seconds,
            facing_bet=facing_bet,
            tablet=from_tablet,
            rules=call.rules,
        ),
        now=now,
    )
    _publish(call)
    _schedule_expiry(call)
    return call


def _running(tournament: Tournament, call_id: int, table_number: int | None) -> TimeCall:
    calls = TimeCall.objects.select_for_update().filter(pk=call_id, tournament=tournament)
    if table_number is not None:
        calls = calls.filter(table_number=table_number)
    call = calls.first()
    if call is None:
        raise errors.DomainError(_("There is no such time call."))
    return call


def _end(call: TimeCall, outcome: str, now: datetime, ruling: str = "") -> None:
    call.outcome = outcome
    call.ruling = ruling
    call.ended_at = now
    call.save(update_fields=["outcome", "ruling", "ended_at"])


@transaction.atomic
def timecall_acted(
    *, tournament: Tournament, actor, now: datetime, call_id: int, table_number: int | None = None
) -> TimeCall:
    """The player acted within his time: the clock stops with no ruling."""
    call = _running(tournament, call_id, table_number)
    if call.outcome != TimeCall.Outcome.RUNNING:
        raise errors.DomainError(_("This time call is already over."))
    if now >= call.expires_at:
        raise errors.DomainError(
            _("The time has run out: %(ruling)s.") % {"ruling": ruling_label(call.on_expiry)}
        )
    _end(call, TimeCall.Outcome.ACTED, now)
    event_log(
        tournament=tournament,
        actor=actor,
        action="timecall.acted",
        data=_data(call, seconds_left=round((call.expires_at - now).total_seconds(), 1)),
        now=now,
    )
    _publish(call)
    return call


@transaction.atomic
def timecall_cancel(
    *, tournament: Tournament, actor, now: datetime, call_id: int, table_number: int | None = None
) -> TimeCall:
    """The floor takes the call back (wrong seat, the hand ended): no ruling."""
    call = _running(tournament, call_id, table_number)
    if call.outcome != TimeCall.Outcome.RUNNING:
        raise errors.DomainError(_("This time call is already over."))
    _end(call, TimeCall.Outcome.CANCELLED, now)
    event_log(
        tournament=tournament,
        actor=actor,
        action="timecall.cancel",
        data=_data(call),
        now=now,
        undoable=False,
    )
    _publish(call)
    return call


@transaction.atomic
def timecall_expire(
    *,
    tournament: Tournament,
    actor,
    now: datetime,
    call_id: int,
    table_number: int | None = None,
) -> TimeCall:
    """Record the ruling of a call whose time has run out.

    Idempotent: a call already over, or whose time has not run out yet by the server's
    clock, is returned unchanged (the tablet and the task may both ask, early or late).
    """
    call = _running(tournament, call_id, table_number)
    if call.outcome != TimeCall.Outcome.RUNNING or now < call.expires_at:
        return call
    _end(call, TimeCall.Outcome.EXPIRED, call.expires_at, ruling=call.on_expiry)
    event_log(
        tournament=tournament,
        actor=actor,
        action="timecall.expire",
        data=_data(call, ruling=call.ruling, facing_bet=call.facing_bet, rules=call.rules),
        now=call.expires_at,
    )
    _publish(call)
    return call


def timecall_catch_up(*, tournament: Tournament, now: datetime) -> int:
    """Expire every call of the event whose time has run out; return how many."""
    due = [
        call.pk
        for call in TimeCall.objects.filter(tournament=tournament, outcome=TimeCall.Outcome.RUNNING)
        if now >= call.expires_at
    ]
    for pk in due:
        timecall_expire(tournament=tournament, actor=None, now=now, call_id=pk)
    return len(due)


def running_calls(tournament: Tournament, *, table_number: int | None = None) -> list[TimeCall]:
    calls = TimeCall.objects.filter(tournament=tournament, outcome=TimeCall.Outcome.RUNNING)
    if table_number is not None:
        calls = calls.filter(table_number=table_number)
    return list(calls.order_by("table_number"))


def console_calls(
    tournament: Tournament, *, limit: int = 5
) -> tuple[list[TimeCall], list[TimeCall]]:
    """The running calls and the last `limit` that ended, newest first, in one query."""
    ended = (
        TimeCall.objects.filter(tournament=tournament)
        .exclude(outcome=TimeCall.Outcome.RUNNING)
        .order_by("-ended_at", "-pk")
        .values("pk")[:limit]
    )
    calls = list(
        TimeCall.objects.filter(tournament=tournament).filter(
            Q(outcome=TimeCall.Outcome.RUNNING) | Q(pk__in=Subquery(ended))
        )
    )
    running = sorted(
        (c for c in calls if c.outcome == TimeCall.Outcome.RUNNING), key=lambda c: c.table_number
    )
    finished = sorted(
        (c for c in calls if c.outcome != TimeCall.Outcome.RUNNING),
        key=lambda c: (c.ended_at, c.pk),
        reverse=True,
    )
    return running, finished


def recent_calls(
    tournament: Tournament, *, table_number: int | None = None, limit: int = 5
) -> list[TimeCall]:
    """The last calls that ended (with their ruling), newest first."""
    calls = TimeCall.objects.filter(tournament=tournament).exclude(outcome=TimeCall.Outcome.RUNNING)
    if table_number is not None:
        calls = calls.filter(table_number=table_number)
    return list(calls.order_by("-ended_at", "-pk")[:limit])


# --- Undo ---------------------------------------------------------------------------------


def _call_for_undo(event: Event) -> TimeCall:
    call = scoped(TimeCall, event).select_for_update().filter(pk=logged_id(event, "call")).first()
    if call is None:
        raise errors.CannotUndo(reason=_("the time call is gone"))
    return call


@undoes("timecall.start", cascades=True)  # the call goes, with what followed it
def _undo_start(event: Event, actor, now: datetime) -> None:
    """As if the clock had never been called: the call and any ruling it led to go."""
    call = _call_for_undo(event)
    call.delete()
    realtime.broadcast(
        event.tournament_id,
        {"type": "timecall", "id": event.data["call"], "table": event.data["table"]},
        tables=(event.data["table"],),
    )


@undoes("timecall.acted")
def _undo_acted(event: Event, actor, now: datetime) -> None:
    """Acted was pressed by mistake: the clock runs on (and expires if its time is up)."""
    call = _call_for_undo(event)
    if call.outcome != TimeCall.Outcome.ACTED:
        raise errors.CannotUndo(reason=_("the time call has changed since"))
    if TimeCall.objects.filter(
        tournament_id=call.tournament_id,
        table_number=call.table_number,
        outcome=TimeCall.Outcome.RUNNING,
    ).exists():
        raise errors.CannotUndo(reason=_("another time call is running at that table"))
    call.outcome = TimeCall.Outcome.RUNNING
    call.ended_at = None
    call.save(update_fields=["outcome", "ended_at"])
    _publish(call)
    _schedule_expiry(call)


@undoes("timecall.expire")
def _undo_expire(event: Event, actor, now: datetime) -> None:
    """The ruling is withdrawn: the call ends with no ruling (its time stays run out)."""
    call = _call_for_undo(event)
    if call.outcome != TimeCall.Outcome.EXPIRED:
        raise errors.CannotUndo(reason=_("the time call has changed since"))
    _end(call, TimeCall.Outcome.CANCELLED, now)
    _publish(call)
