"""A clock change names the structure; a change of the structure sends it.

Every clock push used to carry the whole structure (three quarters of its bytes) to every
screen. A screen gets the levels on connecting and whenever they change; a clock change
sends their key, and a screen whose levels are not the ones named asks for the state.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from tournaments.events import event_undo
from tournaments.models import DisplayScreen
from tournaments.services import clock as clock_services
from tournaments.services import setup as setup_services

pytestmark = pytest.mark.django_db(transaction=True)

DEEPER = [
    setup_services.ItemSpec(kind="level", small_blind=500, big_blind=1000, minutes=30),
    setup_services.ItemSpec(kind="level", small_blind=1000, big_blind=2000, minutes=30),
]


async def _screen(display) -> tuple[WebsocketCommunicator, dict]:
    socket = WebsocketCommunicator(
        application, f"/ws/screens/{display.token}/", headers=[(b"origin", b"http://testserver")]
    )
    assert (await socket.connect(timeout=10))[0]
    first = await socket.receive_json_from(timeout=5)
    assert first["type"] == "clock"
    return socket, first


async def _next_clock(socket: WebsocketCommunicator) -> dict:
    while True:
        message = await socket.receive_json_from(timeout=5)
        if message["type"] == "clock":
            return message


async def test_a_clock_change_names_the_levels_the_screen_already_holds(
    display, tournament, td, now
):
    socket, first = await _screen(display)
    assert [i["big_blind"] for i in first["items"] if not i["break"]] == [200, 400, 600]

    await database_sync_to_async(clock_services.clock_start)(
        tournament=tournament, actor=td, now=now
    )
    push = await _next_clock(socket)
    assert push["status"] == "running"
    assert "items" not in push  # the levels stay on the screen
    assert push["structure"] == first["structure"]

    # Asked, the socket sends the whole state, as on connecting.
    await socket.send_json_to({"type": "state"})
    state = await _next_clock(socket)
    assert state["version"] == push["version"]
    assert state["structure"] == first["structure"]
    assert state["items"] == first["items"]
    await socket.disconnect()


async def test_a_change_of_the_structure_and_its_undo_reach_the_screens_whole(
    display, tournament, td, now
):
    socket, first = await _screen(display)

    await database_sync_to_async(setup_services.structure_set)(
        tournament=tournament, actor=td, items=DEEPER, now=now
    )
    pushed = await _next_clock(socket)
    assert [i["big_blind"] for i in pushed["items"]] == [1000, 2000]
    assert pushed["structure"] != first["structure"]

    # A clock change afterwards names the new levels.
    await database_sync_to_async(clock_services.clock_start)(
        tournament=tournament, actor=td, now=now + timedelta(minutes=1)
    )
    assert (await _next_clock(socket))["structure"] == pushed["structure"]

    # Undone, the old levels go back to the screens at once.
    event = await database_sync_to_async(
        lambda: tournament.events.filter(action="structure.set").latest("pk")
    )()
    await database_sync_to_async(event_undo)(
        event_id=event.pk, tournament=tournament, actor=td, now=now + timedelta(minutes=2)
    )
    back = await _next_clock(socket)
    assert back["items"] == first["items"]
    assert back["structure"] == first["structure"]
    await socket.disconnect()


async def test_a_revoked_screen_is_not_sent_the_state(display, tournament):
    socket, _first = await _screen(display)
    await database_sync_to_async(DisplayScreen.objects.filter(pk=display.pk).update)(revoked=True)
    await socket.send_json_to({"type": "state"})
    answer = await socket.receive_json_from(timeout=5)
    assert answer["type"] == "error"
    assert "items" not in answer
    await socket.disconnect()
