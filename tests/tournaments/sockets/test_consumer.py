"""The room's WebSocket: every message type for every role, against the real ASGI app."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from config.asgi import application
from tests.conftest import NOW
from tournaments.models import DisplayScreen, Event, Role, StaffAssignment, Table
from tournaments.services import clock as clock_services
from tournaments.services import handforhand as handforhand_services
from tournaments.services import screens as screen_services

pytestmark = pytest.mark.django_db(transaction=True)

ROLES = ("anonymous", "outsider", "desk", "floor", "td", "clock_screen", "tablet")


def _cookie(user) -> list[tuple[bytes, bytes]]:
    headers = [(b"origin", b"http://testserver")]
    if user is not None:
        client = Client()
        client.force_login(user)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={session}".encode()))
    return headers


@pytest.fixture
def room(tournament, td):
    Table.objects.filter(tournament=tournament, number=1).update(status="open")
    users = {"anonymous": None, "td": td}
    for role in ("outsider", "desk", "floor"):
        users[role] = get_user_model().objects.create(username=role)  # no password to hash
        if role != "outsider":
            StaffAssignment.objects.create(tournament=tournament, user=users[role], role=role)
    clock_services.clock_start(tournament=tournament, actor=td, now=NOW)
    handforhand_services.h4h_start(tournament=tournament, actor=td, now=NOW)
    screens = {
        "clock_screen": DisplayScreen.objects.create(tournament=tournament, name="C"),
        "tablet": DisplayScreen.objects.create(
            tournament=tournament, name="T1", kind="table", table_number=1
        ),
    }
    headers = {role: _cookie(user) for role, user in users.items()}
    return tournament, users, screens, headers


def _connect(room, role) -> WebsocketCommunicator:
    tournament, _users, screens, headers = room
    if role in screens:
        path, sent = f"/ws/screens/{screens[role].token}/", _cookie(None)
    else:
        path, sent = f"/ws/t/{tournament.slug}/", headers[role]
    return WebsocketCommunicator(application, path, headers=sent)


async def _open(room, role):
    communicator = _connect(room, role)
    connected, _code = await communicator.connect(timeout=10)
    assert connected, role
    first = await communicator.receive_json_from(timeout=5)
    assert first["type"] == "clock" and first["status"] == "paused"
    return communicator


# Each test goes through every role on one set-up: a transactional database per role
# would make this file slow.


async def test_ping_gets_pong_with_server_time(room):
    for role in ROLES:
        communicator = await _open(room, role)
        await communicator.send_json_to({"type": "ping", "t": 1234})
        reply = await communicator.receive_json_from(timeout=5)
        assert (reply["type"], reply["t"]) == ("pong", 1234), role
        assert reply["server_time"], role
        await communicator.disconnect()


CONTROL_OK = {"td"}


async def test_control_only_for_the_td(room):
    for role in sorted(ROLES, key=lambda r: r in CONTROL_OK):  # the TD last
        communicator = await _open(room, role)
        await communicator.send_json_to({"type": "control", "action": "adjust", "seconds": 60})
        reply = await communicator.receive_json_from(timeout=5)
        adjusted = await database_sync_to_async(
            Event.objects.filter(action="clock.adjust").exists
        )()
        if role in CONTROL_OK:
            # The push of the new state and the acknowledgement both arrive.
            second = await communicator.receive_json_from(timeout=5)
            assert {reply["type"], second["type"]} == {"clock", "ok"} and adjusted
        else:
            assert reply["type"] == "error" and not adjusted, role
        await communicator.disconnect()


async def test_hand_report_only_from_a_table_tablet(room):
    for role in sorted(ROLES, key=lambda r: r == "tablet"):  # the tablet last
        communicator = await _open(room, role)
        await communicator.send_json_to({"type": "hand", "action": "done"})
        reply = await communicator.receive_json_from(timeout=5)
        reported = await database_sync_to_async(
            Event.objects.filter(action="h4h.table_done").exists
        )()
        if role == "tablet":
            assert reply["type"] in {"clock", "ok"} and reported
        else:
            assert reply["type"] == "error" and not reported, role
        await communicator.disconnect()


async def test_unknown_messages_are_refused(room):
    for role in ROLES:
        communicator = await _open(room, role)
        await communicator.send_json_to({"type": "drop_tables"})
        assert (await communicator.receive_json_from(timeout=5))["type"] == "error", role
        await communicator.send_json_to(["not", "a", "dict"])
        assert (await communicator.receive_json_from(timeout=5))["type"] == "error", role
        await communicator.send_to(text_data="{not json")
        assert (await communicator.receive_json_from(timeout=5))["type"] == "error", role
        await communicator.disconnect()


async def test_a_service_change_reaches_every_screen(room):
    tournament, users, _screens, _headers = room
    screens = [await _open(room, role) for role in ("anonymous", "clock_screen", "tablet")]
    await database_sync_to_async(clock_services.clock_resume)(
        tournament=tournament, actor=users["td"], now=NOW
    )
    for communicator in screens:
        message = await communicator.receive_json_from(timeout=5)
        assert (message["type"], message["status"]) == ("clock", "running")
        await communicator.disconnect()


async def test_revoking_a_screen_closes_its_socket_and_refuses_new_ones(room):
    tournament, users, screens, _headers = room
    communicator = await _open(room, "clock_screen")
    await database_sync_to_async(screen_services.screen_revoke)(
        tournament=tournament, actor=users["td"], screen_id=screens["clock_screen"].pk, now=NOW
    )
    closed = await communicator.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4403}
    again = _connect(room, "clock_screen")
    connected, code = await again.connect(timeout=10)
    assert not connected and code == 4404


async def test_unknown_tournament_is_refused():
    communicator = WebsocketCommunicator(
        application, "/ws/t/nope/", headers=[(b"origin", b"http://testserver")]
    )
    connected, code = await communicator.connect(timeout=10)
    assert not connected and code == 4404


def test_roles_cover_staff_roles():
    assert {"td", "floor", "desk"} == set(Role.values)
