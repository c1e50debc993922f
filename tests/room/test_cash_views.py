"""The cash room through its pages: a cash evening at the floor's board, the public screens,
undo, refusals shown as messages, and who may do what (room-level TD, floor, desk)."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.core import signing
from django.urls import reverse
from django.utils import timezone

from room.models import CashGame, CashSeat, CashTable, RakeRecord, RoomEvent, WaitEntry
from room.selectors import books as night_reads
from room.selectors import cash as cash_reads
from room.services import books as night_services
from room.services import cash_lists, cash_log, cash_rake, cash_seats, cash_settings, cash_tables
from room.views.cash_phone import PHONE_SALT, phone_token
from tests.conftest import NOW, make_cash_game, make_player, make_room_user
from tournaments.models import RoomRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def room_td(db):
    return make_room_user("roomtd", RoomRole.MANAGER)


@pytest.fixture
def room_floor(db):
    return make_room_user("roomfloor", RoomRole.CASH)


@pytest.fixture
def room_desk(db):
    """A second person of the cash-room floor, who puts names on the lists."""
    return make_room_user("roomdesk", RoomRole.CASH)


@pytest.fixture
def room_books(db):
    """The cashier: counts the rake, never works the tables."""
    return make_room_user("roombooks", RoomRole.BOOKS)


@pytest.fixture
def game(room_td):
    return make_cash_game(room_td)


def listed(game, names, actor, *, at=NOW):
    players = []
    for name in names:
        player = make_player(name)
        cash_lists.list_add(actor=actor, player=player, games=[game], present=True, now=at)
        players.append(player)
    return players


def names_on_list(game):
    return [e.player.first_name for e in WaitEntry.objects.filter(game=game).order_by("position")]


def test_the_td_defines_a_game_from_the_board(client, room_td):
    client.force_login(room_td)
    response = client.post(
        reverse("cash_game_add"),
        {
            "variant": "Omaha",
            "structure": "pot_limit",
            "sb": 5,
            "bb": 10,
            "min_buy_in": 500,
            "max_seats": 9,
            "rake_percent": "5",
            "rake_cap": 30,
            "active": "on",
        },
        follow=True,
    )
    assert "Game PL Omaha 5/10 added." in response.content.decode()
    assert CashGame.objects.get().min_buy_in == 500


@pytest.mark.parametrize("pk", ["9" * 30, "٣"])
def test_a_list_or_a_player_chosen_by_an_id_that_is_none_is_refused(client, room_floor, game, pk):
    """An id too big for the database was a 500 on SQLite (which cannot even compare it);
    an id in other digits named a row. Both are refused in Django's words for no id."""
    players = listed(game, ["Anna", "Bruno"], room_floor)
    client.force_login(room_floor)
    before = list(WaitEntry.objects.values())
    added = client.post(
        reverse("cash_list_add"),
        {"find": "Anna", "player": players[0].pk, "games": [pk], "present": "on"},
        follow=True,
    )
    assert f"“{pk}” is not a valid value." in added.content.decode()
    opened = client.post(
        reverse("cash_table_open", args=[game.pk]),
        {"number": 3, "present": [players[0].pk, pk]},
        follow=True,
    )
    assert f"“{pk}” is not a valid value." in opened.content.decode()
    assert list(WaitEntry.objects.values()) == before and not CashTable.objects.exists()


def test_a_bad_game_is_refused_with_a_message(client, room_td):
    client.force_login(room_td)
    response = client.post(
        reverse("cash_game_add"),
        {
            "variant": "x",
            "structure": "no_limit",
            "sb": 5,
            "bb": 2,
            "min_buy_in": 1,
            "max_seats": 12,
            "rake_percent": "5",
            "active": "on",
        },
        follow=True,
    )
    assert response.status_code == 200
    assert "A cash table has 2 to 10 seats." in response.content.decode()
    assert not CashGame.objects.exists()


