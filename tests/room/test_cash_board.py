"""The cash room's board as the brush uses it: a name typed at the list searches the room's
players first and creates a record only when asked (never on a refused join); each name
shows when he joined, how long he has waited and where he already plays; an interest list
and seating out of order are said; alerts are coloured and counted; the public board is
a TV screen without the staff's chrome that shows a called player his seat."""

from __future__ import annotations

import random
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from room.models import WaitEntry
from room.services import cash_lists, cash_seats, cash_tables
from tests.conftest import NOW, make_cash_game, make_player, make_room_user
from tournaments.models import Player, RoomRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager(db):
    return make_room_user("cashmanager", RoomRole.MANAGER)


@pytest.fixture
def brush(db):
    return make_room_user("cashbrush", RoomRole.CASH)


@pytest.fixture
def game(manager):
    return make_cash_game(manager, sb=1, bb=2, min_buy_in=100)


@pytest.fixture
def plo(manager):
    return make_cash_game(
        manager, variant="Omaha", structure="pot_limit", sb=1, bb=2, min_buy_in=100
    )


def _add(client, **data):
    return client.post(reverse("cash_list_add"), data, follow=True).content.decode()


def test_a_typed_name_creates_nobody_unless_asked(client, brush, game):
    make_player("Marco", "Rossi")
    make_player("Luca", "Bianchi")
    before = Player.objects.count()
    client.force_login(brush)
    html = _add(client, find="Rossi Marco", games=[game.pk], present="on")
    # Nobody of the cash room yet: the brush is told to tick "New player", nothing is made.
    assert "tick New player to create a record" in html
    assert Player.objects.count() == before and not WaitEntry.objects.exists()


def test_a_refused_join_leaves_no_new_record(client, brush, game):
    client.force_login(brush)
    html = _add(client, first_name="Marco", last_name="Rossi", create="on", games=[game.pk])
    assert "must be here in person" in html
    assert not Player.objects.filter(last_name="Rossi").exists()
    html = _add(
        client, first_name="Marco", last_name="Rossi", create="on", games=[game.pk], present="on"
    )
    assert "Rossi Marco is on the list." in html
    assert Player.objects.filter(last_name="Rossi").count() == 1


def test_the_search_finds_the_rooms_players_and_adds_the_one_chosen(
    client, brush, manager, game, plo
):
    marco = make_player("Marco", "Rossi", document_number="AX123")
    cash_lists.list_add(actor=manager, player=marco, games=[game], present=True, now=NOW)
    client.force_login(brush)
    found = client.get(reverse("cash_player_search"), {"find": "rossi"}).content.decode()
    assert f'data-testid="match-{marco.pk}"' in found and "card AX123" in found
    assert "on the list of NL Hold&#x27;em 1/2" in found
    # By card or document, exactly: the same player.
    found = client.get(reverse("cash_player_search"), {"find": "ax123"}).content.decode()
    assert f'value="{marco.pk}" checked' in found
    html = _add(client, find="rossi", player=marco.pk, games=[plo.pk], present="on")
    assert "Rossi Marco is on the list." in html
    assert Player.objects.filter(last_name="Rossi").count() == 1
    assert WaitEntry.objects.filter(player=marco).count() == 2


def test_a_player_the_search_did_not_find_is_not_found(client, brush, game):
    stranger = make_player("Ugo", "Verdi")  # no cash record, no card typed: out of reach
    client.force_login(brush)
    response = client.post(
        reverse("cash_list_add"),
        {"find": "Verdi", "player": stranger.pk, "games": [game.pk], "present": "on"},
    )
    assert response.status_code == 404
    assert not WaitEntry.objects.exists()


def test_a_card_already_held_is_not_created_twice(client, brush, game):
    make_player("Marco", "Rossi", document_number="AX123")
    client.force_login(brush)
    html = _add(
        client,
        first_name="Marco",
        last_name="Rossi",
        card="ax123",
        create="on",
        games=[game.pk],
        present="on",
    )
    assert "a player already holds this card" in html
    assert Player.objects.filter(last_name="Rossi").count() == 1


def test_the_list_shows_when_he_joined_how_long_he_waited_and_where_he_plays(
    client, brush, manager, game, plo
):
    anna, bruno, carla = (make_player(n, "Neri") for n in ("Anna", "Bruno", "Carla"))
    for p in (anna, bruno, carla):
        cash_lists.list_add(actor=manager, player=p, games=[game], present=True, now=NOW)
    cash_tables.table_open(
        actor=manager,
        game=game,
        number=1,
        present={anna.pk, bruno.pk},
        now=NOW,
        rng=random.Random(3),
    )
    later = NOW + timedelta(minutes=5)
    cash_lists.list_add(actor=manager, player=anna, games=[plo], present=True, now=later)
    cash_lists.list_add(actor=manager, player=carla, games=[plo], present=True, now=later)
    client.force_login(brush)
    with translation.override("en"):
        html = client.get(reverse("cash_board")).content.decode()
    joined = timezone.localtime(later).strftime("%H:%M")
    row = re.search(rf'data-testid="entry-{anna.pk}".*?</tr>', _section(html, plo), re.S).group(0)
    assert joined in row
    assert re.search(r"playing at NL Hold&#x27;em 1/2 T1 seat \d", row)
    waited = re.search(rf'data-testid="waited-{carla.pk}">([^<]*)<', _section(html, game))
    assert waited.group(1).strip().endswith("min")
    # Carla waits for NL 1/2 and for PLO, where no table runs yet: an interest list.
    assert f'data-testid="interest-{plo.pk}"' in html
    assert f'data-testid="interest-{game.pk}"' not in html
    # Anna is second on the PLO list behind nobody; Carla behind her: out of order.
    assert f'data-testid="out-of-order-{carla.pk}"' not in _section(html, game)


