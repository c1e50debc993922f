"""The lists on a real evening: a table opens whatever the ticks say, a seat from a list
keeps the list's order, and calls run out (to answer, then to reach the table)."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.urls import reverse

from room.models import CashOut, CashSeat, CashTable, RoomEvent, WaitEntry
from room.services import cash_lists, cash_log, cash_seats, cash_settings, cash_tables
from room.views.cash_phone import phone_token
from tests.conftest import NOW, make_cash_game, make_player, make_room_user
from tournaments.models import RoomRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager(db):
    return make_room_user("flowmanager", RoomRole.MANAGER)


@pytest.fixture
def room_floor(db):
    return make_room_user("flowfloor", RoomRole.CASH)


@pytest.fixture
def nl(manager):
    return make_cash_game(manager, sb=1, bb=2, min_buy_in=100)


@pytest.fixture
def plo(manager):
    return make_cash_game(manager, variant="Omaha", structure="pot_limit", sb=1, bb=2)


def listed(game, names, actor, *, at=NOW):
    players = []
    for name in names:
        player = make_player(name, "Rossi")
        cash_lists.list_add(actor=actor, player=player, games=[game], present=True, now=at)
        players.append(player)
    return players


def on_list(game):
    return [e.player.first_name for e in WaitEntry.objects.filter(game=game).order_by("position")]


def opened(game, number, players, actor, *, seed=1):
    return cash_tables.table_open(
        actor=actor,
        game=game,
        number=number,
        present={p.pk for p in players},
        now=NOW,
        rng=random.Random(seed),
    )


def free_seat(table):
    return next(s for s in range(1, 10) if not table.seats.filter(number=s).exists())


def checkbox(html, game, player):
    section = html.split(f'data-testid="game-{game.pk}"', 1)[1]
    match = re.search(rf'<input type="checkbox" name="present" value="{player.pk}"[^>]*>', section)
    assert match, f"no checkbox for {player}"
    return match.group(0)


# --- opening a table never crashes ------------------------------------------------------


def test_opening_a_table_with_a_player_already_playing_is_refused_in_words(
    client, room_floor, nl, plo
):
    anna, bruno = listed(nl, ["Anna", "Bruno"], room_floor)
    # Anna and Bruno also wait for the Omaha game, as Carla and Dario do.
    for player in (anna, bruno):
        cash_lists.list_add(actor=room_floor, player=player, games=[plo], present=True, now=NOW)
    carla, dario = listed(plo, ["Carla", "Dario"], room_floor)
    opened(nl, 1, [anna, bruno], room_floor)
    client.force_login(room_floor)
    html = client.get(reverse("cash_board")).content.decode()
    # The Omaha list says where Anna plays, and the opening form does not tick her.
    assert 'data-testid="playing-%d"' % anna.pk in html
    assert "plays at table 1 (NL Hold&#x27;em 1/2)" in html
    assert "checked" not in checkbox(html, plo, anna)
    assert "checked" in checkbox(html, plo, carla)
    # Ticked anyway: a message, not a 500, and nothing is written.
    response = client.post(
        reverse("cash_table_open", args=[plo.pk]),
        {"number": 2, "present": [anna.pk, bruno.pk, carla.pk, dario.pk]},
        follow=True,
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "already playing: Rossi Anna at table 1 (NL Hold&#x27;em 1/2)" in page
    assert "Rossi Bruno at table 1" in page
    assert not CashTable.objects.filter(number=2).exists()
    assert CashSeat.objects.get(player=anna).table.number == 1
    # With the form's own ticks the table opens with those not playing.
    response = client.post(
        reverse("cash_table_open", args=[plo.pk]),
        {"number": 2, "present": [carla.pk, dario.pk]},
        follow=True,
    )
    assert "Table 2 is open" in response.content.decode()
    assert on_list(plo) == ["Anna", "Bruno"]


def test_opening_refusal_in_italian(client, room_floor, nl, plo):
    anna, bruno = listed(nl, ["Anna", "Bruno"], room_floor)
    cash_lists.list_add(actor=room_floor, player=anna, games=[plo], present=True, now=NOW)
    (carla,) = listed(plo, ["Carla"], room_floor)
    opened(nl, 1, [anna, bruno], room_floor)
    client.force_login(room_floor)
    html = client.get(reverse("cash_board"), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "gioca al tavolo 1" in html
    response = client.post(
        reverse("cash_table_open", args=[plo.pk]),
        {"number": 2, "present": [anna.pk, carla.pk]},
        HTTP_ACCEPT_LANGUAGE="it",
        follow=True,
    )
    assert "stanno già giocando: Rossi Anna al tavolo 1" in response.content.decode()


# --- seating from a list respects the list ----------------------------------------------


def test_seating_out_of_list_order_asks_for_a_reason_and_logs_it(client, room_floor, nl):
    anna, bruno = listed(nl, ["Anna", "Bruno"], room_floor)
    table = opened(nl, 1, [anna, bruno], room_floor)
    carla, dario, elena, fabio = listed(nl, ["Carla", "Dario", "Elena", "Fabio"], room_floor)
    called = cash_lists.list_call(actor=room_floor, table=table, seat=free_seat(table), now=NOW)
    assert called.player == carla
    other = next(
        s
        for s in range(1, 10)
        if s not in {called.called_seat, *table.seats.values_list("number", flat=True)}
    )
    client.force_login(room_floor)
    fabio_entry = WaitEntry.objects.get(player=fabio)
    response = client.post(
        reverse("cash_entry_seat", args=[fabio_entry.pk]),
        {"table": table.pk, "seat": other, "buy_in": 100},
        follow=True,
    )
    page = response.content.decode()
    assert "Rossi Dario, Rossi Elena come before Rossi Fabio on the list" in page
    assert not CashSeat.objects.filter(player=fabio).exists()
    # The board asks for the reason where it would be needed, not for the next in order.
    assert f'action="{reverse("cash_entry_seat", args=[fabio_entry.pk])}"' in page
    response = client.post(
        reverse("cash_entry_seat", args=[fabio_entry.pk]),
        {"table": table.pk, "seat": other, "buy_in": 100, "reason": "Dario and Elena at dinner"},
        follow=True,
    )
    assert "Rossi Fabio sits at table 1" in response.content.decode()
    event = RoomEvent.objects.filter(action="cash.seat").latest("pk")
    assert event.data["out_of_order"] == {
        "jumped": [dario.pk, elena.pk],
        "reason": "Dario and Elena at dinner",
    }
    # Dario is next (Carla is being called): no reason asked.
    third = next(
        s
        for s in range(1, 10)
        if s not in {called.called_seat, *table.seats.values_list("number", flat=True)}
    )
    seat = cash_seats.seat_player(
        actor=room_floor,
        entry=WaitEntry.objects.get(player=dario),
        table=table,
        seat=third,
        buy_in=100,
        now=NOW,
    )
    assert seat.player == dario
    assert RoomEvent.objects.filter(action="cash.seat").latest("pk").data["out_of_order"] is None


def test_a_player_seated_in_another_game_leaves_it_with_his_stake(client, room_floor, nl, plo):
    anna, bruno, carla = listed(nl, ["Anna", "Bruno", "Carla"], room_floor)
    nl_table = opened(nl, 1, [anna, bruno, carla], room_floor)
    cash_lists.list_add(actor=room_floor, player=anna, games=[plo], present=True, now=NOW)
    dario, elena = listed(plo, ["Dario", "Elena"], room_floor)
    plo_table = opened(plo, 2, [dario, elena], room_floor, seed=2)
    entry = WaitEntry.objects.get(player=anna, game=plo)
    client.force_login(room_floor)
    html = client.get(reverse("cash_board")).content.decode()
    assert 'name="leaving_stack"' in html
    response = client.post(
        reverse("cash_entry_seat", args=[entry.pk]),
        {"table": plo_table.pk, "seat": free_seat(plo_table), "buy_in": 200},
        follow=True,
    )
    assert (
        "Rossi Anna at table 1 (NL Hold&#x27;em 1/2): give the stake he leaves that table with"
        in (response.content.decode())
    )
    assert CashSeat.objects.get(player=anna).table == nl_table
    assert not CashOut.objects.exists()
    response = client.post(
        reverse("cash_entry_seat", args=[entry.pk]),
        {
            "table": plo_table.pk,
            "seat": free_seat(plo_table),
            "buy_in": 200,
            "leaving_stack": 350,
        },
        follow=True,
    )
    assert "Rossi Anna sits at table 2" in response.content.decode()
    assert CashSeat.objects.get(player=anna).table == plo_table
    cash_out = CashOut.objects.get()
    assert (cash_out.player, cash_out.game, cash_out.stack) == (anna, nl, 350)
    left = RoomEvent.objects.filter(action="cash.seat").latest("pk").data["left"]
    assert (left["table"], left["stack"]) == (1, 350)
    # Undone: back at table 1, and the cash-out is gone with it.
    client.post(reverse("cash_undo", args=[RoomEvent.objects.latest("pk").pk]))
    assert CashSeat.objects.get(player=anna).table == nl_table
    assert not CashOut.objects.exists()


# --- calls run out ----------------------------------------------------------------------


@pytest.fixture
def one_minute(manager):
    cash_settings.room_settings_save(actor=manager, values={"answer_minutes": 1}, now=NOW)


def _called(nl, floor):
    anna, bruno, carla, dario = listed(nl, ["Anna", "Bruno", "Carla", "Dario"], floor)
    table = opened(nl, 1, [anna, bruno], floor)
    entry = cash_lists.list_call(actor=floor, table=table, seat=free_seat(table), now=NOW)
    assert entry.player == carla
    return table, entry, carla


def test_coming_after_the_answer_time_is_refused(client, room_floor, nl, one_minute, frozen_clock):
    _table, entry, carla = _called(nl, room_floor)
    token = phone_token(carla)
    frozen_clock.move_to(NOW + timedelta(minutes=2))
    html = client.get(reverse("cash_phone", args=[token])).content.decode()
    assert "The time to answer has run out: ask the floor." in html
    assert 'value="yes"' not in html
    response = client.post(
        reverse("cash_phone_answer", args=[token, entry.pk]), {"takes_seat": "yes"}, follow=True
    )
    assert "the time to answer ran out at 19:01" in response.content.decode()
    entry.refresh_from_db()
    assert not entry.coming
    # The floor sends him down the list.
    client.force_login(room_floor)
    board = client.get(reverse("cash_board")).content.decode()
    assert f'data-testid="to-bottom-{carla.pk}"' in board
    client.post(reverse("cash_entry_no_answer", args=[entry.pk]))
    assert on_list(nl) == ["Dario", "Carla"]


def test_answer_exactly_at_the_limit_is_in_time(room_floor, nl, one_minute):
    _table, entry, _carla = _called(nl, room_floor)
    cash_lists.list_answer(actor=None, entry=entry, takes_seat=True, now=NOW + timedelta(minutes=1))
    entry.refresh_from_db()
    assert entry.coming and entry.coming_at == NOW + timedelta(minutes=1)


def test_a_player_who_said_coming_and_never_came_goes_to_the_bottom(
    client, room_floor, nl, frozen_clock
):
    _table, entry, carla = _called(nl, room_floor)
    cash_lists.list_answer(actor=None, entry=entry, takes_seat=True, now=NOW + timedelta(minutes=5))
    client.force_login(room_floor)
    frozen_clock.move_to(NOW + timedelta(minutes=10))
    board = client.get(reverse("cash_board")).content.decode()
    # On his way: the board counts down the time left to reach the table (15 minutes).
    countdown = re.search(rf'data-countdown="(\d+)" data-testid="call-countdown-{carla.pk}"', board)
    assert countdown and 590 <= int(countdown.group(1)) <= 600
    assert f'data-testid="to-bottom-{carla.pk}"' not in board
    response = client.post(reverse("cash_entry_no_answer", args=[entry.pk]), follow=True)
    assert "the time to reach the table has not run out yet" in response.content.decode()
    assert on_list(nl)[0] == "Carla"
    frozen_clock.move_to(NOW + timedelta(minutes=21))
    board = client.get(reverse("cash_board")).content.decode()
    assert "Did not come: to the bottom" in board
    client.post(reverse("cash_entry_no_answer", args=[entry.pk]))
    assert on_list(nl) == ["Dario", "Carla"]
    entry.refresh_from_db()
    assert (entry.called_at, entry.coming, entry.coming_at) == (None, False, None)


def test_the_floor_skips_a_called_name_who_keeps_his_place(client, room_floor, nl):
    table, entry, carla = _called(nl, room_floor)
    seat = entry.called_seat
    client.force_login(room_floor)
    response = client.post(reverse("cash_entry_skip", args=[entry.pk]), follow=True)
    page = response.content.decode()
    assert "Rossi Carla keeps his place on the list." in page
    assert f"Rossi Dario is called for table 1 seat {seat}." in page
    assert on_list(nl) == ["Carla", "Dario"]
    dario = WaitEntry.objects.get(player__first_name="Dario")
    assert (dario.called_table, dario.called_seat) == (1, seat)
    entry.refresh_from_db()
    assert entry.called_at is None
    # Dario skipped in turn: the seat goes back to the top name, Carla.
    client.post(reverse("cash_entry_skip", args=[dario.pk]))
    entry.refresh_from_db()
    assert (entry.called_table, entry.called_seat) == (1, seat)
    # Nobody else to call: the seat stays free, said in words.
    cash_lists.list_remove(actor=room_floor, entry=dario, now=NOW)
    response = client.post(reverse("cash_entry_skip", args=[entry.pk]), follow=True)
    assert "Nobody else on the list can take the seat now." in response.content.decode()
    assert seat in cash_lists.free_seats(table)


def test_a_seat_given_twice_at_once_is_refused_in_words(room_floor, nl, monkeypatch):
    """Two tabs: both pass the free-seat check before either writes. The database's
    constraint refuses the second write, and the floor reads why."""
    anna, bruno, carla = listed(nl, ["Anna", "Bruno", "Carla"], room_floor)
    table = opened(nl, 1, [anna, bruno], room_floor)
    taken = table.seats.get(player=anna).number
    monkeypatch.setattr(cash_seats, "_check_seat_free", lambda *args, **kwargs: None)
    with pytest.raises(cash_log.CashRefused, match="just taken by another action"):
        cash_seats.seat_player(
            actor=room_floor,
            entry=WaitEntry.objects.get(player=carla),
            table=table,
            seat=taken,
            buy_in=100,
            now=NOW,
        )
    with pytest.raises(cash_log.CashRefused, match=f"seat {taken} is taken"):
        cash_seats.seat_move(
            actor=room_floor,
            seat=table.seats.get(player=bruno),
            to_table=table,
            to_seat=taken,
            by_house=False,
            now=NOW,
        )
    assert table.seats.get(number=taken).player == anna
    assert WaitEntry.objects.filter(player=carla).exists()