def test_desk_adds_a_present_player_to_several_lists(client, room_desk, game, room_td):
    other = cash_settings.game_save(
        actor=room_td,
        game=None,
        values={**{f: getattr(game, f) for f in cash_settings.GAME_FIELDS}, "sb": 5, "bb": 10},
        now=NOW,
    )
    client.force_login(room_desk)
    response = client.post(
        reverse("cash_list_add"),
        {
            "first_name": "Laura",
            "last_name": "Bianchi",
            "card": "C-77",
            "create": "on",
            "games": [game.pk, other.pk],
            "present": "on",
        },
        follow=True,
    )
    assert "is on the list" in response.content.decode()
    assert names_on_list(game) == ["Laura"] and names_on_list(other) == ["Laura"]
    # Asked again by card: already on the list, nothing changes.
    response = client.post(
        reverse("cash_list_add"), {"find": "C-77", "games": [game.pk], "present": "on"}, follow=True
    )
    assert "already on this list" in response.content.decode()
    assert WaitEntry.objects.count() == 2


def test_a_name_is_added_only_with_the_player_present(client, room_desk, game):
    client.force_login(room_desk)
    response = client.post(
        reverse("cash_list_add"),
        {"first_name": "Carla", "create": "on", "games": [game.pk]},
        follow=True,
    )
    assert "must be here in person" in response.content.decode()
    assert not WaitEntry.objects.exists()


def test_a_cash_evening(client, room_floor, room_desk, game):
    players = listed(game, ["Anna", "Bruno", "Carla", "Dario", "Elena"], room_desk)
    client.force_login(room_floor)
    absent = players[2]
    present = [p.pk for p in players if p != absent]
    # The table opens from the list: Carla is not here and keeps her place.
    response = client.post(
        reverse("cash_table_open", args=[game.pk]), {"number": 4, "present": present}, follow=True
    )
    assert "Table 4 is open" in response.content.decode()
    table = CashTable.objects.get(number=4)
    assert table.seats.count() == 4 and names_on_list(game) == ["Carla"]
    assert table.button in set(table.seats.values_list("number", flat=True))
    # More names, then a free seat is called: the top name, Carla.
    listed(game, ["Fabio", "Giulia"], room_desk)
    free = next(s for s in range(1, 10) if not table.seats.filter(number=s).exists())
    response = client.post(reverse("cash_table_call", args=[table.pk]), {"seat": free}, follow=True)
    assert "Carla" in response.content.decode() and "is called" in response.content.decode()
    entry = WaitEntry.objects.get(player=absent)
    assert (entry.called_table, entry.called_seat) == (4, free)
    # She answers in time and is seated with a buy-in below the minimum: refused, then fine.
    client.post(reverse("cash_entry_answer", args=[entry.pk]), {"takes_seat": "yes"})
    response = client.post(
        reverse("cash_entry_seat", args=[entry.pk]),
        {"table": table.pk, "seat": free, "buy_in": 150},
        follow=True,
    )
    assert "below the minimum buy-in" in response.content.decode()
    client.post(
        reverse("cash_entry_seat", args=[entry.pk]),
        {"table": table.pk, "seat": free, "buy_in": 300},
    )
    assert CashSeat.objects.get(player=absent).buy_in == 300
    # A second table of the game opens (Fabio, Giulia); a seat change request at the main
    # table takes a freed seat before the list.
    client.post(
        reverse("cash_table_open", args=[game.pk]),
        {"number": 5, "present": list(WaitEntry.objects.values_list("player_id", flat=True))},
    )
    t5 = CashTable.objects.get(number=5)
    mover = t5.seats.order_by("seated_order").first()
    client.post(reverse("cash_seat_request", args=[mover.pk]), {"request": "main_table"})
    leaver = table.seats.exclude(player=absent).first()
    freed = leaver.number
    client.post(reverse("cash_seat_leave", args=[leaver.pk]))
    response = client.post(
        reverse("cash_table_fill", args=[table.pk]), {"seat": freed}, follow=True
    )
    assert "Moved by priority" in response.content.decode()
    mover.refresh_from_db()
    assert (mover.table.number, mover.number, mover.status) == (4, freed, "new_player")
    # Table 5 closes: its player goes back on top of the list.
    listed(game, ["Ivo"], room_desk)
    client.post(reverse("cash_table_close", args=[t5.pk]))
    assert names_on_list(game)[0] == "Giulia" and names_on_list(game)[-1] == "Ivo"
    assert WaitEntry.objects.get(player__first_name="Giulia").from_closed_table
    # Undo the closing: table 5 is back with its player, the list as before.
    close = RoomEvent.objects.filter(action="cash.close").get()
    client.post(reverse("cash_undo", args=[close.pk]))
    t5.refresh_from_db()
    assert t5.status == "open" and t5.seats.count() == 1 and names_on_list(game) == ["Ivo"]
    # The board and the public board show it.
    html = client.get(reverse("cash_board")).content.decode()
    assert 'data-testid="table-4"' in html and "Ivo" in html
    client.logout()
    brush = client.get(reverse("cash_brush")).content.decode()
    assert "NL Hold&#x27;em 2/5" in brush and "Ivo" in brush and "T4 5/9" in brush


