"""A socket's rights follow the person (issue 12, item 3): every control message is
checked against the role and the session as they are now, not as they were at connect."""

from __future__ import annotations

from importlib import import_module

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.sessions.models import Session

from config.asgi import application
from tests.conftest import NOW
from tests.tournaments.sockets.test_consumer import _cookie
from tournaments.models import Event, Role, StaffAssignment
from tournaments.services import clock as clock_services

pytestmark = pytest.mark.django_db(transaction=True)


def _log_everyone_out() -> None:
    """What logging out does to each session, through the configured store (in production
    the sessions are cached in Redis as well as kept in the database)."""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    for key in Session.objects.values_list("session_key", flat=True):
        store(session_key=key).delete()


async def _socket(tournament, headers):
    socket = WebsocketCommunicator(application, f"/ws/t/{tournament.slug}/", headers=headers)
    connected, _code = await socket.connect()
    assert connected
    assert (await socket.receive_json_from())["type"] == "clock"
    return socket


async def _adjust(socket) -> str:
    await socket.send_json_to({"type": "control", "action": "adjust", "seconds": 60})
    replies = [await socket.receive_json_from()]
    if replies[0]["type"] == "clock":
        replies.append(await socket.receive_json_from())
    return next(r["type"] for r in replies if r["type"] != "clock")


async def _adjustments(tournament) -> int:
    return await database_sync_to_async(
        Event.objects.filter(tournament=tournament, action="clock.adjust").count
    )()


async def test_a_td_demoted_to_desk_can_no_longer_run_the_clock(tournament, td):
    await database_sync_to_async(clock_services.clock_start)(
        tournament=tournament, actor=td, now=NOW
    )
    assignment = await database_sync_to_async(StaffAssignment.objects.get)(
        tournament=tournament, user=td
    )
    socket = await _socket(tournament, await database_sync_to_async(_cookie)(td))
    assert await _adjust(socket) == "ok"
    assignment.role = Role.DESK
    await database_sync_to_async(assignment.save)()
    assert await _adjust(socket) == "error"
    assert await _adjustments(tournament) == 1
    await socket.disconnect()


async def test_a_logged_out_td_can_no_longer_run_the_clock(tournament, td):
    await database_sync_to_async(clock_services.clock_start)(
        tournament=tournament, actor=td, now=NOW
    )
    socket = await _socket(tournament, await database_sync_to_async(_cookie)(td))
    assert await _adjust(socket) == "ok"
    await database_sync_to_async(_log_everyone_out)()
    assert await _adjust(socket) == "error"
    assert await _adjustments(tournament) == 1
    await socket.disconnect()
