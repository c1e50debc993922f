"""The one place that queues Celery work after commit.

Services say what should run later and when (`after_commit(task, args, eta=...)`); this
module decides whether it can wait (a broker is configured) and queues it once the
transaction commits. Tasks are named, not imported, so services never import
`tournaments.tasks` (which imports the services it wraps): no import circle.

Without a broker (CELERY_TASK_ALWAYS_EAGER, the embedded default) nothing can wait for
later: the screens compute level changes themselves and the next read catches up. A broker
that is down is logged; the action is committed and beat's sweep queues the work again.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)

ANNOUNCE_BOUNDARY = "tournaments.tasks.announce_boundary"
SWEEP_CLOCKS = "tournaments.tasks.sweep_clocks"
EXPIRE_TIME_CALL = "tournaments.tasks.expire_time_call"


def can_wait() -> bool:
    """Whether a task can be queued for later (a broker holds it)."""
    return not getattr(settings, "CELERY_TASK_ALWAYS_EAGER", True)


def after_commit(task: str, args: tuple, *, eta: datetime | None = None) -> None:
    """Queue `task` with `args` for `eta` once the current transaction commits; nothing
    when no broker can hold it."""
    if not can_wait():
        return
    transaction.on_commit(lambda: send(task, args, eta=eta))


def send(task: str, args: tuple, *, eta: datetime | None = None) -> None:
    """Queue `task` now; a broker that is down is logged (the sweep queues it again)."""
    # The configured app, imported on the first send: a web process that never queues
    # anything (the embedded default) never loads Celery, and a server restarted under a
    # room of screens does not wait for it before it listens (config/__init__.py).
    from config.celery import app

    try:
        app.send_task(task, args=args, eta=eta)
    except Exception:  # noqa: BLE001 - the action is committed; beat's sweep retries
        logger.warning("could not queue %s%r for %s", task, args, eta, exc_info=True)
