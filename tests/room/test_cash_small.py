"""The smaller things a room manager notices on a cash evening: the log says who and
where, an empty list is not a numbered item, a one-minute call says "1 minute", dates and
times in the language's order, room roles never called "Tournament director", and a room
page's refusal does not speak of a tournament."""

from __future__ import annotations

import random
import re
from html import escape

import pytest
from django.urls import reverse

from room.models import CashRoom
from room.selectors import cash as cash_reads
from room.services import cash_lists, cash_seats, cash_tables
from room.services import staff as staff_services
from room.views.cash_phone import phone_token
from tests.conftest import NOW, make_cash_game, make_player, make_room_user, make_user
from tournaments.models import RoomRole, RoomStaff

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager(db):
    return make_room_user("roommanager", RoomRole.MANAGER)


@pytest.fixture
def cash_floor(db):
    return make_room_user("cashfloor", RoomRole.CASH)


def _log_row(html: str, words: str) -> str:
    rows = re.findall(r"<tr>.*?</tr>", html.split('data-testid="cash-log"', 1)[1], re.S)
    return next(row for row in rows if words in row)


@pytest.mark.parametrize(
    ("language", "added", "opened", "where"),
    [
        ("en", "Added to a list", "Table opened", "table 2"),
        ("it", "Aggiunto a una lista", "Tavolo aperto", "tavolo 2"),
    ],
)
def test_log_rows_name_the_player_and_the_game(
    client, manager, cash_floor, language, added, opened, where
):
    game = make_cash_game(manager)
    rossi, bianchi = make_player("Marco", "Rossi"), make_player("Luca", "Bianchi")
    for player in (rossi, bianchi):
        cash_lists.list_add(actor=cash_floor, player=player, games=[game], present=True, now=NOW)
    cash_tables.table_open(
        actor=cash_floor,
        game=game,
        number=2,
        present={rossi.pk, bianchi.pk},
        now=NOW,
        rng=random.Random(1),
    )
    client.force_login(cash_floor)
    html = client.get(reverse("cash_board"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    row = _log_row(html, "Rossi Marco")
    assert added in row and escape(str(game)) in row
    assert "Bianchi Luca" in _log_row(html, "Bianchi Luca")
    row = _log_row(html, opened)
    assert escape(str(game)) in row and where in row


@pytest.mark.parametrize(
    ("language", "left", "why"),
    [
        ("en", "left table 1 with 340", "out of list order: Walter is at dinner"),
        ("it", "ha lasciato il tavolo 1 con 340", "fuori dall&#x27;ordine della lista: Walter"),
    ],
)
def test_a_seat_from_another_game_out_of_order_logs_his_stake_and_the_reason(
    client, manager, cash_floor, language, left, why
):
    """The seat's log row says where he left with what, and why names were passed over:
    both were kept in the log but not shown ("Seated from the list" and the games only)."""
    nl = make_cash_game(manager, sb=1, bb=2, min_buy_in=100)
    plo = make_cash_game(
        manager, variant="Omaha", structure="pot_limit", sb=1, bb=2, min_buy_in=100
    )
    anna, bruno = make_player("Anna", "Rossi"), make_player("Bruno", "Verdi")
    ugo, zeno = make_player("Ugo", "Romano"), make_player("Zeno", "Ferrari")
    walter = make_player("Walter", "Sala")
    for player, game in (
        (anna, nl),
        (bruno, nl),
        (ugo, plo),
        (zeno, plo),
        (walter, plo),
        (anna, plo),
    ):
        cash_lists.list_add(actor=cash_floor, player=player, games=[game], present=True, now=NOW)
    for game, number, present in ((nl, 1, {anna.pk, bruno.pk}), (plo, 2, {ugo.pk, zeno.pk})):
        cash_tables.table_open(
            actor=cash_floor,
            game=game,
            number=number,
            present=present,
            now=NOW,
            rng=random.Random(number),
        )
    table = plo.tables.get()
    cash_seats.seat_player(
        actor=cash_floor,
        entry=plo.waiting.get(player=anna),
        table=table,
        seat=next(n for n in range(1, 10) if not table.seats.filter(number=n).exists()),
        buy_in=100,
        now=NOW,
        reason="Walter is at dinner",
        leaving_stack=340,
    )
    client.force_login(cash_floor)
    html = client.get(reverse("cash_board"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    row = _log_row(html, "Rossi Anna")
    assert left in row and why in row


def test_nobody_waiting_is_not_a_numbered_item(client, manager, cash_floor):
    make_cash_game(manager)
    client.force_login(cash_floor)
    for url, words in (
        (reverse("cash_board"), "Nobody is waiting."),
        (reverse("cash_brush"), "No waiting list"),
    ):
        html = client.get(url).content.decode()
        assert words in html
        assert not any(words in ol for ol in re.findall(r"<ol.*?</ol>", html, re.S))


def _called_players_phone(client, manager, cash_floor, language: str) -> str:
    """The phone page of the third player on a list, called to a free seat of table 3."""
    game = make_cash_game(manager)
    players = [make_player(name) for name in ("Anna", "Bruno", "Carla")]
    for player in players:
        cash_lists.list_add(actor=cash_floor, player=player, games=[game], present=True, now=NOW)
    table = cash_tables.table_open(
        actor=cash_floor,
        game=game,
        number=3,
        present={p.pk for p in players[:2]},
        now=NOW,
        rng=random.Random(2),
    )
    free = next(s for s in range(1, 10) if not table.seats.filter(number=s).exists())
    cash_lists.list_call(actor=cash_floor, table=table, seat=free, now=NOW)
    page = client.get(
        reverse("cash_phone", args=[phone_token(players[2])]), HTTP_ACCEPT_LANGUAGE=language
    )
    return page.content.decode()


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "answer within 1 minute<"), ("it", "rispondi entro 1 minuto<")],
)
def test_a_one_minute_call_says_one_minute(client, manager, cash_floor, language, words):
    CashRoom.objects.update_or_create(pk=cash_reads.cash_room().pk, defaults={"answer_minutes": 1})
    html = _called_players_phone(client, manager, cash_floor, language)
    assert words in html and "1 minutes" not in html and "1 minuti" not in html


@pytest.mark.parametrize(
    ("language", "lockout", "words"),
    [
        ("en", 45, "Decline (no seat at this buy-in for 45 minutes)"),
        ("it", 45, "Rifiuta (nessun posto a questo buy-in per 45 minuti)"),
        ("en", 1, "Decline (no seat at this buy-in for 1 minute)"),
        ("en", 0, "Decline<"),
    ],
)
def test_the_phone_says_the_rooms_decline_lockout(
    client, manager, cash_floor, language, lockout, words
):
    """The room sets how long a declined seat keeps a player off (the rulebook's 30); the
    phone's button said 30 minutes whatever the room had chosen."""
    CashRoom.objects.update_or_create(
        pk=cash_reads.cash_room().pk, defaults={"overrides": {"decline_lockout_minutes": lockout}}
    )
    html = _called_players_phone(client, manager, cash_floor, language)
    assert words in html and "30 minut" not in html


@pytest.mark.parametrize(
    ("language", "when"),
    [("en", "21/11/2026 19:00"), ("it", "21/11/2026 19:00")],
)
def test_dates_and_times_in_the_rooms_order(client, manager, language, when):
    make_user("anna")
    staff_services.room_role_set(
        actor=manager, username="anna", role=RoomRole.PIT, given=True, now=NOW
    )
    client.force_login(manager)
    html = client.get(reverse("room_staff"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert when in html  # NOW, 18:00 UTC, in Rome
    assert "p.m." not in html and "11/21/2026" not in html


def test_room_roles_are_never_called_tournament_director(client, manager):
    for role in RoomRole:
        user = make_user(f"holder-{role.value}")
        RoomStaff.objects.create(user=user, role=role)
    pages = ["room_staff", "cash_board", "cash_rake_report", "pit_home", "room_dashboard"]
    for language, words in (("en", "Tournament director"), ("it", "Direttore di torneo")):
        client.force_login(manager)
        for name in pages:
            html = client.get(reverse(name), HTTP_ACCEPT_LANGUAGE=language).content.decode()
            assert words not in html, name
        # Every room role's own label is on the staff page instead.
        html = client.get(reverse("room_staff"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert ("Room manager" if language == "en" else "Responsabile di sala") in html


@pytest.mark.parametrize(
    ("language", "room", "tournament"),
    [
        ("en", "Your role in the room does not allow this page.", "this tournament"),
        (
            "it",
            "Il tuo ruolo nella sala non consente di accedere a questa pagina.",
            "questo torneo",
        ),
    ],
)
def test_a_room_page_refusal_does_not_speak_of_a_tournament(
    client, cash_floor, language, room, tournament
):
    client.force_login(cash_floor)  # the cash-room floor holds no pit role
    for name in ("pit_home", "room_staff"):
        response = client.get(reverse(name), HTTP_ACCEPT_LANGUAGE=language)
        html = response.content.decode()
        assert response.status_code == 403
        assert room in html and tournament not in html


def test_a_tournament_page_refusal_still_names_the_tournament(client, tournament, outsider):
    client.force_login(outsider)
    response = client.get(reverse("tournament_edit", args=[tournament.slug]))
    assert response.status_code == 403
    assert "Your role in this tournament does not allow this page." in response.content.decode()
