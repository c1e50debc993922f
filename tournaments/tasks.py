"""Celery tasks: thin shells around services (STYLE.md 9). They take primary keys."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from config import scheduling
from tournaments.models import TimeCall
from tournaments.services.level_announcements import clock_announce, clock_sweep
from tournaments.services.timecalls import timecall_expire


@shared_task(name=scheduling.ANNOUNCE_BOUNDARY, ignore_result=True)
def announce_boundary(tournament_id: int, version: int, index: int) -> bool:
    """Announce the level boundary scheduled for clock `version`; a stale one does nothing."""
    return clock_announce(
        tournament_id=tournament_id, version=version, index=index, now=timezone.now()
    )


@shared_task(name=scheduling.SWEEP_CLOCKS, ignore_result=True)
def sweep_clocks() -> int:
    """Beat, every CLOCK_SWEEP_SECONDS: queue each running clock's coming boundary again."""
    return clock_sweep(now=timezone.now())


@shared_task(name=scheduling.EXPIRE_TIME_CALL, ignore_result=True)
def expire_time_call(call_id: int) -> bool:
    """Record the ruling of a time call whose time ran out; a call already over, or gone,
    is left alone (the tablet may have asked first). Returns whether it stands expired."""
    call = TimeCall.objects.select_related("tournament").filter(pk=call_id).first()
    if call is None:
        return False
    ended = timecall_expire(
        tournament=call.tournament, actor=None, now=timezone.now(), call_id=call_id
    )
    return ended.outcome == TimeCall.Outcome.EXPIRED
