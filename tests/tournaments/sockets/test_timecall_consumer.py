"""Time calls over the room's WebSocket, against the real ASGI app: the tablet calls the
clock on its own table only, staff through the console's control message, and nobody
else at all."""

from __future__ import annotations

import datetime as dt

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.utils import timezone

from config.asgi import application
from tests.conftest import NOW, make_player
from tests.tournaments.sockets.test_consumer import _cookie
from tournaments.models import DisplayScreen, Event, StaffAssignment, TimeCall
from tournaments.services import entries as entry_services
from tournaments.services import timecalls as tc

pytestmark = pytest.mark.django_db(transaction=True)

SOCKETS = ("anonymous", "outsider", "desk", "floor", "td", "clock_screen", "tablet", "tablet2")


@pytest.fixture
def room(tournament, td):
    reg = entry_services.entry_register(
        tournament=tournament, player=make_player("Ada", "Verdi"), actor=td, now=NOW
    )
    other_table = 2 if reg.table == 1 else 1
    users = {"anonymous": None, "td": td}
    for role in ("outsider", "desk", "floor"):
        users[role] = get_user_model().objects.create(username=role)
        if role != "outsider":
            StaffAssignment.objects.create(tournament=tournament, user=users[role], role=role)
    screens = {
        "clock_screen": DisplayScreen.objects.create(tournament=tournament, name="C"),
        "tablet": DisplayScreen.objects.create(
            tournament=tournament, name="T", kind="table", table_number=reg.table
        ),
        "tablet2": DisplayScreen.objects.create(
            tournament=tournament, name="T2", kind="table", table_number=other_table
        ),
    }
    headers = {who: _cookie(user) for who, user in users.items()}
    return tournament, reg, users, screens, headers


async def _open(room, who) -> WebsocketCommunicator:
    tournament, _reg, _users, screens, headers = room
    if who in screens:
        path, sent = f"/ws/screens/{screens[who].token}/", headers["anonymous"]
    else:
        path, sent = f"/ws/t/{tournament.slug}/", headers[who]
    communicator = WebsocketCommunicator(application, path, headers=sent)
    connected, _code = await communicator.connect(timeout=10)
    assert connected, who
    assert (await communicator.receive_json_from(timeout=5))["type"] == "clock"
    return communicator


async def _answer(communicator) -> tuple[dict, list[dict]]:
    """The reply to what we sent (ok or error), and the pushes that came with it."""
    pushes = []
    while True:
        message = await communicator.receive_json_from(timeout=3)
        if message["type"] in {"ok", "error"}:
            # A push sent after commit may still be on its way: collect it too.
            while not await communicator.receive_nothing(timeout=0.1):
                pushes.append(await communicator.receive_json_from(timeout=5))
            return message, pushes
        pushes.append(message)


_calls = database_sync_to_async(lambda: list(TimeCall.objects.order_by("pk")))


async def test_only_the_tablet_of_that_table_calls_the_clock_from_the_table(room):
    _tournament, reg, _users, _screens, _headers = room
    start = {"type": "timecall", "action": "start", "seat": reg.seat, "facing_bet": True}
    for who in SOCKETS:
        if who == "tablet":
            continue
        communicator = await _open(room, who)
        await communicator.send_json_to(start)
        reply, _pushes = await _answer(communicator)
        # Staff use the console's control message; other tables' tablets have no seat
        # of their own here (an empty seat at their table), public sockets nothing.
        assert reply["type"] == "error", who
        await communicator.disconnect()
    assert await _calls() == []

    communicator = await _open(room, "tablet")
    await communicator.send_json_to(start)
    reply, pushes = await _answer(communicator)
    assert reply == {"type": "ok", "action": "timecall_start"}
    [call] = await _calls()
    assert (call.table_number, call.seat_number, call.facing_bet) == (reg.table, reg.seat, True)
    assert call.from_tablet and call.called_by_id is None and call.grant_seconds == 30
    assert any(p["type"] == "timecall" and p["outcome"] == "running" for p in pushes)
    await communicator.disconnect()


async def test_the_console_calls_the_clock_for_floor_and_td_only(room):
    _tournament, reg, _users, _screens, _headers = room
    for who in ("anonymous", "outsider", "desk", "clock_screen", "tablet", "floor"):
        communicator = await _open(room, who)
        await communicator.send_json_to(
            {
                "type": "control",
                "action": "timecall_start",
                "table": reg.table,
                "seat": reg.seat,
                "facing_bet": False,
            }
        )
        reply, _pushes = await _answer(communicator)
        calls = await _calls()
        if who == "floor":
            assert reply["type"] == "ok" and len(calls) == 1
            assert calls[0].called_by_id is not None and not calls[0].from_tablet
        else:
            assert reply["type"] == "error" and calls == [], who
        await communicator.disconnect()


