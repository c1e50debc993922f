"""`/health/`: is this server process able to work? For a balancer, a probe or a person.

Each dependency is tried for real and reported as "ok" or a short error, with no
settings or secrets in it: the database (a query), the channel layer (a message sent to
this process and received back through it) and the Celery broker (a connection). 200
when all are ok, 503 otherwise. Embedded mode has no broker: its line says so.

Anyone may ask, but only staff accounts see the lines, or a probe
that sends the HEALTH_TOKEN setting as X-Health-Token: any other caller is told "ok" or
"error" and nothing about what runs behind. A failure's details always go to the log.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import uuid
from collections.abc import Awaitable, Callable
from urllib.parse import urlparse

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse

from tournaments import permissions

logger = logging.getLogger(__name__)

OK = "ok"
TIMEOUT = 3.0


def _describe(exc: BaseException) -> str:
    """The error's kind and first line, with any configured password taken out."""
    if isinstance(exc, TimeoutError):
        return "error: no answer within %.0f s" % TIMEOUT
    text = (str(exc).splitlines() or [""])[0][:200]
    for secret in _secrets():
        text = text.replace(secret, "***")
    return f"error: {type(exc).__name__}: {text}".rstrip(": ")


def _secrets() -> list[str]:
    found = [settings.SECRET_KEY]
    for url in (getattr(settings, "DATABASE_URL", ""), getattr(settings, "REDIS_URL", "")):
        password = urlparse(url).password if url else None
        if password:
            found.append(password)
    db_password = settings.DATABASES["default"].get("PASSWORD")
    if db_password:
        found.append(db_password)
    return [s for s in found if s]


def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    connection.close()  # the probe runs on a pool thread: leave no connection behind


async def _channel_layer() -> None:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")
    # The default prefix: channels_redis receives every process-local channel through one
    # queue per prefix, and a consumer waiting on "specific." would starve another prefix.
    channel = await layer.new_channel()
    token = uuid.uuid4().hex
    await layer.send(channel, {"type": "health.probe", "token": token})
    while (await layer.receive(channel)).get("token") != token:
        pass


def _broker() -> str:
    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        return "not used: embedded mode runs tasks in-process"
    from config.celery import app  # only here: embedded mode never loads Celery's app

    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=TIMEOUT)
    return OK


async def _check(probe: Callable[[], Awaitable[str | None]]) -> str:
    try:
        result = await asyncio.wait_for(probe(), TIMEOUT)
    except Exception as exc:  # noqa: BLE001 - every failure is a line of the report
        return _describe(exc)
    return result or OK


async def _may_see_details(request: HttpRequest) -> bool:
    token = getattr(settings, "HEALTH_TOKEN", "")
    sent = request.headers.get("X-Health-Token", "")
    if token and sent and hmac.compare_digest(token.encode(), sent.encode()):
        return True
    user = await request.auser()
    # The room's manager runs the room: `is_staff` alone sees no more than anyone.
    return await sync_to_async(permissions.is_manager)(user)


async def health(request: HttpRequest) -> JsonResponse:
    report = {
        "database": await _check(sync_to_async(_database, thread_sensitive=False)),
        "channel_layer": await _check(_channel_layer),
        "broker": await _check(sync_to_async(_broker, thread_sensitive=False)),
    }
    healthy = all(value == OK or value.startswith("not used") for value in report.values())
    if not healthy:
        logger.warning(
            "health check failing: %s", "; ".join(f"{k}: {v}" for k, v in report.items())
        )
    details = report if await _may_see_details(request) else {}
    response = JsonResponse(
        {"status": "ok" if healthy else "error", **details}, status=200 if healthy else 503
    )
    response["Cache-Control"] = "no-store"
    return response
