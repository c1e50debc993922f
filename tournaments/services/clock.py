"""Writes to the clock: start (now or at a time), pause, resume, adjust, move between
levels, and the one change every clock write goes through (tournament.md §11).

Each operation locks the tournament row, asks the pure clock (`tournaments.rules.clock`) for
the new state, stores it, logs an event carrying the state before (undo restores it with
a new version) and broadcasts the clock after commit. `_change` reads the clock once and
returns one `ClockChange` the push and the console render from; `_floor_change` does the
same for hand-for-hand (`handforhand`) and the end-of-day countdown (`endofday`), whose
undos restore the same snapshot. Level boundaries are announced in `level_announcements`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments import errors, realtime, selectors
from tournaments.events import event_log, logged_fields, undoes
from tournaments.models import Event, Table, Tournament
from tournaments.rules import clock
from tournaments.selectors import tables as room_reads
from tournaments.services import holds, locks
from tournaments.services import moves as room
from tournaments.services.level_announcements import _catch_up_locked, _schedule_announcement

# The stored fields an undo restores (the clock, hand-for-hand and end of day).
SNAPSHOT_FIELDS = (
    "clock_status",
    "clock_index",
    "clock_started_at",
    "clock_elapsed",
    "clock_scheduled_start",
    "h4h_active",
    "h4h_hands",
    "h4h_tables_done",
    "eod_card",
    "eod_remaining",
)
_DATETIMES = {"clock_started_at", "clock_scheduled_start"}


class ClockRefused(errors.DomainError):
    message = gettext_lazy("The clock cannot do that now: %(reason)s")


class NoStructure(errors.DomainError):
    message = gettext_lazy("The tournament has no structure to run: add levels first.")


def _refusal(exc: Exception) -> errors.DomainError:
    """Say in the user's language why the pure clock refused."""
    reasons = {
        clock.ClockAlreadyRunning: _("the clock has already started"),
        clock.ClockNotRunning: _("the clock is not running"),
        clock.ClockNotStarted: _("the clock has not started yet"),
        clock.ClockFinished: _("the structure has run out"),
    }
    for kind, reason in reasons.items():
        if isinstance(exc, kind):
            return ClockRefused(reason=reason)
    return ClockRefused(reason=_("there is no such level"))


def _structure(tournament: Tournament) -> list[clock.Item]:
    structure = selectors.clock_structure(tournament)
    try:
        clock.validate_structure(structure)
    except ValueError:
        raise NoStructure from None
    return structure


def _snapshot(tournament: Tournament) -> dict[str, Any]:
    data = {}
    for name in SNAPSHOT_FIELDS:
        value = getattr(tournament, name)
        data[name] = value.isoformat() if isinstance(value, datetime) else value
    return data


def _store(tournament: Tournament, state: clock.ClockState) -> None:
    """Write a pure clock state to the row (inside the caller's transaction)."""
    tournament.clock_status = str(state.status)
    tournament.clock_index = state.index
    tournament.clock_started_at = state.started_at
    tournament.clock_elapsed = state.banked.total_seconds()
    tournament.clock_scheduled_start = state.scheduled_start
    tournament.clock_version = state.version
    if state.status is clock.ClockStatus.RUNNING and tournament.status == "planned":
        tournament.status = Tournament.Status.RUNNING
    # The clock's own columns, not all 85: the rest of the row is not this write's.
    tournament.save(update_fields=CLOCK_FIELDS)


CLOCK_FIELDS = (
    "clock_status",
    "clock_index",
    "clock_started_at",
    "clock_elapsed",
    "clock_scheduled_start",
    "clock_version",
    "status",
)


@dataclasses.dataclass(frozen=True)
class ClockChange:
    """What a clock change leaves, read once: the row as written, the clock read from the
    state just stored, and the payload the screens were sent (with the structure's items,
    which the push leaves out). The console renders from it."""

    tournament: Tournament
    read: selectors.ClockRead
    payload: dict[str, Any]


def _publish(
    tournament: Tournament,
    now: datetime,
    *,
    read: selectors.ClockRead | None = None,
    notice: str | None = None,
) -> ClockChange:
    """Broadcast the clock after commit and schedule the next boundary's announcement.
    `notice`: what the screens announce with this change (a banner), once."""
    if read is None:
        read = selectors.clock_read(tournament, now)
    payload = selectors.clock_payload(tournament, now, read=read)
    # A clock change leaves the structure as it was: the screens keep the levels they hold.
    push = {key: value for key, value in payload.items() if key != "items"}
    if notice:
        push["notice"] = notice
    realtime.broadcast(tournament.pk, push, row=tournament)
    _schedule_announcement(tournament, now, read=read)
    return ClockChange(tournament=tournament, read=read, payload=payload)


