"""A push brings what the screens show, rendered once per change.

A clock screen used to answer every push by fetching its figures again: a thousand
renders for one registration at a thousand screens. The push now carries the figures,
in every language a screen may be in, the same fragment the page renders.
"""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import transaction
from django.test import Client
from django.urls import reverse

from config.asgi import application
from tests.conftest import make_player
from tournaments import realtime
from tournaments.models import DisplayScreen, Seat
from tournaments.services import entries as entry_services
from tournaments.services import seats as seat_services

pytestmark = pytest.mark.django_db(transaction=True)


def _register(tournament, td, now):
    return entry_services.entry_register(
        tournament=tournament, player=make_player("Anna", "Bianchi"), actor=td, now=now
    )


async def _screen(token: str) -> WebsocketCommunicator:
    """A screen's socket, open and showing the clock's state."""
    socket = WebsocketCommunicator(
        application, f"/ws/screens/{token}/", headers=[(b"origin", b"http://testserver")]
    )
    assert (await socket.connect(timeout=10))[0]
    assert (await socket.receive_json_from(timeout=5))["type"] == "clock"
    return socket


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


async def test_a_registration_reaches_the_clock_screen_with_its_figures(
    display, tournament, td, now
):
    socket = await _screen(display.token)

    await database_sync_to_async(_register)(tournament, td, now)

    push = await socket.receive_json_from(timeout=5)
    assert push["type"] == "seat"
    assert push["at_tables"] == [push["table"]]  # other tables' tablets ignore it
    figures = push["fragments"]["figures"]
    assert "Players 1 / 1" in _text(figures["en"])
    assert "Giocatori 1 / 1" in _text(figures["it"])
    await socket.disconnect()

    # The same figures the screen's own page shows (what it used to fetch per push).
    page = await database_sync_to_async(Client().get)(
        reverse("screen", args=[display.token]),
        headers={"HX-Request": "true", "Accept-Language": "en"},
    )
    assert _text(figures["en"]) in _text(page.content.decode())


async def test_a_one_page_seating_board_gets_its_board_in_the_push(tournament, td, now):
    board = await database_sync_to_async(DisplayScreen.objects.create)(
        tournament=tournament, name="Board", kind=DisplayScreen.Kind.SEATING
    )
    socket = await _screen(board.token)

    registration = await database_sync_to_async(_register)(tournament, td, now)

    push = await socket.receive_json_from(timeout=5)
    rows = _text(push["fragments"]["board"]["en"])
    assert f"Bianchi Anna Table {registration.table} · Seat {registration.seat}" in rows
    assert "Tavolo" in _text(push["fragments"]["board"]["it"])
    await socket.disconnect()


async def test_a_tablet_gets_its_own_seat_list_in_the_push_and_nothing_for_other_changes(
    tournament, td, now
):
    """A table's tablet used to fetch its seats again after every push; a registration at
    its table now brings the table's list (the one its page shows), and a change of the
    figures alone names no table, so no tablet asks the server for anything."""
    first = await database_sync_to_async(_register)(tournament, td, now)
    tablet = await database_sync_to_async(DisplayScreen.objects.create)(
        tournament=tournament,
        name="Tablet",
        kind=DisplayScreen.Kind.TABLE,
        table_number=first.table,
    )
    socket = await _screen(tablet.token)

    def register_beside() -> entry_services.Registration:
        return entry_services.entry_register(
            tournament=tournament, player=make_player("Bruno", "Neri"), actor=td, now=now
        )

    second = await database_sync_to_async(register_beside)()
    assert second.table == first.table  # one table open: he sits beside her

    push = await socket.receive_json_from(timeout=5)
    while push["type"] != "seat":  # the same push may come through the table's group too
        push = await socket.receive_json_from(timeout=5)
    listed = push["fragments"]["seats"][str(first.table)]
    assert f"{second.seat} Neri Bruno" in _text(listed["en"])
    assert f"{first.seat} Bianchi Anna" in _text(listed["en"])
    assert "Chiama il tempo" in listed["it"] and "Call the clock" in listed["en"]

    # The very list the tablet's page shows after the change.
    page = await database_sync_to_async(Client().get)(
        reverse("screen", args=[tablet.token]), headers={"Accept-Language": "en"}
    )
    assert _text(listed["en"]) in _text(page.content.decode())

    while not await socket.receive_nothing(timeout=0.3):
        await socket.receive_json_from(timeout=5)  # the copy through the table's group

    def figures_change() -> None:  # what a rebuy, an add-on or a chip count pushes
        with transaction.atomic():
            realtime.broadcast(tournament.pk, {"type": "figures"})

    await database_sync_to_async(figures_change)()
    push = await socket.receive_json_from(timeout=5)
    assert push["type"] == "figures" and push["at_tables"] == []
    assert "seats" not in push["fragments"]
    await socket.disconnect()