def test_undo_is_refused_when_a_later_action_changed_the_game(client, room_floor, room_desk, game):
    listed(game, ["Anna"], room_desk)
    listed(game, ["Bruno"], room_desk)
    first = RoomEvent.objects.filter(action="cash.list_add").order_by("pk").first()
    client.force_login(room_floor)
    response = client.post(reverse("cash_undo", args=[first.pk]), follow=True)
    assert "undo that first" in response.content.decode()
    assert names_on_list(game) == ["Anna", "Bruno"]


def test_no_answer_goes_to_the_bottom_only_after_the_call_window(
    client, room_floor, room_desk, game
):
    listed(game, ["Anna", "Bruno", "Carla", "Dario"], room_desk)
    table = cash_tables.table_open(
        actor=room_floor,
        game=game,
        number=1,
        present=set(
            WaitEntry.objects.filter(player__first_name__in=["Anna", "Bruno"]).values_list(
                "player_id", flat=True
            )
        ),
        now=NOW,
        rng=random.Random(1),
    )
    free = next(s for s in range(1, 10) if not table.seats.filter(number=s).exists())
    entry = cash_lists.list_call(actor=room_floor, table=table, seat=free, now=NOW)
    assert entry.player.first_name == "Carla"
    client.force_login(room_floor)
    response = client.post(reverse("cash_entry_no_answer", args=[entry.pk]), follow=True)
    assert "has not run out yet" in response.content.decode()
    cash_lists.list_no_answer(actor=room_floor, entry=entry, now=NOW + timedelta(minutes=16))
    assert names_on_list(game) == ["Dario", "Carla"]


def test_phone_shows_the_seat_ready_and_the_player_answers(client, room_floor, room_desk, game):
    anna, bruno, carla = listed(game, ["Anna", "Bruno", "Carla"], room_desk)
    table = cash_tables.table_open(
        actor=room_floor,
        game=game,
        number=2,
        present={anna.pk, bruno.pk},
        now=NOW,
        rng=random.Random(3),
    )
    free = next(s for s in range(1, 10) if not table.seats.filter(number=s).exists())
    entry = cash_lists.list_call(actor=room_floor, table=table, seat=free, now=NOW)
    token = phone_token(carla)
    html = client.get(reverse("cash_phone", args=[token])).content.decode()
    assert f"Your seat is ready: table 2 seat {free} — answer within 15 minutes" in html
    assert 'data-testid="countdown"' in html
    client.post(reverse("cash_phone_answer", args=[token, entry.pk]), {"takes_seat": "yes"})
    entry.refresh_from_db()
    assert entry.coming
    assert client.get(reverse("cash_phone", args=["forged"])).status_code == 404


def test_phone_in_italian(client, room_floor, room_desk, game):
    anna, bruno, carla = listed(game, ["Anna", "Bruno", "Carla"], room_desk)
    table = cash_tables.table_open(
        actor=room_floor,
        game=game,
        number=2,
        present={anna.pk, bruno.pk},
        now=NOW,
        rng=random.Random(3),
    )
    free = next(s for s in range(1, 10) if not table.seats.filter(number=s).exists())
    cash_lists.list_call(actor=room_floor, table=table, seat=free, now=NOW)
    html = client.get(
        reverse("cash_phone", args=[phone_token(carla)]), HTTP_ACCEPT_LANGUAGE="it"
    ).content.decode()
    assert f"Il tuo posto è pronto: tavolo 2 posto {free} — rispondi entro 15 minuti" in html
    assert "Le tue liste" in html


