"""Writes to the clock: start, pause, adjust, levels, announcements, hand-for-hand and the
end-of-day countdown (tournament.md §11, §14, §17, §20).

Each operation locks the tournament row, asks the pure clock (`tournaments.rules.clock`) for
the new state, stores it, logs an event carrying the state before (undo restores it with
a new version) and broadcasts the clock after commit. A Celery task announces each level
boundary; it claims the boundary with a conditional UPDATE on the version it was
scheduled for, so a clock that moved since, or a second run, does nothing. A task that
runs more than CLOCK_ANNOUNCE_GRACE_SECONDS after its boundary (the worker was down) is
stale and skipped: the screens changed level on their own count. Beat's sweep
(`clock_sweep`) schedules every running clock's next boundary again, because a task
waiting in Redis is lost when Redis restarts.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config import scheduling
from tables.models import Table
from tables.selectors import room as room_reads
from tables.services import room
from tournaments import errors, realtime, selectors
from tournaments.events import event_log, logged_fields, undoes
from tournaments.models import Event, Tournament
from tournaments.rules import clock, endofday, handforhand
from tournaments.services import holds, locks

logger = logging.getLogger(__name__)

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


def _schedule_announcement(
    tournament: Tournament, now: datetime, *, read: selectors.ClockRead | None = None
) -> None:
    """Enqueue the task for the next level boundary, when a broker can hold it.

    Without a broker (CELERY_TASK_ALWAYS_EAGER) a task cannot wait for later: the screens
    compute the boundary themselves and the next clock read logs it (`clock_catch_up`).
    """
    if not scheduling.can_wait():
        return
    coming = _next_announcement(tournament, now, read=read)
    if coming is None:
        return
    index, boundary = coming
    scheduling.after_commit(
        scheduling.ANNOUNCE_BOUNDARY, (tournament.pk, tournament.clock_version, index), eta=boundary
    )


def _next_announcement(
    tournament: Tournament, now: datetime, *, read: selectors.ClockRead | None = None
) -> tuple[int, datetime] | None:
    """The structure item that begins next and when, for a clock that moves by itself."""
    if tournament.status == Tournament.Status.FINISHED:
        return None  # the winner is decided: no level begins
    if read is None:
        read = selectors.clock_read(tournament, now)
    structure, state, view = read.structure, read.state, read.view
    if view is None:
        return None
    try:
        boundary = clock.next_boundary(structure, state, now)
    except (clock.ClockError, ValueError, IndexError):
        return None
    if boundary is None:
        return None
    index = state.index if view.status is clock.ClockStatus.SCHEDULED else view.index + 1
    if index >= len(structure):
        return None  # the last item ends the structure: no level begins
    return index, boundary


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


def _catch_up_locked(
    tournament: Tournament, structure: list[clock.Item], state: clock.ClockState, now: datetime
) -> None:
    """`clock_catch_up` for a row already locked and read: a query only when a boundary
    really went unannounced."""
    try:
        view = clock.clock_view(structure, state, now)
    except (clock.ClockError, ValueError, IndexError):
        return
    if view.status is not clock.ClockStatus.RUNNING:
        return
    started_by_schedule = tournament.clock_status == clock.ClockStatus.SCHEDULED
    if view.index <= tournament.clock_index and not started_by_schedule:
        return
    clock_announce(
        tournament_id=tournament.pk,
        version=tournament.clock_version,
        index=view.index,
        now=now,
        catch_up=True,
    )
    tournament.refresh_from_db(fields=["clock_announced_version", "clock_announced_index"])


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


# --- Announcements -----------------------------------------------------------------------


def announce_grace() -> timedelta:
    return timedelta(seconds=getattr(settings, "CLOCK_ANNOUNCE_GRACE_SECONDS", 15))


def clock_announce(
    *, tournament_id: int, version: int, index: int, now: datetime, catch_up: bool = False
) -> bool:
    """Announce that structure item `index` has begun; return whether this call did it.

    The boundary is claimed exactly once with a conditional UPDATE on the clock version it
    was scheduled for (STYLE.md 8): if the TD moved the clock since, or another worker (or
    an earlier read) already announced it, nothing happens. The announcement is the level
    change of TDA-23 / FIGP §54: an event-log row and a banner with sound on every screen.

    More than the grace period after the boundary, a task's announcement is stale and
    skipped (logged). A clock read (`catch_up`) still writes the row, without the banner.
    """
    with transaction.atomic():
        tournament = Tournament.objects.filter(pk=tournament_id, clock_version=version).first()
        if tournament is None:
            logger.info(
                "announcement of item %s skipped as stale: tournament %s left clock version %s",
                index,
                tournament_id,
                version,
            )
            return False
        read = selectors.clock_read(tournament, now)
        view = read.view
        if view is None or view.status is not clock.ClockStatus.RUNNING or view.index < index:
            return False  # too early, or the clock stopped: the boundary is not here
        late = view.index > index or view.elapsed > announce_grace()
        if late and not catch_up:
            logger.warning(
                "announcement of item %s skipped as stale: tournament %s passed it %ss ago",
                index,
                tournament_id,
                int(view.elapsed.total_seconds()),
            )
            return False
        claimed = (
            Tournament.objects.filter(pk=tournament_id, clock_version=version)
            .filter(
                Q(clock_announced_version__lt=version)
                | Q(clock_announced_version=version, clock_announced_index__lt=index)
            )
            .update(clock_announced_version=version, clock_announced_index=index)
        )
        if not claimed:
            return False
        item = view.item
        event_log(
            tournament=tournament,
            actor=None,
            action="clock.level",
            data={
                "index": index,
                "version": version,
                "is_break": isinstance(item, clock.Break),
                "level": view.level_number,
            },
            now=now,
            undoable=False,
        )
        # The level change releases the reserved seats still held once their level begins.
        holds.release_due(tournament=tournament, level=view.level_number, now=now)
        payload = selectors.clock_payload(tournament, now, read=read, with_items=False)
        if not late:
            payload["announce"] = {"index": index, "is_break": isinstance(item, clock.Break)}
        realtime.broadcast(tournament.pk, payload)
        _schedule_announcement(tournament, now, read=read)
    return True


def clock_catch_up(*, tournament: Tournament, now: datetime) -> bool:
    """Log a boundary the running clock has passed but nobody announced (no broker).

    Called on a clock read (the console, a screen page). The screens have already shown
    the change themselves; this writes the event-log row once.
    """
    view = selectors.clock_view_for(tournament, now)
    if view is None or view.status is not clock.ClockStatus.RUNNING:
        return False
    started_by_schedule = tournament.clock_status == clock.ClockStatus.SCHEDULED
    if view.index <= tournament.clock_index and not started_by_schedule:
        return False
    return clock_announce(
        tournament_id=tournament.pk,
        version=tournament.clock_version,
        index=view.index,
        now=now,
        catch_up=True,
    )


def clock_sweep(*, now: datetime) -> int:
    """Beat's periodic job: make sure every running clock's boundaries get announced.

    Redis keeps nothing on disk: an announcement waiting in it is lost when it restarts.
    Every CLOCK_SWEEP_SECONDS this announces a boundary passed within the grace period
    that nobody claimed, and queues the next boundary again when it comes before the next
    sweep has a margin (a second task for the same boundary finds it claimed). Returns how
    many tasks it queued or announcements it made.
    """
    horizon = timedelta(seconds=2 * getattr(settings, "CLOCK_SWEEP_SECONDS", 30))
    done = 0
    moving = (clock.ClockStatus.RUNNING, clock.ClockStatus.SCHEDULED)
    for tournament in Tournament.objects.filter(clock_status__in=moving):
        view = selectors.clock_view_for(tournament, now)
        if view is None:
            continue
        unclaimed = (tournament.clock_announced_version, tournament.clock_announced_index) < (
            tournament.clock_version,
            view.index,
        )
        moved_by_itself = view.index > tournament.clock_index or (
            tournament.clock_status == clock.ClockStatus.SCHEDULED
        )
        if (
            view.status is clock.ClockStatus.RUNNING
            and unclaimed
            and moved_by_itself
            and view.elapsed <= announce_grace()
        ):
            done += clock_announce(
                tournament_id=tournament.pk,
                version=tournament.clock_version,
                index=view.index,
                now=now,
            )
            continue
        coming = _next_announcement(tournament, now)
        if coming is not None and coming[1] - now <= horizon:
            scheduling.send(
                scheduling.ANNOUNCE_BOUNDARY,
                (tournament.pk, tournament.clock_version, coming[0]),
                eta=coming[1],
            )
            done += 1
    return done


# --- Hand-for-hand (tournament.md §14) ---------------------------------------------------


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


@transaction.atomic
def h4h_start(*, tournament: Tournament, actor, now: datetime) -> ClockChange:
    """Announce hand-for-hand: the clock stops, and each hand start takes
    `h4h_minutes_per_hand` off it, beginning with the hand in progress (RP-8b)."""

    def apply(locked: Tournament, structure) -> dict[str, Any]:
        if locked.h4h_active:
            raise ClockRefused(reason=_("hand-for-hand is already on"))
        state = _pause_if_running(structure, locked, now)
        _store(locked, state)
        locked.h4h_active, locked.h4h_hands, locked.h4h_tables_done = True, 0, []
        # Started on the bubble, it ends by itself when the bubble bursts; started in the
        # money (a TD's choice), it runs until he stops it.
        return {"in_the_money": _in_the_money(locked)}

    return _floor_change(
        tournament=tournament, actor=actor, now=now, action="h4h.start", apply=apply
    )


@transaction.atomic
def h4h_stop(*, tournament: Tournament, actor, now: datetime) -> ClockChange:
    """End hand-for-hand (everyone left is in the money); the TD restarts the clock."""

    def apply(locked: Tournament, structure) -> dict[str, Any]:
        if not locked.h4h_active:
            raise ClockRefused(reason=_("hand-for-hand is not on"))
        locked.h4h_active, locked.h4h_tables_done = False, []
        return {"hands": locked.h4h_hands}

    return _floor_change(
        tournament=tournament, actor=actor, now=now, action="h4h.stop", apply=apply
    )


def _h4h_over(locked: Tournament, structure, now: datetime) -> dict[str, Any]:
    """The bubble has burst and the hand is over at every table: hand-for-hand ends and
    the clock runs again (§14: it is played only until the field is in the money)."""
    state = selectors.clock_state(locked)
    if clock.clock_view(structure, state, now).status is clock.ClockStatus.PAUSED:
        state = clock.resume(structure, state, now=now)
        _store(locked, state)
    locked.h4h_active, locked.h4h_tables_done = False, []
    return {"hands": locked.h4h_hands, "bubble_burst": True}


def _in_the_money(locked: Tournament) -> bool:
    return selectors.money_reached(locked)


def _bubble_burst(locked: Tournament) -> bool:
    """Whether hand-for-hand was started before the money and the field is in it now."""
    if not _in_the_money(locked):
        return False
    start = (
        Event.objects.filter(tournament=locked, action="h4h.start", undone_at__isnull=True)
        .order_by("-pk")
        .values_list("data", flat=True)
        .first()
    )
    return not (start or {}).get("in_the_money")


@transaction.atomic
def h4h_bubble_burst(
    *, tournament: Tournament, tables: Iterable[int], actor, now: datetime
) -> ClockChange | None:
    """End hand-for-hand by itself once the bubble has burst in a hand played at `tables`
    (their busts were just recorded, so that hand is over there), unless another table is
    still playing it: players out in that hand there share it (§14.2), and the last
    table's "hand done" ends hand-for-hand instead (`_h4h_deal`). None when it stays on."""
    locked = locks.tournament_for_update(tournament)
    if not locked.h4h_active or not _bubble_burst(locked):
        return None
    others = set(_tables_in_play(locked)) - set(locked.h4h_tables_done) - set(tables)
    # A table with one player left plays no hand.
    if (
        Table.objects.filter(tournament=locked, number__in=others)
        .annotate(players=Count("seats"))
        .filter(players__gt=1)
        .exists()
    ):
        return None

    def apply(locked: Tournament, structure) -> dict[str, Any]:
        return _h4h_over(locked, structure, now)

    return _floor_change(tournament=locked, actor=actor, now=now, action="h4h.stop", apply=apply)


