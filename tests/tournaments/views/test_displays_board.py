"""The seating board is right the moment a player moves."""

from __future__ import annotations

import datetime as dt
import json

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.conftest import NOW, make_player, make_tournament
from tournaments import realtime, selectors
from tournaments.models import DisplayScreen, Entry, Player, Seat, Table
from tournaments.services import entries as entry_services
from tournaments.services import seats as seat_services

pytestmark = pytest.mark.django_db


def test_recent_moves_stay_listed_after_a_reload(client, tournament, td):
    registration = entry_services.entry_register(
        tournament=tournament, player=make_player("Ugo", "Neri"), actor=td, now=NOW
    )
    target = 2 if registration.table == 1 else 1
    seat_services.seat_move(
        tournament=tournament,
        entry=registration.entry,
        table_number=target,
        seat=5,
        actor=td,
        now=NOW,
    )
    screen = DisplayScreen.objects.create(tournament=tournament, name="Board", kind="seating")
    with time_machine.travel(NOW + dt.timedelta(minutes=3), tick=False):
        html = client.get(f"/s/{screen.token}/").content.decode()
    moves = html.split("data-moves")[1].split("</section>")[0]
    assert "Neri Ugo" in moves and f"→ {target} · 5" in moves
    assert "board-moves" in html  # the large type from across the room
    row = html.split(f'data-entry="{registration.entry.pk}"')[1].split("</li>")[0]
    assert f"Table {target} · Seat 5" in row and "data-where" in row
    with time_machine.travel(NOW + dt.timedelta(hours=1), tick=False):
        later = client.get(f"/s/{screen.token}/").content.decode()
    assert "→ " not in later.split("data-moves")[1].split("</section>")[0]


def test_every_seat_push_names_the_entry_so_the_row_updates_from_it(tournament, td, monkeypatch):
    sent = []
    monkeypatch.setattr(realtime, "broadcast", lambda tid, payload, **kw: sent.append(payload))
    registration = entry_services.entry_register(
        tournament=tournament, player=make_player(), actor=td, now=NOW
    )
    target = 2 if registration.table == 1 else 1
    seat_services.seat_move(
        tournament=tournament,
        entry=registration.entry,
        table_number=target,
        seat=3,
        actor=td,
        now=NOW,
    )
    seat_pushes = [json.loads(json.dumps(p)) for p in sent if p["type"] in {"seat", "move"}]
    assert seat_pushes and all(p["entry"] == registration.entry.pk for p in seat_pushes)


def test_the_board_does_not_poll_a_single_page(client, tournament, td):
    entry_services.entry_register(tournament=tournament, player=make_player(), actor=td, now=NOW)
    screen = DisplayScreen.objects.create(tournament=tournament, name="Board", kind="seating")
    html = client.get(f"/s/{screen.token}/").content.decode()
    assert "every 12s" not in html