def test_a_phone_link_works_for_one_evening(client, room_desk, game, frozen_clock):
    """The signed link had no expiry: the same link opened the player's page forever."""
    (carla,) = listed(game, ["Carla"], room_desk)
    entry = WaitEntry.objects.get(player=carla)
    token = phone_token(carla)
    frozen_clock.move_to(NOW + timedelta(hours=10))  # 05:00 in the room: still the evening
    assert client.get(reverse("cash_phone", args=[token])).status_code == 200
    frozen_clock.move_to(NOW + timedelta(hours=12))  # 07:00: the gaming day starts at 06:00
    response = client.get(reverse("cash_phone", args=[token]))
    assert response.status_code == 410
    assert "This link has expired" in response.content.decode()
    assert "Carla" not in response.content.decode()
    answer = client.post(reverse("cash_phone_answer", args=[token, entry.pk]), {"takes_seat": "no"})
    assert answer.status_code == 410
    entry.refresh_from_db()
    assert entry.locked_out_until is None
    italian = client.get(reverse("cash_phone", args=[token]), HTTP_ACCEPT_LANGUAGE="it")
    assert "Questo link è scaduto" in italian.content.decode()
    polled = client.get(reverse("cash_phone", args=[token]), HTTP_HX_REQUEST="true")
    assert polled.status_code == 410 and polled["HX-Refresh"] == "true"  # the phone reloads
    assert client.get(reverse("cash_phone", args=[phone_token(carla)])).status_code == 200


def test_a_new_phone_link_turns_the_old_one_off(client, room_floor, room_desk, game, td):
    (carla,) = listed(game, ["Carla"], room_desk)
    old = phone_token(carla)
    client.force_login(room_floor)
    client.post(reverse("cash_phone_link_new", args=[carla.pk]))
    gone = client.get(reverse("cash_phone", args=[old]))
    assert gone.status_code == 410 and "Ask the floor for a new link" in gone.content.decode()
    board = client.get(reverse("cash_board")).content.decode()
    link = re.search(r'href="([^"]+)" data-testid="phone-%d"' % carla.pk, board).group(1)
    assert client.get(link).status_code == 200 and link != reverse("cash_phone", args=[old])
    logged = RoomEvent.objects.get(action="cash.phone_link")
    assert (logged.actor, logged.data["player"]) == (room_floor, carla.pk)
    assert "New phone link" in board
    # A player the cash room does not hold is not found; an event's TD holds no room role.
    assert client.post(reverse("cash_phone_link_new", args=[make_player().pk])).status_code == 404
    client.force_login(td)
    assert client.post(reverse("cash_phone_link_new", args=[carla.pk])).status_code == 403
    assert RoomEvent.objects.filter(action="cash.phone_link").count() == 1


def test_the_cash_pages_refresh_on_the_rooms_pushes_and_never_poll(
    client, room_floor, room_desk, game
):
    anna, bruno, carla = listed(game, ["Anna", "Bruno", "Carla"], room_desk)
    table = cash_tables.table_open(
        actor=room_floor,
        game=game,
        number=2,
        present={anna.pk, bruno.pk},
        now=NOW,
        rng=random.Random(3),
    )
    pages = [reverse("cash_brush"), reverse("cash_phone", args=[phone_token(carla)])]
    client.force_login(room_floor)
    pages += [reverse("cash_board"), reverse("cash_tablet", args=[table.pk])]
    for url in pages:
        html = client.get(url).content.decode()
        triggers = re.findall(r'hx-trigger="([^"]*)"', html)
        assert "cash from:body" in triggers, url
        assert not [t for t in triggers if "every" in t], (url, triggers)