def _h4h_deal(locked: Tournament, structure, now: datetime) -> dict[str, Any]:
    """Signal the next hand: charge the hand just played, clear the done marks; or, when
    the bubble burst in the hand just played, end hand-for-hand instead."""
    if _bubble_burst(locked):
        return _h4h_over(locked, structure, now)
    state = _pause_if_running(structure, locked, now)
    try:
        state, start = handforhand.hand_for_hand_hand_start(structure, state, now=now)
    except clock.ClockError as exc:
        raise _refusal(exc) from None
    _store(locked, state)
    locked.h4h_hands += 1
    locked.h4h_tables_done = []
    return {"hand": locked.h4h_hands, "blinds_level": start.blinds_level}


@transaction.atomic
def h4h_table_done(
    *, tournament: Tournament, actor, table_number: int, now: datetime
) -> ClockChange:
    """Mark one table's hand-for-hand hand finished; when every table in play is done the
    next hand is signalled at once and the clock takes off one hand's time (§14.3-14.4)."""

    def apply(locked: Tournament, structure) -> dict[str, Any]:
        if not locked.h4h_active:
            raise ClockRefused(reason=_("hand-for-hand is not on"))
        tables = _tables_in_play(locked)
        if table_number not in tables:
            raise errors.DomainError(_("Table %(table)s is not in play."), table=table_number)
        done = sorted(set(locked.h4h_tables_done) | {table_number})
        locked.h4h_tables_done = done
        data: dict[str, Any] = {"table": table_number}
        if handforhand.hand_for_hand_next_hand_ready([t in done for t in tables]):
            data.update(_h4h_deal(locked, structure, now))
        return data

    return _floor_change(
        tournament=tournament, actor=actor, now=now, action="h4h.table_done", apply=apply
    )


