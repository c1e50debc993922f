"""Every URL, every role: the status each one gets (tournament.md §4).

A URL added to the project without a row here fails `test_every_url_is_in_the_matrix`.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import get_resolver, reverse

from tables.engine import Action, Hand, SeatStack, TableSetup
from tables.models import Ruling
from tests.conftest import NOW, make_player
from tournaments.models import Event, League
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "outsider", "desk", "floor", "td")
LOGIN = "login"  # a redirect to the login page
OK, REDIRECT, FORBIDDEN, NOT_FOUND, NOT_ALLOWED = 200, 302, 403, 404, 405


def row(anonymous, outsider, desk, floor, td):
    return dict(zip(ROLES, (anonymous, outsider, desk, floor, td), strict=True))


# name -> (method, expected status per role). POSTs carry empty data: a permitted role gets
# a redirect with a message (refused input), never a 500.
MATRIX = {
    "home": ("get", row(REDIRECT, REDIRECT, REDIRECT, REDIRECT, REDIRECT)),
    "login": ("get", row(OK, REDIRECT, REDIRECT, REDIRECT, REDIRECT)),
    "logout": ("post", row(REDIRECT, REDIRECT, REDIRECT, REDIRECT, REDIRECT)),
    "set_language": ("post", row(REDIRECT, REDIRECT, REDIRECT, REDIRECT, REDIRECT)),
    # No login: a balancer's probe (database, channel layer, broker; no secrets).
    "health": ("get", row(OK, OK, OK, OK, OK)),
    "tournament_list": ("get", row(LOGIN, OK, OK, OK, OK)),
    "tournament_create": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    # Backup (issue 7): the TD downloads; who may create tournaments may upload.
    "tournament_import": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "tournament_export": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "tournament_home": ("get", row(LOGIN, FORBIDDEN, OK, OK, OK)),
    "tournament_edit": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "structure_edit": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "tables_edit": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "staff_edit": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "tournament_clone": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "event_log": ("get", row(LOGIN, FORBIDDEN, OK, OK, OK)),
    "event_row": ("get", row(LOGIN, FORBIDDEN, OK, OK, OK)),
    # The sample action is older than a few minutes: the undo first asks (issue 13, 8).
    "event_undo": ("post", row(LOGIN, FORBIDDEN, OK, REDIRECT, OK)),
    "desk": ("get", row(LOGIN, FORBIDDEN, OK, FORBIDDEN, OK)),
    "desk_search": ("get", row(LOGIN, FORBIDDEN, OK, FORBIDDEN, OK)),
    "player_new": ("post", row(LOGIN, FORBIDDEN, REDIRECT, FORBIDDEN, REDIRECT)),
    "register": ("post", row(LOGIN, FORBIDDEN, REDIRECT, FORBIDDEN, REDIRECT)),
    "id_check": ("post", row(LOGIN, FORBIDDEN, REDIRECT, FORBIDDEN, REDIRECT)),
    "purchase": ("get", row(LOGIN, FORBIDDEN, OK, FORBIDDEN, OK)),
    "seat_card": ("get", row(LOGIN, FORBIDDEN, OK, FORBIDDEN, OK)),
    "eliminate": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    # Issue 16: the player list (all staff; the floor enters table counts; exports as
    # the list), the room's players (the TD of an event: his events' players), leagues
    # (who may create tournaments) and their public standings.
    "player_list": ("get", row(LOGIN, FORBIDDEN, OK, OK, OK)),
    "player_list_export": ("get", row(LOGIN, FORBIDDEN, OK, OK, OK)),
    "table_counts": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    "people": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "people_duplicates": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "person": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "person_export": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "person_photo": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, NOT_FOUND)),  # none
    "person_erase": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, REDIRECT)),
    "person_merge": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, REDIRECT)),
    "merge_undo": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, REDIRECT)),
    "league_list": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "league_edit": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    # A clock screen's link: only a table's tablet enters counts.
    "tablet_counts": ("get", row(REDIRECT, REDIRECT, REDIRECT, REDIRECT, REDIRECT)),
    "league_public": ("get", row(OK, OK, OK, OK, OK)),
    "league_csv": ("get", row(OK, OK, OK, OK, OK)),
    "ruling_tool": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "ruling_detail": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "ruling_phh": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "dealer_tablet": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    # Money (issue 6): TD for payouts, deals and flights; floor for eliminations,
    # penalties, colour-ups and bags; the desk may read; results are public.
    "money": ("get", row(LOGIN, FORBIDDEN, OK, OK, OK)),
    "payouts_generate": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, REDIRECT)),
    "payouts_edit": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, REDIRECT)),
    "deal": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, REDIRECT)),
    "eliminations": ("get", row(LOGIN, FORBIDDEN, OK, OK, OK)),
    "eliminations_record": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    "bounties": ("get", row(LOGIN, FORBIDDEN, OK, OK, OK)),
    # Refused input re-renders the award form with its message.
    "bounty_award": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "own_bounty": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    "bounty_forfeit": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    "envelopes": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, REDIRECT)),
    # The sample event is an entry, not an award: no slip.
    "bounty_slip": ("get", row(LOGIN, FORBIDDEN, NOT_FOUND, NOT_FOUND, NOT_FOUND)),
    "satellite_award": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, REDIRECT)),
    "penalties": ("get", row(LOGIN, FORBIDDEN, OK, OK, OK)),
    "penalty_give": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    "penalty_hand": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    "chips": ("get", row(LOGIN, FORBIDDEN, OK, OK, OK)),
    "chipset": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, REDIRECT)),
    "chip_race": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    "color_up": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    "leftovers": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    "chips_remove": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    "days": ("get", row(LOGIN, FORBIDDEN, OK, OK, OK)),
    "bag": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    "flight_new": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, REDIRECT)),
    "flights_merge": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, REDIRECT)),
    "day_next": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, REDIRECT)),
    "day_redraw": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, REDIRECT)),
    "report": ("get", row(LOGIN, FORBIDDEN, OK, OK, OK)),
    "public_results": ("get", row(OK, OK, OK, OK, OK)),
    # The pit (room level, tables/permissions.py): a tournament's staff hold no room role,
    # so every one of them is refused; room roles: tests/tables/test_pit_views.py.
    # The room's staff page: its TD only (tests/tables/test_room_staff.py).
    "room_staff": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN)),
    "room_staff_undo": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN)),
    "pit_home": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN)),
    "pit_blackjack": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN)),
    "pit_punto_banco": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN)),
    "pit_trainer": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN)),
    "pit_ruling": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN)),
    "room": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "room_apply": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    "room_buttons": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    "player_move": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    "room_table": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "table_button": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    "table_hand": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    "table_status": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    "table_renumber": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    "seat_lock": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    "move_confirm": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    "clock_console": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "clock_control": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    "screens": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "screen_revoke": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, REDIRECT)),
    # No login: a screen's secret link, the public clock and the seat finder.
    "screen": ("get", row(OK, OK, OK, OK, OK)),
    "tablet_hand": ("post", row(REDIRECT, REDIRECT, REDIRECT, REDIRECT, REDIRECT)),
    "public_clock": ("get", row(OK, OK, OK, OK, OK)),
    "seat_finder": ("get", row(OK, OK, OK, OK, OK)),
    # The front door, the lobby and the room dashboard (issue 16, items 7-8).
    "front_page": ("get", row(OK, OK, OK, OK, OK)),
    "lobby_screen": ("get", row(OK, OK, OK, OK, OK)),
    "public_structure": ("get", row(OK, OK, OK, OK, OK)),
    "room_dashboard": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "table_share": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    # The books of the night and the printouts (issue 16, items 4-5): the night's books
    # belong to the TDs of its events; an event's to its TD and desk.
    "event_books": ("get", row(LOGIN, FORBIDDEN, OK, FORBIDDEN, OK)),
    "sale_void": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, REDIRECT)),
    "printout": ("get", row(LOGIN, FORBIDDEN, OK, OK, OK)),
    "night_books": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "night_close": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, REDIRECT)),
    "night_correct": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, REDIRECT)),
    # Staff accounts: the room's manager only (an event's TD is none); a tablet's PIN page
    # (a cash table's: there is no open cash table 1 here).
    "staff_accounts": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN)),
    "pin_unlock": ("get", row(OK, OK, OK, OK, OK)),
    "cash_pin_unlock": ("get", row(NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND)),
    # The cash room (issue 19): room-level roles only, so tournament staff are refused
    # (tests/tables/test_cash_views.py holds the room roles' matrix); public screens.
    "cash_board": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN)),
    "cash_brush": ("get", row(OK, OK, OK, OK, OK)),
    "cash_phone": ("get", row(NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND)),
    "cash_phone_answer": ("post", row(NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND)),
    "cash_rake_report": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN)),
    "cash_tablet": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN)),
    **{
        name: ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN))
        for name in (
            "cash_game_add",
            "cash_room_settings",
            "cash_keep_apart",
            "cash_list_add",
            "cash_entry_remove",
            "cash_entry_answer",
            "cash_entry_no_answer",
            "cash_entry_seat",
            "cash_table_open",
            "cash_table_call",
            "cash_table_fill",
            "cash_table_close",
            "cash_table_hand",
            "cash_table_rake",
            "cash_seat_move",
            "cash_seat_request",
            "cash_seat_sit_out",
            "cash_seat_sit_back",
            "cash_seat_marker",
            "cash_seat_leave",
            "cash_seat_buy",
            "cash_undo",
        )
    },
}


@pytest.fixture
def world(tournament, td, floor, desk, outsider, display):
    player = make_player()
    reg = entry_services.entry_register(tournament=tournament, player=player, actor=td, now=NOW)
    event = Event.objects.filter(action="entry.register").first()
    # An hour old, whatever today is: undoing it first asks (issue 13, item 8).
    Event.objects.filter(pk=event.pk).update(at=NOW - dt.timedelta(hours=1))
    hand = Hand(
        TableSetup(players=(SeatStack(1, 5000), SeatStack(2, 5000)), button=1, sb=50, bb=100)
    )
    hand.act(Action(1, "fold"))  # heads-up: the button (SB) folds; exportable as PHH
    ruling = Ruling.objects.create(tournament=tournament, hand=hand.to_dict(), created_at=NOW)
    league = League.objects.create(name="Winter", slug="winter", created_at=NOW)
    return {
        "users": {"anonymous": None, "outsider": outsider, "desk": desk, "floor": floor, "td": td},
        "kwargs": {
            "slug": tournament.slug,
            "player_id": player.pk,
            "number": reg.entry.number,
            "event_id": event.pk,
            "kind": "rebuy",
            "ruling_id": ruling.pk,
            "report": "results",
            "fmt": "pdf",
            "table": reg.table,
            "seat": reg.seat,
            "action": "pause",
            "screen_id": display.pk,
            "token": display.token,
            "pk": 1,  # the cash room's objects (issue 19)
            "league_id": league.pk,
            "league": league.slug,
        },
    }


def url_names() -> set[str]:
    names = set()

    def walk(patterns):
        for pattern in patterns:
            if hasattr(pattern, "url_patterns"):
                walk(pattern.url_patterns)
            elif pattern.name:
                names.add(pattern.name)

    walk(get_resolver().url_patterns)
    return names


def test_every_url_is_in_the_matrix():
    assert url_names() - set(MATRIX) == set()


def reverse_with(name: str, kwargs: dict) -> str:
    """Reverse a URL name with the subset of sample kwargs its pattern takes."""
    from itertools import combinations

    from django.urls import NoReverseMatch

    keys = list(kwargs)
    for size in range(len(keys) + 1):
        for subset in combinations(keys, size):
            try:
                return reverse(name, kwargs={k: kwargs[k] for k in subset})
            except NoReverseMatch:
                continue
    raise AssertionError(f"cannot reverse {name}")


@pytest.mark.parametrize("name", sorted(MATRIX))
def test_each_role_gets_the_expected_status(client, world, name):
    method, expected = MATRIX[name]
    url = reverse_with(name, world["kwargs"])
    for role in ROLES:
        client.logout()
        user = world["users"][role]
        if user is not None:
            client.force_login(user)
        response = getattr(client, method)(url)
        want = expected[role]
        if want == LOGIN:
            assert response.status_code == 302, (name, role, response.status_code)
            assert response["Location"].startswith(reverse("login")), (name, role)
        else:
            assert response.status_code == want, (name, role, response.status_code)