def test_a_ten_thousand_player_board_pages_with_an_index_in_few_queries(client, td):
    tournament = make_tournament(td, tables=0)
    Table.objects.bulk_create(
        Table(tournament=tournament, number=n, max_seats=9, status=Table.Status.OPEN)
        for n in range(1, 1113)
    )
    tables = list(Table.objects.filter(tournament=tournament).order_by("number"))
    players = Player.objects.bulk_create(
        Player(first_name="P", last_name=f"Surname{n:05d}") for n in range(10_000)
    )
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, number=n + 1, chips=1000, created_at=NOW)
        for n, p in enumerate(players)
    )
    Seat.objects.bulk_create(
        Seat(table=tables[n // 9], number=n % 9 + 1, entry=e, assigned_at=NOW)
        for n, e in enumerate(entries)
    )
    screen = DisplayScreen.objects.create(tournament=tournament, name="Board", kind="seating")
    with CaptureQueriesContext(connection) as queries:
        html = client.get(f"/s/{screen.token}/?page=42").content.decode()
    assert len(queries) < 25
    rows, pages = selectors.seating_page(tournament, page=42)
    assert pages == 84 and len(rows) == 120
    assert "Page 42 of 84" in html
    index = html.split('data-testid="board-index"')[1].split("</ol>")[0]
    assert index.count("<li") == 84 and 'aria-current="page">42: Surname04920' in index


def _board_as_sorted(tournament) -> list[str]:
    """The field as the board always listed it: active players by last name, first name
    (as the database orders them) and entry, read from the players themselves."""
    return [
        f"{last} {first}".strip()
        for last, first in Seat.objects.filter(
            table__tournament=tournament, entry__status=Entry.Status.ACTIVE
        )
        .order_by("entry__player__last_name", "entry__player__first_name", "entry_id")
        .values_list("entry__player__last_name", "entry__player__first_name")
    ]


def _assert_board_is_the_field_sorted(tournament, per_page: int) -> None:
    expected = _board_as_sorted(tournament)
    pages = -(-len(expected) // per_page)
    shown = []
    for page in range(1, pages + 1):
        rows, count, at, index = selectors.seating_board(tournament, page=page, per_page=per_page)
        assert (count, at) == (pages, page)
        shown += [r["name"] for r in rows]
        assert index == [
            {
                "page": n + 1,
                "first": expected[n * per_page].split(" ")[0],
                "last": expected[min((n + 1) * per_page, len(expected)) - 1].split(" ")[0],
            }
            for n in range(pages)
        ]
    assert shown == expected
    assert selectors.seating_board(tournament, page=pages + 5, per_page=per_page)[2] == pages


def test_the_boards_pages_and_index_are_the_field_sorted_by_name_through_renames_and_merges(
    tournament, td
):
    from room.services import people as people_services

    names = ["rossi", "Rossi", "Ròssi", "Àlvarez", "alvarez", "Zeta", "Bianchi", "bianchi"]
    registrations = [
        entry_services.entry_register(
            tournament=tournament,
            player=make_player(first, last),
            actor=td,
            now=NOW,
        )
        for last in names
        for first in ("Ugo", "ugo", "Élia")
    ]
    entry_services.entry_eliminate(
        tournament=tournament, entry=registrations[4].entry, actor=td, now=NOW
    )
    _assert_board_is_the_field_sorted(tournament, per_page=5)
    # A rename moves the player to his new place on the board.
    renamed = registrations[0].entry.player
    people_services.player_update(
        player=renamed, actor=td, fields={"last_name": "Zzz", "first_name": "Ugo"}, now=NOW
    )
    _assert_board_is_the_field_sorted(tournament, per_page=5)
    assert "Zzz Ugo" in _board_as_sorted(tournament)
    # A merge gives the duplicate's seat the kept player's name; its undo gives it back.
    duplicate = registrations[1].entry.player
    kept = make_player("Anna", "Abate")
    merge = people_services.players_merge(source=duplicate, target=kept, actor=td, now=NOW)
    _assert_board_is_the_field_sorted(tournament, per_page=5)
    assert selectors.seating_board(tournament, page=1, per_page=5)[0][0]["name"] == "Abate Anna"
    people_services.undo_merge(event_id=merge.pk, actor=td, now=NOW)
    _assert_board_is_the_field_sorted(tournament, per_page=7)
    # A move keeps the row in place, at its new table.
    moved = registrations[2].entry
    taken = set(
        Seat.objects.filter(table__tournament=tournament).values_list("table__number", "number")
    )
    target, free = min(
        (t.number, n)
        for t in tournament.tables.all()
        for n in range(1, t.max_seats + 1)
        if t.number != registrations[2].table and (t.number, n) not in taken
    )
    seat_services.seat_move(
        tournament=tournament, entry=moved, table_number=target, seat=free, actor=td, now=NOW
    )
    _assert_board_is_the_field_sorted(tournament, per_page=7)
    rows = [
        r
        for p in (1, 2, 3, 4)
        for r in selectors.seating_page(tournament, page=p, per_page=7, with_entry=True)[0]
    ]
    assert [(r["table"], r["seat"]) for r in rows if r["entry"] == moved.pk] == [(target, free)]


def test_a_final_table_redraw_lists_its_newest_moves_on_the_board(client, td):
    from random import Random

    from tests.tournaments.services.test_moves import seat_players
    from tournaments.models import Event
    from tournaments.services import hands as hands_services
    from tournaments.services import moves as room

    tournament = make_tournament(td, tables=3)
    seat_players(tournament, {1: [1, 2, 3], 2: [2, 4, 6], 3: [1, 5, 9]})
    hands_services.buttons_draw(tournament=tournament, actor=td, now=NOW, rng=Random(2))
    applied = room.plan_apply(tournament=tournament, actor=td, now=NOW, rng=Random(5))
    assert applied.kind == "final_table"
    logged = Event.objects.get(action="room.final_table").data["moves"]
    shown = selectors.recent_moves(tournament, NOW + dt.timedelta(minutes=1))
    assert [(m["name"], [m["table"], m["seat"]]) for m in shown] == [
        (m["name"], m["to"]) for m in logged[:12]
    ]
    assert all(m["from_table"] in {1, 2, 3} for m in shown) and shown


@pytest.mark.django_db(transaction=True)
def test_the_board_follows_every_change_of_the_field_as_each_commits(td):
    """Each change is its own committed transaction, as at the desk and on the floor, and
    the board is read between them, as the screens read it: its pages and index follow
    every registration, move, bust-out, rename, merge and undo (the page index is
    kept between changes, per the board's version)."""
    from room.services import people as people_services
    from tournaments.events import event_undo
    from tournaments.models import Event

    tournament = make_tournament(td, tables=6)
    registrations = [
        entry_services.entry_register(
            tournament=tournament, player=make_player(first, last), actor=td, now=NOW
        )
        for last in ("Rossi", "Bianchi", "Colombo", "Esposito", "Ricci", "Marino", "Greco")
        for first in ("Ugo", "Anna", "Élia")
    ]

    def follows() -> None:
        # Twice: once as read after the change, once as kept for it.
        _assert_board_is_the_field_sorted(tournament, per_page=5)
        _assert_board_is_the_field_sorted(tournament, per_page=5)

    follows()
    # A registration seats a newcomer on his page.
    entry_services.entry_register(
        tournament=tournament, player=make_player("Aldo", "Abate"), actor=td, now=NOW
    )
    follows()
    assert selectors.seating_board(tournament, page=1, per_page=5)[0][0]["name"] == "Abate Aldo"
    # A move keeps the row in place, at its new table and seat.
    moved = registrations[3].entry
    taken = set(
        Seat.objects.filter(table__tournament=tournament).values_list("table__number", "number")
    )
    target, free = max(
        (t.number, n)
        for t in tournament.tables.all()
        for n in range(1, t.max_seats + 1)
        if (t.number, n) not in taken
    )
    seat_services.seat_move(
        tournament=tournament, entry=moved, table_number=target, seat=free, actor=td, now=NOW
    )
    follows()
    shown = [
        (r["table"], r["seat"])
        for p in range(1, 6)
        for r in selectors.seating_page(tournament, page=p, per_page=5, with_entry=True)[0]
        if r["entry"] == moved.pk
    ]
    assert shown == [(target, free)]
    # A bust-out leaves the board; its undo seats the player again.
    busted = registrations[0].entry
    entry_services.entry_eliminate(tournament=tournament, entry=busted, actor=td, now=NOW)
    follows()
    assert f"{busted.player.last_name} {busted.player.first_name}" not in _board_as_sorted(
        tournament
    )
    bust = Event.objects.filter(tournament=tournament, action="entry.eliminate").latest("pk")
    event_undo(event_id=bust.pk, tournament=tournament, actor=td, now=NOW)
    follows()
    # A rename moves the player to his new place; a merge and its undo too.
    people_services.player_update(
        player=registrations[5].entry.player,
        actor=td,
        fields={"last_name": "Zanetti", "first_name": "Ugo"},
        now=NOW,
    )
    follows()
    assert selectors.seating_board(tournament, page=5, per_page=5)[0][-1]["name"] == "Zanetti Ugo"
    merge = people_services.players_merge(
        source=registrations[7].entry.player, target=make_player("Anna", "Abate"), actor=td, now=NOW
    )
    follows()
    people_services.undo_merge(event_id=merge.pk, actor=td, now=NOW)
    follows()
    # The move's undo puts the player back where he sat.
    move = Event.objects.filter(tournament=tournament, action="seat.move").latest("pk")
    event_undo(event_id=move.pk, tournament=tournament, actor=td, now=NOW)
    follows()