@transaction.atomic
def h4h_next_hand(*, tournament: Tournament, actor, now: datetime) -> ClockChange:
    """Signal the next hand-for-hand hand now (the TD overrides a table that has not
    reported); the clock takes off one hand's time."""

    def apply(locked: Tournament, structure) -> dict[str, Any]:
        if not locked.h4h_active:
            raise ClockRefused(reason=_("hand-for-hand is not on"))
        return _h4h_deal(locked, structure, now)

    return _floor_change(
        tournament=tournament, actor=actor, now=now, action="h4h.next_hand", apply=apply
    )


# --- End of day (tournament.md §17, FIGP §59) --------------------------------------------


@transaction.atomic
def eod_start(
    *,
    tournament: Tournament,
    actor,
    card: str,
    last_level_of_day: bool,
    now: datetime,
) -> ClockChange:
    """Stop the clock for the day's final hands: the drawn card (3-7) is the number of
    hands every table still plays. Outside the window, or a card out of range, the whole
    action is refused and the clock keeps running (FIGP §59)."""

    def apply(locked: Tournament, structure) -> dict[str, Any]:
        view = clock.clock_view(structure, selectors.clock_state(locked), now)
        if view.status not in (clock.ClockStatus.RUNNING, clock.ClockStatus.PAUSED):
            raise ClockRefused(reason=_("the clock has not started yet"))
        try:
            decision = endofday.start_countdown(
                multi_day=True,  # the TD runs the day's end only in a multi-day event
                is_last_level_of_day=last_level_of_day and not view.is_break,
                level_remaining=view.time_left,
                drawn_card=card.strip(),
            )
        except ValueError:
            raise ClockRefused(reason=_("that is not a card")) from None
        if not decision.valid:
            raise ClockRefused(reason=_eod_reasons(decision))
        state = _pause_if_running(structure, locked, now)
        _store(locked, state)
        countdown = endofday.begin_countdown(decision, [str(t) for t in _tables_in_play(locked)])
        locked.eod_card = card.strip().upper()
        locked.eod_remaining = dict(countdown.remaining)
        return {"card": locked.eod_card, "hands": decision.hands_to_play}

    return _floor_change(
        tournament=tournament, actor=actor, now=now, action="eod.start", apply=apply
    )