async def test_a_call_reaches_the_tablet_and_the_room_but_not_another_table(room):
    tournament, reg, users, _screens, _headers = room
    tablet, other, public = [await _open(room, w) for w in ("tablet", "tablet2", "anonymous")]
    await database_sync_to_async(tc.timecall_start)(
        tournament=tournament,
        actor=users["td"],
        now=NOW,
        table_number=reg.table,
        seat_number=reg.seat,
        facing_bet=True,
    )
    for communicator in (tablet, public):
        message = await communicator.receive_json_from(timeout=3)
        assert (message["type"], message["table"], message["seat"]) == (
            "timecall",
            reg.table,
            reg.seat,
        )
    # The other table's tablet hears it once, through the room's group, like a screen.
    message = await other.receive_json_from(timeout=3)
    assert message["type"] == "timecall"
    assert await other.receive_nothing(timeout=0.2)
    for communicator in (tablet, other, public):
        await communicator.disconnect()


async def _running_call(room, *, seconds_ago: float = 0, facing_bet: bool = True):
    tournament, reg, users, _screens, _headers = room
    return await database_sync_to_async(tc.timecall_start)(
        tournament=tournament,
        actor=users["floor"],
        now=timezone.now() - dt.timedelta(seconds=seconds_ago),
        table_number=reg.table,
        seat_number=reg.seat,
        facing_bet=facing_bet,
    )


async def test_another_tablet_cannot_end_the_call(room):
    call = await _running_call(room)
    communicator = await _open(room, "tablet2")
    for action in ("acted", "cancel", "expire"):
        await communicator.send_json_to({"type": "timecall", "action": action, "call": call.pk})
        reply, _pushes = await _answer(communicator)
        assert reply["type"] == "error", action
    assert [c.outcome for c in await _calls()] == ["running"]
    await communicator.disconnect()


async def test_the_tablet_marks_acted_or_cancels(room):
    call = await _running_call(room)
    communicator = await _open(room, "tablet")
    await communicator.send_json_to({"type": "timecall", "action": "acted", "call": call.pk})
    reply, pushes = await _answer(communicator)
    assert reply["type"] == "ok"
    assert any(p.get("outcome") == "acted" for p in pushes)
    again = await _running_call(room)
    await communicator.send_json_to({"type": "timecall", "action": "cancel", "call": again.pk})
    reply, _pushes = await _answer(communicator)
    assert reply["type"] == "ok"
    assert [c.outcome for c in await _calls()] == ["acted", "cancelled"]
    await communicator.send_json_to({"type": "timecall", "action": "drop", "call": again.pk})
    reply, _pushes = await _answer(communicator)
    assert reply["type"] == "error"
    await communicator.disconnect()


async def test_the_tablet_asks_for_the_expiry_and_the_server_checks_the_time(room):
    early = await _running_call(room, seconds_ago=10)
    communicator = await _open(room, "tablet")
    await communicator.send_json_to({"type": "timecall", "action": "expire", "call": early.pk})
    reply, _pushes = await _answer(communicator)
    assert reply["type"] == "ok"  # asked too early: nothing happens
    assert [c.outcome for c in await _calls()] == ["running"]
    await database_sync_to_async(TimeCall.objects.filter(pk=early.pk).update)(
        called_at=timezone.now() - dt.timedelta(seconds=31)
    )
    for _twice in range(2):
        await communicator.send_json_to({"type": "timecall", "action": "expire", "call": early.pk})
        reply, _pushes = await _answer(communicator)
        assert reply["type"] == "ok"
    [call] = await _calls()
    assert (call.outcome, call.ruling) == ("expired", "dead_hand")
    count = database_sync_to_async(Event.objects.filter(action="timecall.expire").count)
    assert await count() == 1
    await communicator.disconnect()


async def test_a_revoked_tablet_is_refused(room):
    _tournament, reg, _users, screens, _headers = room
    communicator = await _open(room, "tablet")
    # Revoked behind its back (the close message not yet through): the check still holds.
    await database_sync_to_async(DisplayScreen.objects.filter(pk=screens["tablet"].pk).update)(
        revoked=True
    )
    await communicator.send_json_to(
        {"type": "timecall", "action": "start", "seat": reg.seat, "facing_bet": False}
    )
    reply, _pushes = await _answer(communicator)
    assert reply["type"] == "error"
    assert await _calls() == []
    await communicator.disconnect()


async def test_junk_fields_are_refused_not_crashed(room):
    communicator = await _open(room, "tablet")
    for junk in (
        {"type": "timecall", "action": "start", "seat": "x"},
        {"type": "timecall", "action": "start", "seat": 10**12},
        {"type": "timecall", "action": "start", "seat": None},
        {"type": "timecall", "action": "acted", "call": "1; drop"},
        {"type": "timecall", "action": ["start"]},
    ):
        await communicator.send_json_to(junk)
        reply, _pushes = await _answer(communicator)
        assert reply["type"] == "error", junk
    assert await _calls() == []
    await communicator.disconnect()
