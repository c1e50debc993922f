"""Celery tasks of the room: thin shells around its services, taking primary keys."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from room.services import cash_lists, dealers, notify


@shared_task(name="room.tasks.push_dealers_when_due", ignore_result=True)
def push_dealers_when_due() -> bool:
    """Beat, every CLOCK_SWEEP_SECONDS: make the dealers' push once its time has come (the
    floor may press it sooner). Whether anything moved."""
    return dealers.push(actor=None, now=timezone.now(), only_if_due=True) is not None


@shared_task(name="room.tasks.notify_logged", ignore_result=True)
def notify_logged(log_name: str, pk: int) -> int:
    """Tell the players concerned what a committed log row says; returns the pushes sent."""
    return notify.logged_action_notify(log_name=log_name, pk=pk).pushes


@shared_task(name="room.tasks.lapse_remote_joins", ignore_result=True)
def lapse_remote_joins() -> int:
    """Beat: the cash room's remote joins whose arrival window passed leave the lists."""
    return cash_lists.lapse_remote(now=timezone.now())
