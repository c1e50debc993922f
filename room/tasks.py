"""Celery tasks of the room: thin shells around services, taking primary keys."""

from __future__ import annotations

from celery import shared_task

from room.services import notify


@shared_task(name="room.tasks.notify_logged", ignore_result=True)
def notify_logged(log_name: str, pk: int) -> int:
    """Tell the players concerned what a committed log row says; returns the pushes sent."""
    return notify.logged_action_notify(log_name=log_name, pk=pk).pushes
