"""The live feed's stream against the real ASGI app: the document on connecting, then an
elimination's update; only published events; overlays by an overlay screen's link; the
per-address limit; ping and state."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import override_settings

from config.asgi import application
from tests.conftest import NOW, make_player
from tournaments.models import DisplayScreen
from tournaments.services import entries as entry_services
from tournaments.sockets.codes import NOT_FOUND, TRY_AGAIN_LATER

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def _field(tournament, td, count=3, *, public=True):
    tournament.feed_public = public
    tournament.save(update_fields=["feed_public"])
    return [
        entry_services.entry_register(
            tournament=tournament, player=make_player(f"F{i}", f"Follower{i}"), actor=td, now=NOW
        ).entry
        for i in range(count)
    ]


@database_sync_to_async
def _eliminate(tournament, entry, td):
    entry_services.entry_eliminate(tournament=tournament, entry=entry, actor=td, now=NOW)


async def _follow(path, headers=()):
    socket = WebsocketCommunicator(application, path, headers=list(headers))
    connected, code = await socket.connect(timeout=10)
    return socket, connected, code


async def test_a_follower_gets_the_document_then_the_elimination(tournament, td):
    entries = await _field(tournament, td)
    # No Origin, no cookie: a live-reporting site's server follows it.
    socket, connected, _code = await _follow(f"/api/v1/events/{tournament.pk}/stream")
    assert connected
    document = await socket.receive_json_from(timeout=5)
    assert document["type"] == "event"
    assert document["figures"]["players_left"] == 3

    await _eliminate(tournament, entries[2], td)
    update = await socket.receive_json_from(timeout=5)
    while update["type"] != "elimination":
        update = await socket.receive_json_from(timeout=5)
    assert update["version"] > document["version"]
    assert update["figures"]["players_left"] == 2
    assert update["eliminations"][0]["entry"] == entries[2].pk
    assert update["eliminations"][0]["place"] == 3

    await socket.send_json_to({"type": "ping", "t": 1})
    pong = await socket.receive_json_from(timeout=5)
    assert pong["type"] == "pong" and pong["t"] == 1
    await socket.send_json_to({"type": "state"})
    again = await socket.receive_json_from(timeout=5)
    assert again["type"] == "event" and again["figures"]["players_left"] == 2
    await socket.send_json_to({"type": "control", "action": "pause"})  # ignored
    assert await socket.receive_nothing(timeout=0.2)
    await socket.disconnect()


async def test_an_unpublished_event_has_no_stream(tournament, td):
    await _field(tournament, td, 1, public=False)
    socket, connected, code = await _follow(f"/api/v1/events/{tournament.slug}/stream")
    if connected:
        message = await socket.receive_output(timeout=5)
        assert message == {"type": "websocket.close", "code": NOT_FOUND}
    else:
        assert code == NOT_FOUND


async def test_an_overlay_follows_by_its_screens_link_even_unpublished(tournament, td):
    await _field(tournament, td, 2, public=False)
    overlay = await database_sync_to_async(DisplayScreen.objects.create)(
        tournament=tournament, name="OBS", kind="overlay"
    )
    clock = await database_sync_to_async(DisplayScreen.objects.create)(
        tournament=tournament, name="TV"
    )
    origin = [(b"origin", b"http://testserver")]
    socket, connected, _code = await _follow(f"/ws/screens/{overlay.token}/feed/", origin)
    assert connected
    assert (await socket.receive_json_from(timeout=5))["figures"]["players_left"] == 2
    await socket.disconnect()
    refused, connected, code = await _follow(f"/ws/screens/{clock.token}/feed/", origin)
    if connected:
        assert (await refused.receive_output(timeout=5))["code"] == NOT_FOUND
    else:
        assert code == NOT_FOUND


@override_settings(FEED_STREAMS_PER_MINUTE=1)
async def test_streams_are_limited_per_address(tournament, td):
    await _field(tournament, td, 1)
    first, connected, _code = await _follow(f"/api/v1/events/{tournament.pk}/stream")
    assert connected
    await first.receive_json_from(timeout=5)
    second, connected, code = await _follow(f"/api/v1/events/{tournament.pk}/stream")
    if connected:
        assert (await second.receive_output(timeout=5))["code"] == TRY_AGAIN_LATER
    else:
        assert code == TRY_AGAIN_LATER
    await first.disconnect()