def test_brush_board_uses_initials_when_the_room_says_so(client, room_desk, game):
    listed(game, ["Anna"], room_desk)
    room = cash_reads.cash_room()
    room.public_name_format = "initials"
    room.save()
    html = client.get(reverse("cash_brush"), HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in html and "A.R." in html


def test_sit_out_and_markers_on_the_tablet(client, room_floor, room_desk, game):
    players = listed(game, ["Anna", "Bruno", "Carla"], room_desk)
    table = cash_tables.table_open(
        actor=room_floor,
        game=game,
        number=3,
        present={p.pk for p in players[:2]},
        now=NOW,
        rng=random.Random(5),
    )
    seat = table.seats.first()
    client.force_login(room_floor)
    client.post(reverse("cash_seat_sit_out", args=[seat.pk]), {"next": "tablet", "table": table.pk})
    client.post(reverse("cash_seat_marker", args=[seat.pk]))
    seat.refresh_from_db()
    assert seat.sit_out_until is not None and seat.markers == 1
    html = client.get(reverse("cash_tablet", args=[table.pk])).content.decode()
    assert "1 missed-blind marker" in html and "data-countdown" in html
    # A second sit-out the same day is refused.
    client.post(reverse("cash_seat_sit_back", args=[seat.pk]))
    response = client.post(reverse("cash_seat_sit_out", args=[seat.pk]), follow=True)
    assert "sit-out of today is used" in response.content.decode()


@pytest.mark.parametrize(
    ("who", "url", "allowed"),
    [
        ("room_td", "cash_game_add", True),
        ("room_floor", "cash_game_add", False),
        ("room_desk", "cash_game_add", False),
        ("outsider", "cash_game_add", False),
        ("room_desk", "cash_list_add", True),
        ("room_floor", "cash_list_add", True),
        ("outsider", "cash_list_add", False),
        ("room_floor", "cash_table_open", True),
        ("room_books", "cash_table_open", False),
        ("room_books", "cash_list_add", False),
        ("outsider", "cash_table_open", False),
    ],
)
def test_permission_matrix(client, request, game, who, url, allowed):
    user = request.getfixturevalue(who)
    client.force_login(user)
    args = [game.pk] if url == "cash_table_open" else []
    response = client.post(reverse(url, args=args), {})
    assert (response.status_code != 403) is allowed


@pytest.mark.parametrize("who", ["room_td", "room_floor"])
def test_every_cash_role_sees_the_board(client, request, who):
    client.force_login(request.getfixturevalue(who))
    assert client.get(reverse("cash_board")).status_code == 200


def test_tournament_staff_without_a_room_role_sees_no_cash_board(client, floor):
    client.force_login(floor)
    assert client.get(reverse("cash_board")).status_code == 403
    assert client.get(reverse("cash_rake_report")).status_code == 403


def test_the_books_cannot_seat_move_or_undo(client, room_desk, room_books, room_floor, game):
    players = listed(game, ["Anna", "Bruno"], room_desk)
    table = cash_tables.table_open(
        actor=room_floor,
        game=game,
        number=7,
        present={p.pk for p in players},
        now=NOW,
        rng=random.Random(2),
    )
    seat = table.seats.first()
    client.force_login(room_books)
    assert client.post(reverse("cash_seat_leave", args=[seat.pk])).status_code == 403
    assert client.post(reverse("cash_table_close", args=[table.pk])).status_code == 403
    event = RoomEvent.objects.filter(action="cash.open").get()
    assert client.post(reverse("cash_undo", args=[event.pk])).status_code == 403
    assert CashSeat.objects.count() == 2


def test_a_closed_nights_rake_changes_no_more(
    client, room_floor, room_desk, room_books, game, tournament
):
    """A closed night (a tournament and the cash room) still took rake, and the rake's undo
    changed its books silently."""
    players = listed(game, ["Anna", "Bruno"], room_desk)
    table = cash_tables.table_open(
        actor=room_floor,
        game=game,
        number=8,
        present={p.pk for p in players},
        now=NOW,
        rng=random.Random(4),
    )
    cash_rake.rake_record(
        actor=room_floor, table=table, pot=200, flop_dealt=True, dealer=None, shift="", now=NOW
    )
    night = timezone.localdate(NOW)
    night_services.night_close(night=night, actor=room_books, now=NOW)
    client.force_login(room_floor)
    hand = {"pot": 400, "flop_dealt": "on"}
    response = client.post(reverse("cash_table_rake", args=[table.pk]), hand, follow=True)
    assert f"The books of {night.isoformat()} are closed" in response.content.decode()
    logged = RoomEvent.objects.get(action="cash.rake")
    response = client.post(reverse("cash_undo", args=[logged.pk]), follow=True)
    assert f"the books of {night.isoformat()} are closed" in response.content.decode()
    assert list(RakeRecord.objects.values_list("rake", flat=True)) == [10]
    assert night_reads.night_books(night)["rake"] == 10
    logged.refresh_from_db()
    assert logged.undone_at is None
    with pytest.raises(cash_rake.BooksClosed):  # the service refuses whoever calls it
        cash_rake.rake_record(
            actor=room_floor, table=table, pot=400, flop_dealt=True, dealer="", shift="", now=NOW
        )
    # Nor does any other cash action of that night come undone.
    opened = RoomEvent.objects.get(action="cash.open")
    response = client.post(reverse("cash_undo", args=[opened.pk]), follow=True)
    assert f"the books of {night.isoformat()} are closed" in response.content.decode()
    assert CashTable.objects.get(pk=table.pk).status == CashTable.Status.OPEN
    # The next night's books are open: its rake is taken.
    tomorrow = NOW + timedelta(days=1)
    cash_rake.rake_record(
        actor=room_floor, table=table, pot=200, flop_dealt=True, dealer="", shift="", now=tomorrow
    )
    assert RakeRecord.objects.count() == 2


def test_kept_apart_players_never_share_a_table(client, room_td, room_floor, room_desk, game):
    anna, bruno, carla, dario = listed(game, ["Anna", "Bruno", "Carla", "Dario"], room_desk)
    for player, card in ((anna, "A-1"), (carla, "C-3")):
        player.document_number = card
        player.save()
    client.force_login(room_td)
    response = client.post(
        reverse("cash_keep_apart"),
        {"card_a": "A-1", "card_b": "C-3", "reason": "married"},
        follow=True,
    )
    assert "will not sit at the same table" in response.content.decode()
    # The opening passes Carla over (kept apart from Anna); she keeps her place.
    table = cash_tables.table_open(
        actor=room_floor,
        game=game,
        number=1,
        present={anna.pk, bruno.pk, carla.pk, dario.pk},
        now=NOW,
        rng=random.Random(9),
    )
    assert set(table.seats.values_list("player__first_name", flat=True)) == {
        "Anna",
        "Bruno",
        "Dario",
    }
    assert names_on_list(game) == ["Carla"]
    # Seating her there by hand is refused; the call finds nobody.
    entry = WaitEntry.objects.get(player=carla)
    free = next(s for s in range(1, 10) if not table.seats.filter(number=s).exists())
    client.force_login(room_floor)
    response = client.post(
        reverse("cash_entry_seat", args=[entry.pk]),
        {"table": table.pk, "seat": free, "buy_in": 300},
        follow=True,
    )
    assert "keeps this player apart" in response.content.decode()
    response = client.post(reverse("cash_table_call", args=[table.pk]), {"seat": free}, follow=True)
    assert "nobody on the list can take this seat now" in response.content.decode()
    # The pair is private: not on the public board.
    client.logout()
    assert "married" not in client.get(reverse("cash_brush")).content.decode()


def test_second_marker_with_a_list_flags_the_seat_for_the_floor(
    client, room_floor, room_desk, game
):
    players = listed(game, ["Anna", "Bruno", "Carla"], room_desk)
    table = cash_tables.table_open(
        actor=room_floor,
        game=game,
        number=2,
        present={p.pk for p in players[:2]},
        now=NOW,
        rng=random.Random(6),
    )
    seat = table.seats.first()
    client.force_login(room_floor)
    client.post(reverse("cash_seat_marker", args=[seat.pk]))
    flag = f'data-testid="releasable-2-{seat.number}"'
    assert flag not in client.get(reverse("cash_board")).content.decode()
    response = client.post(reverse("cash_seat_marker", args=[seat.pk]), follow=True)
    html = response.content.decode()
    assert "the seat may be released" in html and flag in html
    assert CashSeat.objects.filter(pk=seat.pk).exists()  # the floor decides, not the app


@pytest.mark.parametrize(
    ("language", "words"), [("en", "Added to a list"), ("it", "Aggiunto a una lista")]
)
def test_the_log_reads_as_words(client, room_floor, room_desk, game, language, words):
    listed(game, ["Anna"], room_desk)
    client.force_login(room_floor)
    html = client.get(reverse("cash_board"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert words in html and "cash.list_add" not in html


def test_short_buy_in_once_and_no_rathole_the_same_day(client, room_floor, room_desk, game):
    anna, bruno, carla = listed(game, ["Anna", "Bruno", "Carla"], room_desk)
    table = cash_tables.table_open(
        actor=room_floor,
        game=game,
        number=9,
        present={anna.pk, bruno.pk},
        now=NOW,
        rng=random.Random(8),
    )
    seat = table.seats.get(player=anna)
    client.force_login(room_floor)
    response = client.post(
        reverse("cash_seat_buy", args=[seat.pk]), {"stack": 40, "amount": 100}, follow=True
    )
    assert "buys 100" in response.content.decode()
    response = client.post(
        reverse("cash_seat_buy", args=[seat.pk]), {"stack": 20, "amount": 100}, follow=True
    )
    assert "short buy-in of this session is used" in response.content.decode()
    # Bruno leaves with 900 and lists again: back the same day with 300 is refused.
    bseat = table.seats.get(player=bruno)
    client.post(reverse("cash_seat_leave", args=[bseat.pk]), {"stack": 900})
    cash_lists.list_add(actor=room_desk, player=bruno, games=[game], present=True, now=NOW)
    entry = WaitEntry.objects.get(player=bruno)
    free = next(s for s in range(1, 10) if not table.seats.filter(number=s).exists())
    response = client.post(
        reverse("cash_entry_seat", args=[entry.pk]),
        {"table": table.pk, "seat": free, "buy_in": 300},
        follow=True,
    )
    assert "must come back with at least as much" in response.content.decode()
    # Carla, above him on the list, is not here: seated out of order, with the reason.
    client.post(
        reverse("cash_entry_seat", args=[entry.pk]),
        {"table": table.pk, "seat": free, "buy_in": 900, "reason": "Carla is not here"},
    )
    assert CashSeat.objects.get(player=bruno).buy_in == 900


def test_the_tablet_rakes_a_hand_from_each_seats_chips(client, room_floor, room_desk, game):
    players = listed(game, ["Anna", "Bruno"], room_desk)
    table = cash_tables.table_open(
        actor=room_floor,
        game=game,
        number=5,
        present={p.pk for p in players},
        now=NOW,
        rng=random.Random(11),
    )
    client.force_login(room_floor)
    # cash-room.md RK-01: 100 main pot, 200 and 1,000 side pots -> 5 + 10 + 15.
    client.post(
        reverse("cash_table_rake", args=[table.pk]),
        {
            "contributions": "1 20 allin\n2 70 allin\n3 570\n4 570\n5 70 fold",
            "flop_dealt": "on",
            "next": "tablet",
        },
    )
    record = RakeRecord.objects.get()
    assert (record.pot, record.rake, record.rake_by_pot) == (1300, 30, [5, 10, 15])
    response = client.post(
        reverse("cash_table_rake", args=[table.pk]), {"contributions": "1 20 maybe"}, follow=True
    )
    assert "Line 1: write the seat, the amount" in response.content.decode()
    assert RakeRecord.objects.count() == 1


def test_undo_that_would_seat_a_player_twice_is_refused(
    client, room_td, room_floor, room_desk, game
):
    other = cash_settings.game_save(
        actor=room_td,
        game=None,
        values={**{f: getattr(game, f) for f in cash_settings.GAME_FIELDS}, "sb": 5, "bb": 10},
        now=NOW,
    )
    anna, bruno = listed(game, ["Anna", "Bruno"], room_desk)
    table = cash_tables.table_open(
        actor=room_floor,
        game=game,
        number=1,
        present={anna.pk, bruno.pk},
        now=NOW,
        rng=random.Random(12),
    )
    cash_seats.seat_leave(actor=room_floor, seat=table.seats.get(player=anna), now=NOW)
    leave = RoomEvent.objects.get(action="cash.leave")
    carla, dario = listed(other, ["Carla", "Dario"], room_desk)
    cash_lists.list_add(actor=room_desk, player=anna, games=[other], present=True, now=NOW)
    cash_tables.table_open(
        actor=room_floor,
        game=other,
        number=2,
        present={carla.pk, anna.pk, dario.pk},
        now=NOW,
        rng=random.Random(13),
    )
    client.force_login(room_floor)
    response = client.post(reverse("cash_undo", args=[leave.pk]), follow=True)
    assert response.status_code == 200
    assert "now sits in another game" in response.content.decode()
    assert CashSeat.objects.get(player=anna).table.number == 2


def test_board_links_each_phone_and_suggests_opening_at_six_names(
    client, room_floor, room_desk, game
):
    players = listed(game, ["A1", "A2", "A3", "A4", "A5"], room_desk)
    client.force_login(room_floor)
    html = client.get(reverse("cash_board")).content.decode()
    # The link is signed with the second it is drawn: read it back rather than redraw it.
    link = re.search(rf'href="/room/cash/me/([^/"]+)/" data-testid="phone-{players[0].pk}"', html)
    assert link and signing.loads(link.group(1), salt=PHONE_SALT) == [players[0].pk, 0]
    assert f'data-testid="suggest-open-{game.pk}"' not in html
    listed(game, ["A6"], room_desk)
    html = client.get(reverse("cash_board")).content.decode()
    assert "6 names on the list: open a table?" in html


def test_hand_done_moves_the_button_on_the_tablet_and_undo_puts_it_back(
    client, room_floor, room_desk, game
):
    players = listed(game, ["Anna", "Bruno", "Carla"], room_desk)
    table = cash_tables.table_open(
        actor=room_floor,
        game=game,
        number=3,
        present={p.pk for p in players},
        now=NOW,
        rng=random.Random(14),
    )
    first = (table.button, table.sb, table.bb)
    client.force_login(room_floor)
    response = client.post(reverse("cash_table_hand", args=[table.pk]), follow=True)
    table.refresh_from_db()
    assert (table.button, table.sb) == (first[1], first[2])  # every seat taken: all move on
    assert f"button on seat {table.button}" in response.content.decode()
    client.post(reverse("cash_undo", args=[RoomEvent.objects.get(action="cash.hand").pk]))
    table.refresh_from_db()
    assert (table.button, table.sb, table.bb) == first


def test_a_declined_seat_locks_out_every_game_at_the_same_buy_in(
    room_td, room_floor, room_desk, game
):
    plo = cash_settings.game_save(
        actor=room_td,
        game=None,
        values={**{f: getattr(game, f) for f in cash_settings.GAME_FIELDS}, "variant": "Omaha"},
        now=NOW,
    )
    anna, bruno, carla = listed(game, ["Anna", "Bruno", "Carla"], room_desk)
    cash_lists.list_add(actor=room_desk, player=carla, games=[plo], present=True, now=NOW)
    dario, elena = listed(plo, ["Dario", "Elena"], room_desk)
    nlh = cash_tables.table_open(
        actor=room_floor,
        game=game,
        number=1,
        present={anna.pk, bruno.pk},
        now=NOW,
        rng=random.Random(15),
    )
    free = next(s for s in range(1, 10) if not nlh.seats.filter(number=s).exists())
    entry = cash_lists.list_call(actor=room_floor, table=nlh, seat=free, now=NOW)
    cash_lists.list_answer(actor=room_floor, entry=entry, takes_seat=False, now=NOW)
    # Omaha at the same minimum buy-in: Carla is passed over for 30 minutes, then called.
    plo_table = cash_tables.table_open(
        actor=room_floor,
        game=plo,
        number=2,
        present={dario.pk, elena.pk},
        now=NOW,
        rng=random.Random(16),
    )
    free = next(s for s in range(1, 10) if not plo_table.seats.filter(number=s).exists())
    with pytest.raises(cash_log.CashRefused):
        cash_lists.list_call(
            actor=room_floor, table=plo_table, seat=free, now=NOW + timedelta(minutes=29)
        )
    later = cash_lists.list_call(
        actor=room_floor, table=plo_table, seat=free, now=NOW + timedelta(minutes=31)
    )
    assert later.player == carla
