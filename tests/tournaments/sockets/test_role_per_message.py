"""A socket's rights follow the person: every control message is
checked against the role and the session as they are now, not as they were at connect."""

from __future__ import annotations

import json
from importlib import import_module

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from config.asgi import application
from tests.conftest import NOW
from tests.tournaments.sockets.test_consumer import _cookie
from tournaments.models import Event, Role, StaffAssignment
from tournaments.services import clock as clock_services
from tournaments.sockets.codes import FINAL, RIGHTS_CHANGED

pytestmark = pytest.mark.django_db(transaction=True)


def _log_everyone_out() -> None:
    """What logging out does to each session, through the configured store (in production
    the sessions are cached in Redis as well as kept in the database)."""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    for key in Session.objects.values_list("session_key", flat=True):
        store(session_key=key).delete()


async def _socket(tournament, headers):
    socket = WebsocketCommunicator(application, f"/ws/t/{tournament.slug}/", headers=headers)
    connected, _code = await socket.connect(timeout=10)
    assert connected
    assert (await socket.receive_json_from(timeout=5))["type"] == "clock"
    return socket


async def _adjust(socket) -> str:
    """ "ok", "error", or "closed" when the server closed the socket first (since the
    change of rights closes it, item 3; the per-message check covers a close in flight)."""
    await socket.send_json_to({"type": "control", "action": "adjust", "seconds": 60})
    while True:
        output = await socket.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return "closed"
        reply = json.loads(output["text"])
        if reply["type"] != "clock":
            return reply["type"]


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
    assert await _adjust(socket) in ("error", "closed")
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


# The sockets opened with the old rights are closed (and come back authorised afresh).


async def _closed_with(socket) -> int | None:
    output = await socket.receive_output(timeout=2)
    while output["type"] == "websocket.send":
        output = await socket.receive_output(timeout=2)
    return output.get("code") if output["type"] == "websocket.close" else None


async def test_changing_a_role_closes_the_persons_sockets(tournament, td):
    assignment = await database_sync_to_async(StaffAssignment.objects.get)(
        tournament=tournament, user=td
    )
    socket = await _socket(tournament, await database_sync_to_async(_cookie)(td))
    assignment.role = Role.DESK
    await database_sync_to_async(assignment.save)()
    assert await _closed_with(socket) == RIGHTS_CHANGED
    assert RIGHTS_CHANGED not in FINAL  # the console reconnects, as a desk this time
    await socket.disconnect()


async def test_removing_a_role_closes_the_persons_sockets(tournament, td):
    assignment = await database_sync_to_async(StaffAssignment.objects.get)(
        tournament=tournament, user=td
    )
    socket = await _socket(tournament, await database_sync_to_async(_cookie)(td))
    await database_sync_to_async(assignment.delete)()
    assert await _closed_with(socket) == RIGHTS_CHANGED
    await socket.disconnect()


async def test_logging_out_closes_that_sessions_sockets(tournament, td):
    def login() -> tuple[Client, list[tuple[bytes, bytes]]]:
        client = Client()
        client.force_login(td)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        cookie = f"{settings.SESSION_COOKIE_NAME}={session}".encode()
        return client, [(b"origin", b"http://testserver"), (b"cookie", cookie)]

    client, headers = await database_sync_to_async(login)()
    _other, other_headers = await database_sync_to_async(login)()
    socket = await _socket(tournament, headers)
    other = await _socket(tournament, other_headers)  # the same person on another tablet
    response = await database_sync_to_async(client.post)(reverse("logout"))
    assert response.status_code == 302
    assert await _closed_with(socket) == RIGHTS_CHANGED
    assert await other.receive_nothing(timeout=0.2)
    await socket.disconnect()
    await other.disconnect()


async def test_a_public_clock_socket_is_not_closed_by_someone_elses_change(tournament, td):
    socket = await _socket(tournament, await database_sync_to_async(_cookie)(None))
    assignment = await database_sync_to_async(StaffAssignment.objects.get)(
        tournament=tournament, user=td
    )
    await database_sync_to_async(assignment.delete)()
    assert await socket.receive_nothing(timeout=0.2)
    await socket.disconnect()


async def test_removing_someone_on_the_staff_page_closes_their_sockets(tournament, td):
    def give_floor_and_log_in_td():
        floor = get_user_model().objects.create(username="floor-person")
        StaffAssignment.objects.create(tournament=tournament, user=floor, role=Role.FLOOR)
        client = Client()
        client.force_login(td)
        return floor, client

    floor, client = await database_sync_to_async(give_floor_and_log_in_td)()
    socket = await _socket(tournament, await database_sync_to_async(_cookie)(floor))
    response = await database_sync_to_async(client.post)(
        reverse("staff_edit", args=[tournament.slug]), {"remove": floor.pk}
    )
    assert response.status_code == 302
    assert await _closed_with(socket) == RIGHTS_CHANGED
    await socket.disconnect()


async def test_disabling_an_account_closes_its_sockets(tournament, td):
    socket = await _socket(tournament, await database_sync_to_async(_cookie)(td))
    td.is_active = False
    await database_sync_to_async(td.save)()
    assert await _closed_with(socket) == RIGHTS_CHANGED
    await socket.disconnect()