def _change(
    *,
    tournament: Tournament,
    actor,
    now: datetime,
    action: str,
    operation: Callable[
        [list[clock.Item], clock.ClockState], clock.ClockState | tuple[str, clock.ClockState]
    ],
    data: dict[str, Any] | None = None,
) -> ClockChange:
    """Lock, read the clock once, apply `operation` to it, store, log, publish. An
    operation that decides which action it is (the space bar's toggle) returns the action
    with the new state."""
    locked = locks.tournament_for_update(tournament)
    structure = _structure(locked)
    state = selectors.clock_state(locked)
    # A boundary passed with nobody to announce it (no broker) is logged before the change.
    _catch_up_locked(locked, structure, state, now)
    before = _snapshot(locked)
    try:
        result = operation(structure, state)
    except (clock.ClockError, ValueError) as exc:
        raise _refusal(exc) from None
    if isinstance(result, tuple):
        action, state = result
    else:
        state = result
    _store(locked, state)
    event_log(
        tournament=locked,
        actor=actor,
        action=action,
        data={**(data or {}), "before": before, "version": state.version},
        now=now,
    )
    read = selectors.clock_read(locked, now, structure=structure, state=state)
    if read.view is not None:  # a jump past the hold level releases the seats held
        holds.release_due(tournament=locked, level=read.view.level_number, now=now)
    return _publish(locked, now, read=read)


# --- Clock operations ------------------------------------------------------------------


@transaction.atomic
def clock_start(
    *, tournament: Tournament, actor, now: datetime, at: datetime | None = None
) -> ClockChange:
    """Start the clock now, or at `at` (the screens count down to the start).

    The first start evens out the draw first (§6.1): no table starts short."""

    if (
        room_reads.before_start(tournament)
        and tournament.tables.filter(seats__isnull=False).exists()
    ):
        room.seats_even_out(tournament=tournament, actor=actor, now=now)
    return _change(
        tournament=tournament,
        actor=actor,
        now=now,
        action="clock.start",
        operation=lambda s, st: clock.start(s, st, now=now, at=at),
        data={"at": at.isoformat() if at else None},
    )


def parse_start_time(value: str, *, now: datetime) -> datetime | None:
    """Read the console's "HH:MM" start time as the next such moment in local time."""

    value = value.strip()
    if not value:
        return None
    try:
        hours, minutes = (int(part) for part in value.split(":"))
        local_now = timezone.localtime(now)
        at = local_now.replace(hour=hours, minute=minutes, second=0, microsecond=0)
    except ValueError:
        raise ClockRefused(reason=_("write the start time as HH:MM")) from None
    if at <= local_now:
        at += timedelta(days=1)
    return at


@transaction.atomic
def clock_republish(*, tournament: Tournament, now: datetime) -> None:
    """Tell the screens the clock anew after the tournament finished (its winner is
    decided: the clock says finished) or runs again (that bust undone). A new version, so
    a boundary's announcement scheduled before does nothing."""
    locked = locks.tournament_for_update(tournament)
    if locked.clock_status == clock.ClockStatus.RUNNING and locked.clock_started_at is None:
        return  # no start to count from (a row written by hand): nothing for the screens
    locked.clock_version += 1
    locked.save(update_fields=["clock_version"])
    _publish(locked, now)


@transaction.atomic
def clock_pause(*, tournament: Tournament, actor, now: datetime) -> ClockChange:
    """Stop the running clock, banking the time played in the level."""
    return _change(
        tournament=tournament,
        actor=actor,
        now=now,
        action="clock.pause",
        operation=lambda s, st: clock.pause(s, st, now=now),
    )


@transaction.atomic
def clock_resume(*, tournament: Tournament, actor, now: datetime) -> ClockChange:
    """Restart a paused clock where it stopped."""
    return _change(
        tournament=tournament,
        actor=actor,
        now=now,
        action="clock.resume",
        operation=lambda s, st: clock.resume(s, st, now=now),
    )


@transaction.atomic
def clock_toggle(*, tournament: Tournament, actor, now: datetime) -> ClockChange:
    """Pause a running clock or resume a paused one (the console's space bar)."""

    def toggled(
        structure: list[clock.Item], state: clock.ClockState
    ) -> tuple[str, clock.ClockState]:
        if clock.clock_view(structure, state, now).status is clock.ClockStatus.RUNNING:
            return "clock.pause", clock.pause(structure, state, now=now)
        return "clock.resume", clock.resume(structure, state, now=now)

    return _change(tournament=tournament, actor=actor, now=now, action="", operation=toggled)