def _section(html, game):
    start = html.index(f'data-testid="game-{game.pk}"')
    end = html.find("<section", start)
    return html[start : end if end > 0 else None]


def test_seating_out_of_order_is_warned(client, brush, manager, game):
    players = [make_player(n, "Blu") for n in ("Anna", "Bruno", "Carla", "Dario", "Elena")]
    for p in players:
        cash_lists.list_add(actor=manager, player=p, games=[game], present=True, now=NOW)
    cash_tables.table_open(
        actor=manager,
        game=game,
        number=1,
        present={p.pk for p in players[:2]},
        now=NOW,
        rng=random.Random(1),
    )
    client.force_login(brush)
    html = client.get(reverse("cash_board")).content.decode()
    assert f'data-testid="out-of-order-{players[2].pk}"' not in html  # first now
    assert f'data-testid="out-of-order-{players[4].pk}"' in html
    assert "Out of order: 2 names are ahead of him on the list." in html
    assert "2 names are ahead of him on the list: seat him anyway?" in html


def test_alerts_are_coloured_and_counted(client, brush, manager, game):
    players = [make_player(n, "Viola") for n in ("Anna", "Bruno", "Carla")]
    for p in players:
        cash_lists.list_add(actor=manager, player=p, games=[game], present=True, now=NOW)
    table = cash_tables.table_open(
        actor=manager,
        game=game,
        number=2,
        present={p.pk for p in players[:2]},
        now=NOW,
        rng=random.Random(6),
    )
    seat = table.seats.first()
    cash_seats.sit_out(actor=manager, seat=seat, now=NOW)
    client.force_login(brush)
    html = client.get(reverse("cash_board")).content.decode()
    assert "No alerts" in html
    seat.refresh_from_db()
    seat.sit_out_until = timezone.now() - timedelta(minutes=12)
    seat.save()
    other = table.seats.exclude(pk=seat.pk).first()
    other.markers = 2
    other.save()
    html = client.get(reverse("cash_board")).content.decode()
    assert "2 alerts on the board" in html
    assert 'data-testid="table-alerts-2">2 alerts<' in html
    assert f'class="badge alert" data-testid="overdue-2-{seat.number}"' in html
    assert f'class="badge alert" data-testid="releasable-2-{other.number}"' in html
    # The colours the classes name exist in the style sheet.
    css = Path("static/css/torneo.css").read_text()
    assert ".badge.alert {" in css and ".badge.warn, .badge.warning {" in css


def test_the_board_is_compact_with_labelled_fields_and_confirmations(client, brush, manager, game):
    players = [make_player(n, "Oro") for n in ("Anna", "Bruno", "Carla")]
    for p in players:
        cash_lists.list_add(actor=manager, player=p, games=[game], present=True, now=NOW)
    table = cash_tables.table_open(
        actor=manager,
        game=game,
        number=3,
        present={p.pk for p in players[:2]},
        now=NOW,
        rng=random.Random(2),
    )
    seat = table.seats.first()
    client.force_login(brush)
    html = client.get(reverse("cash_board")).content.decode()
    # A seat's actions are in a menu, each field with its label.
    assert f'data-testid="seat-menu-3-{seat.number}"' in html
    for field in ("move-table", "move-seat", "buy-stack", "buy-amount", "leave-stack"):
        assert f'<label for="{field}-{seat.pk}">' in html
    assert 'data-confirm="Close table 3? Its players go on top of the list."' in html
    assert "Remove Oro Carla from this list? He loses his place." in html


def test_the_brush_board_is_a_tv_screen_that_shows_a_called_player_his_seat(
    client, brush, manager, game
):
    players = [make_player(n, "Rosa") for n in ("Anna", "Bruno", "Carla")]
    for p in players:
        cash_lists.list_add(actor=manager, player=p, games=[game], present=True, now=NOW)
    table = cash_tables.table_open(
        actor=manager,
        game=game,
        number=4,
        present={p.pk for p in players[:2]},
        now=NOW,
        rng=random.Random(2),
    )
    free = next(n for n in range(1, 10) if not table.seats.filter(number=n).exists())
    cash_lists.list_call(actor=manager, table=table, seat=free, now=timezone.now())
    html = client.get(reverse("cash_brush")).content.decode()
    assert "screens.css" in html and "torneo.css" not in html
    assert "Staff login" not in html and 'class="topbar"' not in html
    assert f"seat ready: table 4 seat {free}" in html
    with translation.override("it"):
        client.cookies["django_language"] = "it"
        html = client.get(reverse("cash_brush")).content.decode()
    assert f"posto pronto: tavolo 4 posto {free}" in html