def _eod_reasons(decision: endofday.EndOfDayDecision) -> str:
    texts = {
        endofday.EndOfDayRefusal.NOT_MULTI_DAY: _("this is not a multi-day event"),
        endofday.EndOfDayRefusal.NOT_LAST_LEVEL_OF_DAY: _("this is not the day's last level"),
        endofday.EndOfDayRefusal.STOP_OUTSIDE_WINDOW: _(
            "the clock must show between 5 and 15 minutes"
        ),
        endofday.EndOfDayRefusal.CARD_OUT_OF_RANGE: _("the card must be a 3, 4, 5, 6 or 7"),
    }
    return "; ".join(str(texts[reason]) for reason in decision.reasons)


@transaction.atomic
def eod_hand(*, tournament: Tournament, actor, table_number: int, now: datetime) -> ClockChange:
    """Count one of the final hands started at a table."""

    def apply(locked: Tournament, structure) -> dict[str, Any]:
        if not locked.eod_card:
            raise ClockRefused(reason=_("the final hands have not been drawn"))
        countdown = endofday.EndOfDayCountdown(dict(locked.eod_remaining))
        try:
            countdown = endofday.record_hand_start(countdown, str(table_number))
        except ValueError:
            raise errors.DomainError(
                _("Table %(table)s has no final hands left to deal."), table=table_number
            ) from None
        locked.eod_remaining = dict(countdown.remaining)
        return {"table": table_number, "left": countdown.remaining[str(table_number)]}

    return _floor_change(
        tournament=tournament, actor=actor, now=now, action="eod.hand", apply=apply
    )


@transaction.atomic
def eod_stop(*, tournament: Tournament, actor, now: datetime) -> ClockChange:
    """Clear the final-hands countdown (the day is over, or it was called by mistake)."""

    def apply(locked: Tournament, structure) -> dict[str, Any]:
        if not locked.eod_card:
            raise ClockRefused(reason=_("the final hands have not been drawn"))
        locked.eod_card, locked.eod_remaining = "", {}
        return {}

    return _floor_change(
        tournament=tournament, actor=actor, now=now, action="eod.stop", apply=apply
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