MAX_ADJUST_SECONDS = 4 * 3600


@transaction.atomic
def clock_adjust(*, tournament: Tournament, actor, seconds: int, now: datetime) -> ClockChange:
    """Add `seconds` to the time left in the level (negative takes time off)."""
    if not seconds or abs(seconds) > MAX_ADJUST_SECONDS:
        raise ClockRefused(reason=_("give a number of seconds to add or take off"))
    return _change(
        tournament=tournament,
        actor=actor,
        now=now,
        action="clock.adjust",
        operation=lambda s, st: clock.adjust(s, st, now=now, seconds=seconds),
        data={"seconds": seconds},
    )


@transaction.atomic
def clock_next_level(*, tournament: Tournament, actor, now: datetime) -> ClockChange:
    """Move to the start of the next level or break."""
    return _change(
        tournament=tournament,
        actor=actor,
        now=now,
        action="clock.next",
        operation=lambda s, st: clock.next_level(s, st, now=now),
    )


@transaction.atomic
def clock_previous_level(*, tournament: Tournament, actor, now: datetime) -> ClockChange:
    """Move back to the start of the previous level or break."""
    return _change(
        tournament=tournament,
        actor=actor,
        now=now,
        action="clock.previous",
        operation=lambda s, st: clock.previous_level(s, st, now=now),
    )


@transaction.atomic
def clock_jump(*, tournament: Tournament, actor, index: int, now: datetime) -> ClockChange:
    """Put the clock at the start of structure item `index` (0-based), running or paused."""
    return _change(
        tournament=tournament,
        actor=actor,
        now=now,
        action="clock.jump",
        operation=lambda s, st: clock.jump_to(s, st, now=now, index=index),
        data={"index": index},
    )


def _restore(event: Event, actor, now: datetime) -> None:
    """Put back the stored state from before the action, with a new version."""
    tournament = Tournament.objects.select_for_update().get(pk=event.tournament_id)
    for name, value in logged_fields(event, "before", SNAPSHOT_FIELDS).items():
        if name in _DATETIMES and value is not None:
            value = parse_datetime(value)
        setattr(tournament, name, value)
    tournament.clock_version += 1
    tournament.save()
    _publish(tournament, now)


CLOCK_ACTIONS = (
    "clock.start",
    "clock.pause",
    "clock.resume",
    "clock.adjust",
    "clock.next",
    "clock.previous",
    "clock.jump",
    "h4h.start",
    "h4h.stop",
    "h4h.table_done",
    "h4h.next_hand",
    "eod.start",
    "eod.hand",
    "eod.stop",
)
for _action in CLOCK_ACTIONS:
    undoes(_action)(_restore)


# --- Hand-for-hand and end of day: the floor's changes to the clock ---------------------


def _tables_in_play(tournament: Tournament) -> list[int]:
    return list(
        Table.objects.filter(tournament=tournament, status=Table.Status.OPEN)
        .order_by("number")
        .values_list("number", flat=True)
    )


def _pause_if_running(structure, tournament: Tournament, now: datetime) -> clock.ClockState:
    state = selectors.clock_state(tournament)
    view = clock.clock_view(structure, state, now)
    if view.status is clock.ClockStatus.RUNNING:
        return clock.pause(structure, state, now=now)
    if view.status is not clock.ClockStatus.PAUSED:
        raise ClockRefused(reason=_("the clock has not started yet"))
    return state


def _floor_change(
    *,
    tournament: Tournament,
    actor,
    now: datetime,
    action: str,
    apply: Callable[[Tournament, list[clock.Item]], dict[str, Any] | None],
) -> ClockChange:
    locked = locks.tournament_for_update(tournament)
    structure = _structure(locked)
    # A boundary passed with nobody to announce it (no broker) is logged before the change.
    _catch_up_locked(locked, structure, selectors.clock_state(locked), now)
    before = _snapshot(locked)
    data = apply(locked, structure) or {}
    locked.clock_version += 1
    locked.save()
    event_log(
        tournament=locked,
        actor=actor,
        action=action,
        data={**data, "before": before, "version": locked.clock_version},
        now=now,
    )
    read = selectors.clock_read(locked, now, structure=structure)
    return _publish(
        locked, now, read=read, notice=BUBBLE_BURST if data.get("bubble_burst") else None
    )


# The notice a clock push carries when the bubble bursts in hand-for-hand.
BUBBLE_BURST = "bubble_burst"
