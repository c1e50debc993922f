"""The floor's room pages, both ways (full page and HX-Request fragment), and their actions."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.conftest import NOW
from tests.tournaments.services.test_moves import seat_players, started, where
from tournaments.models import Seat, Table
from tournaments.services import hands as hands_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def unbalanced(tournament, td):
    placed = seat_players(tournament, {1: list(range(1, 10)), 2: [1, 2, 3, 4, 5, 6]})
    started(tournament)
    return placed


def test_room_page_shows_the_plan_and_asks_for_unknown_buttons(
    client, floor, tournament, unbalanced
):
    client.force_login(floor)
    response = client.get(reverse("room", args=[tournament.slug]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html and 'data-testid="needs-button"' in html
    assert 'data-testid="tables"' in html and "9/9" in html and "6/9" in html
    assert "HALTED" in html  # TDA-11c: three short of the largest table stops play


def test_room_fragment_with_hx_request(client, floor, tournament, unbalanced, td):
    for number in (1, 2):
        hands_services.button_set(
            tournament=tournament, table_number=number, button=1, actor=td, now=NOW
        )
    client.force_login(floor)
    response = client.get(reverse("room", args=[tournament.slug]), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert 'id="room"' in html and 'data-testid="moves"' in html
    assert str(unbalanced[(1, 4)].player) in html and "TDA-11a" in html


def test_apply_button_moves_the_player_and_lists_him_as_arriving(
    client, floor, tournament, unbalanced, td
):
    for number in (1, 2):
        hands_services.button_set(
            tournament=tournament, table_number=number, button=1, actor=td, now=NOW
        )
    client.force_login(floor)
    response = client.post(reverse("room_apply", args=[tournament.slug]), follow=True)
    html = response.content.decode()
    assert where(unbalanced[(1, 4)]) == (2, 7)
    assert 'data-testid="pending"' in html and "1 players moved" in html
    assert "Dealt in at once" in html or "Waits for the button to pass" in html
    entry = unbalanced[(1, 4)]
    client.post(
        reverse("move_confirm", args=[tournament.slug, entry.number]), {"carried_by": "Anna"}
    )
    assert Seat.objects.get(entry=entry).chips_carried_by == "Anna"


def test_table_page_marks_the_button_and_plays_a_hand(client, floor, tournament, unbalanced):
    client.force_login(floor)
    url = reverse("room_table", args=[tournament.slug, 2])
    full = client.get(url).content.decode()
    fragment = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert "<html" in full and "<html" not in fragment and 'data-testid="seats"' in fragment
    client.post(reverse("table_button", args=[tournament.slug, 2]), {"button": "3"})
    client.post(reverse("table_hand", args=[tournament.slug, 2]))
    table = Table.objects.get(tournament=tournament, number=2)
    assert (table.button, table.sb, table.bb, table.hands) == (4, 5, 6, 1)


@pytest.mark.parametrize("junk", ["", "x", "-1", "99999999999999999999", "7.5"])
def test_junk_input_never_breaks_a_page(client, floor, tournament, unbalanced, junk):
    client.force_login(floor)
    posts = [
        ("table_button", [2], {"button": junk}),
        ("table_renumber", [2], {"number": junk}),
        ("table_status", [2], {"status": junk}),
        ("player_move", [], {"entry": junk, "table": junk, "seat": junk}),
    ]
    for name, args, data in posts:
        response = client.post(reverse(name, args=[tournament.slug, *args]), data)
        assert response.status_code == 302, name


def test_a_manual_move_that_unbalances_the_room_is_warned(client, floor, tournament, td):
    placed = seat_players(tournament, {1: [1, 2, 3, 4], 2: [1, 2, 3, 4]})
    started(tournament)
    client.force_login(floor)
    client.post(
        reverse("player_move", args=[tournament.slug]),
        {"entry": placed[(2, 1)].number, "table": 1, "seat": 5},
    )
    response = client.post(
        reverse("player_move", args=[tournament.slug]),
        {"entry": placed[(2, 2)].number, "table": 1, "seat": 6},
        follow=True,
    )
    assert where(placed[(2, 2)]) == (1, 6)
    html = response.content.decode()
    assert "unbalanced" not in html
    # The room's plan lists the breach: once, not again in a message above it.
    assert html.count("Out of balance") == 1
    assert "The room breaks its policy now" not in html


def test_a_move_made_from_a_table_page_warns_there(client, floor, tournament, td):
    """The table's page lists no breaches of the room: the move's message says it."""
    placed = seat_players(tournament, {1: [1, 2, 3, 4, 5], 2: [1, 2, 3, 4]})
    started(tournament)
    client.force_login(floor)
    response = client.post(
        reverse("player_move", args=[tournament.slug]),
        {"entry": placed[(2, 1)].number, "table": 1, "seat": 6, "back_table": 2},
        follow=True,
    )
    assert where(placed[(2, 1)]) == (1, 6)
    assert response.redirect_chain[-1][0] == reverse("room_table", args=[tournament.slug, 2])
    html = response.content.decode()
    assert "The room breaks its policy now: Out of balance" in html


def test_lock_and_renumber_from_the_pages(client, floor, tournament, unbalanced):
    client.force_login(floor)
    client.post(reverse("seat_lock", args=[tournament.slug, 2, 8]), {"locked": "1"})
    assert Table.objects.get(tournament=tournament, number=2).locked_seats == [8]
    client.post(reverse("table_renumber", args=[tournament.slug, 2]), {"number": "20"})
    assert Table.objects.filter(tournament=tournament, number=20).exists()


def test_simulate_field_small_plays_down_to_the_final_table():
    out = StringIO()
    call_command("simulate_field", entries=60, seed=3, stdout=out)
    summary = json.loads(out.getvalue().strip().splitlines()[-1])
    assert summary["entries"] == 60 and summary["tables"] == 7
    assert summary["violations"] == 0
    assert summary["players_left"] <= 9
    # Tables break down to two; those two are merged by the final-table redraw (§10).
    assert summary["breaks"] == summary["tables"] - 2
    final = Table.objects.filter(status=Table.Status.OPEN)
    assert final.count() == 1 and final.get().seats.count() == summary["players_left"]


def test_room_page_query_count_does_not_grow_with_the_room(
    client, floor, td, django_assert_max_num_queries
):
    from tests.conftest import make_tournament
    from tournaments.models import Role, StaffAssignment

    tournament = make_tournament(td, tables=20)
    StaffAssignment.objects.create(tournament=tournament, user=floor, role=Role.FLOOR)
    seat_players(tournament, {n: list(range(1, 8)) for n in range(1, 21)})
    hands_services.buttons_draw(tournament=tournament, actor=td, now=NOW)
    client.force_login(floor)
    with django_assert_max_num_queries(15):
        response = client.get(reverse("room", args=[tournament.slug]))
    assert response.status_code == 200 and "7/9" in response.content.decode()


def test_the_room_lists_the_first_50_moves_waiting_and_all_of_them_on_asking(client, td):
    """After a break of many tables hundreds of players walk at once: the room lists the
    first 50 (each row is a form) and says how many wait; "Show all" lists every one."""
    from tests.conftest import make_tournament

    big = make_tournament(td, tables=8)
    placed = seat_players(big, {n: list(range(1, 10)) for n in range(1, 8)})  # 63 players
    Seat.objects.filter(entry__in=placed.values()).update(arrived=False, moved_from="Table 9")
    client.force_login(td)
    url = reverse("room", args=[big.slug])

    html = client.get(url).content.decode()
    assert html.count('name="carried_by"') == 50
    assert "The first 50 of 63 moves." in html and 'href="?all_waiting=1"' in html
    assert str(placed[(1, 1)].player) in html and str(placed[(7, 9)].player) not in html
    assert f'hx-get="{url}"' in html  # the refresh keeps what the page shows

    every = client.get(url, {"all_waiting": "1"}).content.decode()
    assert every.count('name="carried_by"') == 63 and "All 63 moves." in every
    assert str(placed[(7, 9)].player) in every
    assert f'hx-get="{url}?all_waiting=1"' in every

    # Junk in the address is the ordinary page, never an error.
    assert client.get(url, {"all_waiting": "²", "page": "x"}).status_code == 200


def test_a_few_moves_waiting_are_all_listed_without_a_pager(client, floor, tournament):
    placed = seat_players(tournament, {1: [1, 2, 3]})
    Seat.objects.filter(entry__in=placed.values()).update(arrived=False)
    client.force_login(floor)
    html = client.get(reverse("room", args=[tournament.slug])).content.decode()
    assert html.count('name="carried_by"') == 3 and 'data-testid="waiting-pager"' not in html