async def test_a_move_tells_the_clock_screens_their_figures_stand(display, tournament, td, now):
    """A move changes who sits where, not the field: the clock screen is told its figures
    stand (nothing rendered for it, nothing for it to fetch), while a one-page seating
    board still gets the board with the player's new seat."""
    board = await database_sync_to_async(DisplayScreen.objects.create)(
        tournament=tournament, name="Board", kind=DisplayScreen.Kind.SEATING
    )
    registration = await database_sync_to_async(_register)(tournament, td, now)
    sockets = []
    for token in (display.token, board.token):
        socket = await _screen(token)
        sockets.append(socket)
    seat = 1 if registration.seat != 1 else 2

    def move() -> None:
        seat_services.seat_move(
            tournament=tournament,
            entry=registration.entry,
            table_number=registration.table,
            seat=seat,
            actor=td,
            now=now,
        )

    await database_sync_to_async(move)()
    for socket in sockets:
        push = await socket.receive_json_from(timeout=5)
        assert push["type"] == "move" and push["same_figures"] is True
        assert "figures" not in push["fragments"]
        rows = _text(push["fragments"]["board"]["en"])
        assert f"Bianchi Anna Table {registration.table} · Seat {seat}" in rows
        await socket.disconnect()


@pytest.mark.fast_path(
    "fragments rendered only for groups heard (tournaments/realtime.py, `listening`)"
)
async def test_a_move_brings_the_seat_list_of_each_table_with_a_tablet_and_no_other(
    tournament, td, now
):
    """A move names both its tables; the one with a tablet listening gets its new list in
    the push, the one with nobody listening gets nothing rendered (the room has a tablet,
    so one trip to the channel layer asks about both tables)."""
    registration = await database_sync_to_async(_register)(tournament, td, now)
    other = next(n for n in (1, 2, 3, 4) if n != registration.table)
    tablet = await database_sync_to_async(DisplayScreen.objects.create)(
        tournament=tournament, name="Tablet", kind=DisplayScreen.Kind.TABLE, table_number=other
    )
    socket = await _screen(tablet.token)

    def move() -> None:
        seat_services.seat_move(
            tournament=tournament,
            entry=registration.entry,
            table_number=other,
            seat=3,
            actor=td,
            now=now,
        )

    await database_sync_to_async(move)()
    push = await socket.receive_json_from(timeout=5)
    while push["type"] != "move":
        push = await socket.receive_json_from(timeout=5)
    assert push["at_tables"] == sorted([registration.table, other])
    lists = push["fragments"]["seats"]
    assert list(lists) == [str(other)]  # the table she left has no tablet: nothing for it
    assert "3 Bianchi Anna" in _text(lists[str(other)]["en"])
    await socket.disconnect()


def test_a_push_naming_several_tables_reads_their_seat_lists_together(tournament, td, now):
    """A break names every table it fills; each tablet gets its own table's list, and the
    lists come in the same few queries for three tables as for one (a table's seats were
    four trips each, all made before the push left)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    registered = [
        entry_services.entry_register(
            tournament=tournament, player=make_player("Anna", f"Player{i}"), actor=td, now=now
        )
        for i in range(6)
    ]
    placed = {}
    for i, registration in enumerate(registered):  # two players at each of tables 1-3
        number = i // 2 + 1
        taken = Seat.objects.filter(table__tournament=tournament, table__number=number)
        seat = min(set(range(1, 10)) - set(taken.values_list("number", flat=True)))
        seat_services.seat_move(
            tournament=tournament,
            entry=registration.entry,
            table_number=number,
            seat=seat,
            actor=td,
            now=now,
        )
        placed[i] = (str(number), seat)
    with CaptureQueriesContext(connection) as one:
        realtime._seat_lists(tournament, [1])
    with CaptureQueriesContext(connection) as three:
        lists = realtime._seat_lists(tournament, [1, 2, 3])
    assert len(three.captured_queries) == len(one.captured_queries)
    for i, (mine, seat) in placed.items():
        others = {"1", "2", "3"} - {mine}
        assert f"{seat} Player{i} Anna" in _text(lists[mine]["en"])
        assert all(f"Player{i} Anna" not in _text(lists[n]["en"]) for n in others)
    assert "Chiama il tempo" in lists["2"]["it"]
