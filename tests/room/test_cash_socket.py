"""The cash screens are live: an action at the floor reaches ws/cash/ after commit."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from room.services import cash_lists
from tests.conftest import NOW, make_cash_game, make_player, make_user

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = (b"origin", b"http://testserver")


@database_sync_to_async
def _add_game_and_list_a_player() -> None:
    td = make_user("cashtd", staff=True)
    td.is_superuser = True
    td.save()
    game = make_cash_game(td)
    cash_lists.list_add(actor=td, player=make_player("Laura"), games=[game], present=True, now=NOW)


async def test_a_list_change_is_pushed_to_every_cash_screen():
    board = WebsocketCommunicator(application, "/ws/cash/", headers=[ORIGIN])
    phone = WebsocketCommunicator(application, "/ws/cash/", headers=[ORIGIN])
    assert (await board.connect(timeout=10))[0] and (await phone.connect(timeout=10))[0]
    await _add_game_and_list_a_player()
    for socket in (board, phone):
        first = json.loads(await socket.receive_from(timeout=2))
        second = json.loads(await socket.receive_from(timeout=2))
        assert [first["action"], second["action"]] == ["cash.game", "cash.list_add"]
        assert first["type"] == "cash" and first["v"] == 1
    await board.send_to(text_data="anything")  # listeners only: ignored, socket stays open
    assert await board.receive_nothing(timeout=0.2)
    await board.disconnect()
    await phone.disconnect()
