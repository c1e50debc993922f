"""Without a broker nothing can wait for later: what ran out with nobody to record it is
logged by the TD's console socket (its minute ping), never by reading a page."""

from __future__ import annotations

import datetime as dt

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.urls import reverse
from django.utils import timezone

from config.asgi import application
from tests.conftest import NOW, make_player
from tests.tournaments.sockets.test_consumer import _cookie
from tournaments.models import TimeCall
from tournaments.services import clock as clock_services
from tournaments.services import entries as entry_services
from tournaments.services import timecalls as tc

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def ran_out(tournament, td):
    seated = entry_services.entry_register(
        tournament=tournament, player=make_player("Lia", "Gialli"), actor=td, now=NOW
    )
    clock_services.clock_start(tournament=tournament, actor=td, now=NOW)
    return tc.timecall_start(
        tournament=tournament,
        actor=td,
        now=timezone.now() - dt.timedelta(seconds=40),
        table_number=seated.table,
        seat_number=seated.seat,
        facing_bet=True,
    )


async def test_the_consoles_ping_records_a_call_whose_time_ran_out(client, tournament, td, ran_out):
    await database_sync_to_async(client.force_login)(td)
    page = await database_sync_to_async(client.get)(
        reverse("clock_console", args=[tournament.slug])
    )
    assert page.status_code == 200
    call = await database_sync_to_async(TimeCall.objects.get)(pk=ran_out.pk)
    assert call.outcome == "running"  # a page read writes nothing

    headers = await database_sync_to_async(_cookie)(td)
    socket = WebsocketCommunicator(application, f"/ws/t/{tournament.slug}/", headers=headers)
    connected, _code = await socket.connect(timeout=10)
    assert connected
    assert (await socket.receive_json_from(timeout=5))["type"] == "clock"
    await socket.send_json_to({"type": "ping", "t": 1})
    assert (await socket.receive_json_from(timeout=5))["type"] == "pong"
    await socket.disconnect()

    call = await database_sync_to_async(TimeCall.objects.get)(pk=ran_out.pk)
    assert (call.outcome, call.ruling) == ("expired", "dead_hand")
    html = (
        await database_sync_to_async(client.get)(reverse("clock_console", args=[tournament.slug]))
    ).content.decode()
    # The rules cited by name (their codes stay in the hover text).
    assert "<strong>Dead hand</strong> (" in html and ">Calling the clock<" in html
    log = (
        await database_sync_to_async(client.get)(reverse("event_log", args=[tournament.slug]))
    ).content.decode()
    assert "Time ran out: Dead hand (TDA-29, TDA-30)" in log
