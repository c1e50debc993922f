"""The level changes the clock makes by itself: each boundary announced once, caught up
on a read, and swept by beat (tournament.md §20).

A Celery task announces each level boundary; it claims the boundary with a conditional
UPDATE on the version it was scheduled for, so a clock that moved since, or a second run,
does nothing. A task that runs more than CLOCK_ANNOUNCE_GRACE_SECONDS after its boundary
(the worker was down) is stale and skipped: the screens changed level on their own count.
Without a broker the next clock read logs the boundary (`clock_catch_up`). Beat's sweep
(`clock_sweep`) schedules every running clock's next boundary again, because a task
waiting in Redis is lost when Redis restarts.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q

from config import scheduling
from tournaments import realtime, selectors
from tournaments.events import event_log
from tournaments.models import Tournament
from tournaments.rules import clock
from tournaments.services import holds

logger = logging.getLogger(__name__)


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
