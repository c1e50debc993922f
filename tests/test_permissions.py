"""The whole URL map, every role, every foreign id (tournament.md §4; DESIGN.md "Who may
reach what").

`MATRIX` gives, for each URL name, the method it is called with and the status each role
gets. A URL added to the project without a row here fails `test_every_url_is_in_the_matrix`.
`test_foreign_ids_are_not_found_and_write_nothing` calls every address that names an object
with the ids of objects the caller does not hold, on GET and POST, and checks that nothing
in the database changed.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.urls import get_resolver, reverse

from room.models import CashGame, CashSeat, CashTable, Kiosk, League, RoomEvent, WaitEntry
from room.selectors import kiosk as kiosk_selectors
from tables.engine import Action, Hand, SeatStack, TableSetup
from tests.conftest import NOW, make_player, make_tournament, make_user
from tournaments.models import DisplayScreen, Event, RoomStaff, Ruling
from tournaments.services import entries as entry_services
from tournaments.services import reservations as reservation_services

pytestmark = pytest.mark.django_db

# Event roles of the sample event, the TD of another event, and each room role. A display
# is a browser that holds a screen's secret link and no login.
EVENT_ROLES = ("anonymous", "outsider", "desk", "floor", "td")
ROOM_ROLES = ("manager", "books", "cash", "pit", "dealer")
ROLES = (*EVENT_ROLES, "display", "td_other", *ROOM_ROLES)
LOGIN = "login"  # a redirect to the login page
OK, REDIRECT, FORBIDDEN, NOT_FOUND, NOT_ALLOWED = 200, 302, 403, 404, 405


def row(anonymous, outsider, desk, floor, td, **others):
    """The status of each role. Those not named follow the event's: a display as the
    anonymous, the TD of another event and every room role as a stranger, the room's
    manager (TD of every event) as the TD."""
    statuses = dict(zip(EVENT_ROLES, (anonymous, outsider, desk, floor, td), strict=True))
    statuses.update(display=anonymous, td_other=outsider, manager=td)
    statuses.update({role: outsider for role in ROOM_ROLES if role != "manager"})
    unknown = set(others) - set(ROLES)
    assert not unknown, unknown
    statuses.update(others)
    return statuses


CASH_OK = {"manager": OK, "cash": OK}
CASH_POST = {"manager": REDIRECT, "cash": REDIRECT}
DEALERS_OK = {"manager": OK, "cash": OK, "pit": OK}
DEALERS_POST = {"manager": REDIRECT, "cash": REDIRECT, "pit": REDIRECT}
PIT_OK = {"manager": OK, "pit": OK}

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
    "tournament_create": (
        "get",
        row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, manager=OK),
    ),
    # Backup: the TD downloads; who may create tournaments may upload.
    "tournament_import": (
        "get",
        row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, manager=OK),
    ),
    "tournament_export": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "tournament_home": ("get", row(LOGIN, FORBIDDEN, OK, OK, OK)),
    "tournament_edit": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "structure_edit": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "tables_edit": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "staff_edit": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "tournament_clone": (
        "post",
        row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, manager=OK),
    ),
    "event_log": ("get", row(LOGIN, FORBIDDEN, OK, OK, OK)),
    "event_row": ("get", row(LOGIN, FORBIDDEN, OK, OK, OK)),
    # The sample action is older than a few minutes: the undo first asks.
    "event_undo": ("post", row(LOGIN, FORBIDDEN, OK, REDIRECT, OK)),
    "desk": ("get", row(LOGIN, FORBIDDEN, OK, FORBIDDEN, OK)),
    "desk_search": ("get", row(LOGIN, FORBIDDEN, OK, FORBIDDEN, OK)),
    "player_new": ("post", row(LOGIN, FORBIDDEN, REDIRECT, FORBIDDEN, REDIRECT)),
    "register": ("post", row(LOGIN, FORBIDDEN, REDIRECT, FORBIDDEN, REDIRECT)),
    "id_check": ("post", row(LOGIN, FORBIDDEN, REDIRECT, FORBIDDEN, REDIRECT)),
    "purchase": ("get", row(LOGIN, FORBIDDEN, OK, FORBIDDEN, OK)),
    "seat_card": ("get", row(LOGIN, FORBIDDEN, OK, FORBIDDEN, OK)),
    "eliminate": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    # The player list (all staff; the floor enters table counts; exports as
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
    # A room log row that is no merge of his players: not found.
    "merge_undo": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, NOT_FOUND)),
    "league_list": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "league_edit": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    # A clock screen's link: only a table's tablet enters counts.
    "tablet_counts": ("get", row(REDIRECT, REDIRECT, REDIRECT, REDIRECT, REDIRECT)),
    "league_public": ("get", row(OK, OK, OK, OK, OK)),
    "league_csv": ("get", row(OK, OK, OK, OK, OK)),
    "ruling_tool": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "ruling_detail": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "ruling_phh": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    # The floor publishes a saved hand in the live feed (or takes it out).
    "ruling_publish": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    "dealer_tablet": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "dealer_bust": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    # Money: TD for payouts, deals and flights; floor for eliminations,
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
    "chipset": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
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
    # The results files for the rankings: the event's TD and floor; a league's ranking to
    # who runs the league (the TD of its every event, the room's manager).
    "results_export": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "league_ranking": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    # The room's own pages hold no event role: an event's staff are refused; the room's
    # manager and the role that works each part of the room are let in.
    "room_staff": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, manager=OK)),
    "room_staff_undo": (
        "post",
        row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, manager=REDIRECT),
    ),
    **{
        name: ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, manager=OK, pit=OK))
        for name in ("pit_home", "pit_blackjack", "pit_punto_banco", "pit_trainer")
    },
    # A saved ruling that is not there.
    "pit_ruling": (
        "get",
        row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, manager=NOT_FOUND, pit=NOT_FOUND),
    ),
    "room": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "room_apply": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    "room_buttons": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    "player_move": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    "room_table": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "table_button": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    "floor_bust": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
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
    "tablet_bust": ("get", row(REDIRECT, REDIRECT, REDIRECT, REDIRECT, REDIRECT)),
    # A stream overlay by its screen's secret link (the sample's is an overlay screen).
    "overlay": ("get", row(OK, OK, OK, OK, OK)),
    # The public live feed: the sample event publishes it.
    "feed_events": ("get", row(OK, OK, OK, OK, OK)),
    "feed_event": ("get", row(OK, OK, OK, OK, OK)),
    "public_clock": ("get", row(OK, OK, OK, OK, OK)),
    "seat_finder": ("get", row(OK, OK, OK, OK, OK)),
    # The front door, the lobby and the room dashboard.
    "front_page": ("get", row(OK, OK, OK, OK, OK)),
    "lobby_screen": ("get", row(OK, OK, OK, OK, OK)),
    "public_structure": ("get", row(OK, OK, OK, OK, OK)),
    "room_dashboard": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "table_share": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, REDIRECT, REDIRECT)),
    # The night's books belong to the room (its manager and cashier); an event's books to
    # its TD and desk.
    "event_books": ("get", row(LOGIN, FORBIDDEN, OK, FORBIDDEN, OK)),
    "sale_void": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, REDIRECT)),
    "printout": ("get", row(LOGIN, FORBIDDEN, OK, OK, OK)),
    "night_books": (
        "get",
        row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, manager=OK, books=OK),
    ),
    **{
        name: (
            "post",
            row(
                LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, manager=REDIRECT, books=REDIRECT
            ),
        )
        for name in ("night_close", "night_correct")
    },
    # Staff accounts: the room's manager only; a tablet's PIN page is public.
    "staff_accounts": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, manager=OK)),
    "pin_unlock": ("get", row(OK, OK, OK, OK, OK)),
    # A cash table's PIN page (there is no open cash table with the sample id).
    "cash_pin_unlock": ("get", row(NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND)),
    # The cash room: the cash-room floor and the manager; the rake report also the books;
    # its public screens and the players' phones (a bad link is not found).
    "cash_board": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, **CASH_OK)),
    "cash_brush": ("get", row(OK, OK, OK, OK, OK)),
    "cash_player_search": (
        "get",
        row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, **CASH_OK),
    ),
    "cash_phone": ("get", row(NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND)),
    "cash_phone_answer": ("post", row(NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND)),
    "cash_rake_report": (
        "get",
        row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, **CASH_OK, books=OK),
    ),
    "cash_tablet": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, **CASH_OK)),
    # The room's settings page: the manager's only.
    "cash_room_settings": (
        "get",
        row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, manager=OK),
    ),
    **{
        name: ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, manager=REDIRECT))
        for name in ("cash_game_add", "cash_keep_apart")
    },
    **{
        name: ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, **CASH_POST))
        for name in (
            "cash_list_add",
            "cash_entry_answer",
            "cash_entry_no_answer",
            "cash_entry_skip",
            "cash_entry_seat",
            "cash_table_open",
            "cash_table_call",
            "cash_table_fill",
            "cash_table_hand",
            "cash_table_rake",
            "cash_seat_move",
            "cash_seat_request",
            "cash_seat_sit_out",
            "cash_seat_sit_back",
            "cash_seat_marker",
            "cash_seat_buy",
        )
    },
    # The manager's empty post comes first and takes the list entry, the seat or the
    # table away: the cash floor's finds it gone.
    **{
        name: (
            "post",
            row(
                LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, manager=REDIRECT, cash=NOT_FOUND
            ),
        )
        for name in ("cash_entry_remove", "cash_seat_leave", "cash_table_close")
    },
    # The sample player has no place in the cash room: only the manager reaches him there.
    "cash_phone_link_new": (
        "post",
        row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, manager=REDIRECT, cash=NOT_FOUND),
    ),
    # Remote joins: the player's phone link (a bad link is not found); the floor marks
    # a remote joiner arrived (the sample entry is present: nothing to do).
    "cash_phone_join": ("post", row(NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND)),
    "cash_entry_arrived": (
        "post",
        row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, **CASH_POST),
    ),
    # Reservations: the public page and its confirmation by code (no login); the desk's
    # finder and its one-keystroke registration (the sample reservation is held).
    "reserve": ("get", row(OK, OK, OK, OK, OK)),
    "reservation": ("get", row(OK, OK, OK, OK, OK)),
    "reservation_cancel": ("post", row(REDIRECT, REDIRECT, REDIRECT, REDIRECT, REDIRECT)),
    "desk_reservations": ("get", row(LOGIN, FORBIDDEN, OK, FORBIDDEN, OK)),
    "reservation_register": ("post", row(LOGIN, FORBIDDEN, REDIRECT, FORBIDDEN, REDIRECT)),
    "reservation_desk_cancel": ("post", row(LOGIN, FORBIDDEN, REDIRECT, FORBIDDEN, REDIRECT)),
    # The manager reveals a player's contact (logged); an event's TD sees it masked.
    "person_contact": ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, manager=OK)),
    # The kiosks: the manager's list and the no-show rule; a kiosk's link (no login, a
    # revocable secret like a screen's) and a player's visit there (a bad visit: 404).
    "kiosks": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, manager=OK)),
    "kiosk_revoke": (
        "post",
        row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, manager=REDIRECT),
    ),
    "reservation_rules": (
        "get",
        row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, manager=OK),
    ),
    "kiosk_start": ("get", row(OK, OK, OK, OK, OK)),
    "kiosk_player": ("get", row(OK, OK, OK, OK, OK)),
    "kiosk_action": ("post", row(REDIRECT, REDIRECT, REDIRECT, REDIRECT, REDIRECT)),
    # A log row that is not there.
    "cash_undo": (
        "post",
        row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, manager=NOT_FOUND, cash=NOT_FOUND),
    ),
    # The dealers' floor: the manager and the floor of the cash room and of the pit; the TV
    # board and the clock-in tablet are public (the PIN is the clock's capability); a
    # table's relief line is public as the board is (no table has the sample key).
    "dealer_floor": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, **DEALERS_OK)),
    "dealer_board": ("get", row(OK, OK, OK, OK, OK)),
    "dealer_clock": ("get", row(OK, OK, OK, OK, OK)),
    "dealer_relief": ("get", row(NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND)),
    **{
        name: ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, **DEALERS_POST))
        for name in ("dealer_push", "dealer_override", "dealer_keep")
    },
    # A log row that is not there.
    "dealer_undo": (
        "post",
        row(
            LOGIN,
            FORBIDDEN,
            FORBIDDEN,
            FORBIDDEN,
            FORBIDDEN,
            manager=NOT_FOUND,
            cash=NOT_FOUND,
            pit=NOT_FOUND,
        ),
    ),
    # The dealers' games, shifts and the rotation's settings: the manager's.
    "dealer_staff": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, manager=OK)),
    **{
        name: ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, manager=REDIRECT))
        for name in ("dealer_profile", "dealer_settings")
    },
    # Hours and tips are pay: the manager and the books.
    **{
        name: ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, manager=OK, books=OK))
        for name in ("dealer_hours", "dealer_tips")
    },
    # The pit's tables: the manager and the pit (no pit table has the sample id).
    "pit_tables": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, **PIT_OK)),
    "pit_table_status": (
        "post",
        row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, manager=NOT_FOUND, pit=NOT_FOUND),
    ),
    # The jackpots: the cash-room floor and the manager work them; the manager sets the
    # rules; the printed rules and the slips also for the books; the TV needs no login.
    "jackpot_home": ("get", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, **CASH_OK)),
    "jackpot_board": ("get", row(OK, OK, OK, OK, OK)),
    "jackpot_settings": (
        "get",
        row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, manager=OK),
    ),
    "jackpot_rules": (
        "get",
        row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, **CASH_OK, books=OK),
    ),
    **{
        name: ("post", row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, **CASH_POST))
        for name in ("jackpot_claim", "jackpot_high_hand", "jackpot_pay_period")
    },
    # A claim, a payment or a log row that is not there.
    "jackpot_confirm": (
        "post",
        row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, manager=NOT_FOUND, cash=NOT_FOUND),
    ),
    "jackpot_slips": (
        "get",
        row(
            LOGIN,
            FORBIDDEN,
            FORBIDDEN,
            FORBIDDEN,
            FORBIDDEN,
            manager=NOT_FOUND,
            cash=NOT_FOUND,
            books=NOT_FOUND,
        ),
    ),
    "jackpot_undo": (
        "post",
        row(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, manager=NOT_FOUND, cash=NOT_FOUND),
    ),
    # The players' phones: the installable app and the brush board's QR are public; the
    # seat card's QR is the event's desk's; a player's pages open by his signed link only
    # (the sample token is none of ours: not found for everyone).
    "room_phone_app": ("get", row(OK, OK, OK, OK, OK)),
    "room_manifest": ("get", row(OK, OK, OK, OK, OK)),
    "room_service_worker": ("get", row(OK, OK, OK, OK, OK)),
    "room_phone_qr": ("get", row(OK, OK, OK, OK, OK)),
    "room_entry_qr": ("get", row(LOGIN, FORBIDDEN, OK, FORBIDDEN, OK)),
    **{
        name: (method, row(NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND))
        for name, method in (
            ("room_notify_page", "get"),
            ("room_notify_subscribe", "post"),
            ("room_notify_unsubscribe", "post"),
            ("room_notify_email", "post"),
            ("room_notify_cash", "get"),
            ("room_notify_from_cash", "get"),
            ("room_notify_off", "get"),
            ("room_notify_answer", "post"),
        )
    },
}


# Objects of the room's own (the cash room), named by `pk` in their addresses.
CASH_PK = {
    "cash_entry_remove": "entry",
    "cash_entry_answer": "entry",
    "cash_entry_no_answer": "entry",
    "cash_entry_skip": "entry",
    "cash_entry_seat": "entry",
    "cash_table_open": "game",
    "cash_table_call": "table",
    "cash_table_fill": "table",
    "cash_table_close": "table",
    "cash_table_hand": "table",
    "cash_table_rake": "table",
    "cash_tablet": "table",
    "cash_seat_move": "seat",
    "cash_seat_request": "seat",
    "cash_seat_sit_out": "seat",
    "cash_seat_sit_back": "seat",
    "cash_seat_marker": "seat",
    "cash_seat_leave": "seat",
    "cash_seat_buy": "seat",
    "cash_entry_arrived": "entry",
}
# Addresses open to anyone by design: a public page, or a secret link (a screen's token,
# a player's phone link) that is itself the capability.
PUBLIC = {
    "home",
    "login",
    "logout",
    "set_language",
    "health",
    "screen",
    "tablet_hand",
    "tablet_bust",
    "overlay",
    "feed_events",
    "feed_event",
    "tablet_counts",
    "public_clock",
    "seat_finder",
    "public_structure",
    "public_results",
    "front_page",
    "lobby_screen",
    "league_public",
    "league_csv",
    "pin_unlock",
    "cash_pin_unlock",
    "cash_brush",
    "jackpot_board",
    "cash_phone",
    "cash_phone_answer",
    "cash_phone_join",
    "reserve",
    "reservation",
    "reservation_cancel",
    "kiosk_start",
    "kiosk_player",
    "kiosk_action",
    "dealer_board",
    "dealer_clock",
    "dealer_relief",
    "room_phone_app",
    "room_manifest",
    "room_service_worker",
    "room_phone_qr",
    "room_notify_page",
    "room_notify_subscribe",
    "room_notify_unsubscribe",
    "room_notify_email",
    "room_notify_cash",
    "room_notify_from_cash",
    "room_notify_off",
    "room_notify_answer",
}


def _user(username: str, *, room_role: str | None = None):
    user = make_user(username)
    if room_role:
        RoomStaff.objects.create(user=user, role=room_role)
    return user


def _cash_room(actor) -> dict[str, int]:
    """A game with a list, an open table and a seated player: ids of each."""
    game = CashGame.objects.create(sb=1, bb=2, min_buy_in=40, max_buy_in=200)
    table = CashTable.objects.create(game=game, number=1, max_seats=9, opened_at=NOW)
    seated, waiting = make_player("Seduto"), make_player("Attende")
    seat = CashSeat.objects.create(table=table, player=seated, number=1, seated_at=NOW)
    entry = WaitEntry.objects.create(game=game, player=waiting, position=1, joined_at=NOW)
    return {"game": game.pk, "table": table.pk, "seat": seat.pk, "entry": entry.pk}


@pytest.fixture
def world(tournament, td, floor, desk, outsider, display):
    player = make_player()
    reg = entry_services.entry_register(tournament=tournament, player=player, actor=td, now=NOW)
    event = Event.objects.filter(action="entry.register").first()
    # An hour old, whatever today is: undoing it first asks.
    Event.objects.filter(pk=event.pk).update(at=NOW - dt.timedelta(hours=1))
    hand = Hand(
        TableSetup(players=(SeatStack(1, 5000), SeatStack(2, 5000)), button=1, sb=50, bb=100)
    )
    hand.act(Action(1, "fold"))  # heads-up: the button (SB) folds; exportable as PHH
    ruling = Ruling.objects.create(tournament=tournament, hand=hand.to_dict(), created_at=NOW)
    league = League.objects.create(name="Winter", slug="winter", created_at=NOW)
    league.events.add(tournament)
    tournament.feed_public = True
    tournament.save(update_fields=["feed_public"])
    overlay = DisplayScreen.objects.create(tournament=tournament, name="OBS", kind="overlay")
    users = {"anonymous": None, "display": None, "outsider": outsider, "desk": desk}
    users.update(floor=floor, td=td, td_other=_user("td-other"))
    users.update({role: _user(f"room-{role}", room_role=role) for role in ROOM_ROLES})
    staff_change = RoomEvent.objects.create(
        action="room.staff",
        actor=users["manager"],
        at=NOW,
        data={"user": users["cash"].pk, "username": "room-cash", "role": "cash", "given": True},
    )
    cash = _cash_room(users["cash"])
    tournament.reservations_open, tournament.reservable_seats = True, 10
    tournament.save(update_fields=["reservations_open", "reservable_seats"])
    reservation = reservation_services.reservation_make(
        tournament=tournament,
        first_name="Prenota",
        last_name="Posto",
        email="prenota@example.com",
        accepted_terms=True,
        now=NOW,
    )
    kiosk = Kiosk.objects.create(name="Ingresso", created_at=NOW)
    return {
        "users": users,
        "tournament": tournament,
        "cash": cash,
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
            "pk": 10**9,  # the cash room's objects: none has it
            "league_id": league.pk,
            "league": league.slug,
            "code": reservation.code,
            "visit": kiosk_selectors.visit_for(kiosk, player),
            "export": "hendon-mob",
            "part": "clock",
            "event": str(tournament.pk),
        },
        # Per address, ids other than the sample ones.
        "overrides": {
            "reservation_register": {"pk": reservation.pk},
            "reservation_desk_cancel": {"pk": reservation.pk},
            "kiosk_revoke": {"pk": kiosk.pk},
            **{name: {"token": kiosk.token} for name in ("kiosk_start", "kiosk_player")},
            "kiosk_action": {"token": kiosk.token, "action": "accessible"},
            "results_export": {"fmt": "csv"},
            "league_ranking": {"fmt": "xlsx"},
            "room_staff_undo": {"event_id": staff_change.pk},
            "overlay": {"token": overlay.token},
            "pit_ruling": {"event_id": 10**9},
            "merge_undo": {"event_id": 10**9},
            "cash_undo": {"event_id": 10**9},
            "jackpot_undo": {"event_id": 10**9},
            "dealer_undo": {"event_id": 10**9},
            **{name: {"pk": cash[kind]} for name, kind in CASH_PK.items()},
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
    assert set(MATRIX) - url_names() == set()  # no row left for an address that is gone
    for name, (_method, statuses) in MATRIX.items():
        assert set(statuses) == set(ROLES), name


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


def url_for(world, name: str) -> str:
    """The sample address of `name`, with its own ids where it has them."""
    return reverse_with(name, {**world["kwargs"], **world["overrides"].get(name, {})})


def _login(client, world, role: str) -> None:
    client.logout()
    user = world["users"][role]
    if user is not None:
        client.force_login(user)
    elif role == "display":
        # A screen's browser: it opened its secret link, and holds nothing more.
        client.get(reverse("screen", args=[world["kwargs"]["token"]]))


@pytest.mark.parametrize("name", sorted(MATRIX))
def test_each_role_gets_the_expected_status(client, world, name):
    method, expected = MATRIX[name]
    url = url_for(world, name)
    for role in ROLES:
        _login(client, world, role)
        response = getattr(client, method)(url)
        want = expected[role]
        if want == LOGIN:
            assert response.status_code == 302, (name, role, response.status_code)
            assert response["Location"].startswith(reverse("login")), (name, role)
        else:
            assert response.status_code == want, (name, role, response.status_code)


# --- foreign ids ------------------------------------------------------------------------


def snapshot() -> dict[str, list]:
    """Every row of every table but what a login itself writes (its session, the time of
    the account's last login)."""
    tables = {}
    for model in apps.get_models():
        if model._meta.label == "sessions.Session":
            continue
        rows = list(model.objects.order_by("pk").values())
        if model is get_user_model():
            rows = [{k: v for k, v in r.items() if k != "last_login"} for r in rows]
        tables[model._meta.label] = rows
    return tables


@pytest.fixture
def foreign(world):
    """Another event with its own TD, players, log, ruling, screen and league, and a league
    of only that event: ids nobody of the sample event holds."""
    other_td = world["users"]["td_other"]
    other = make_tournament(other_td, name="Elsewhere Cup")
    stranger = make_player("Straniero", "Lontano", document_number="ZZ999999")
    reg = entry_services.entry_register(tournament=other, player=stranger, actor=other_td, now=NOW)
    event = Event.objects.filter(tournament=other, action="entry.register").first()
    ruling = Ruling.objects.create(
        tournament=other, hand=Ruling.objects.first().hand, created_at=NOW
    )
    screen = DisplayScreen.objects.create(tournament=other, name="Their clock")
    league = League.objects.create(name="Theirs", slug="theirs", created_at=NOW)
    league.events.add(other)
    return {
        "tournament": other,
        "kwargs": {
            # The sample event's address, naming the other event's objects.
            "slug": world["kwargs"]["slug"],
            "player_id": stranger.pk,
            "number": reg.entry.number + 1000,
            "event_id": event.pk,
            "ruling_id": ruling.pk,
            "screen_id": screen.pk,
            "league_id": league.pk,
            "league": league.slug,
        },
    }


def _route_keys(name: str) -> set[str]:
    """The keyword arguments an address takes."""
    url = reverse_with(name, _SAMPLE_KWARGS)
    return {key for key, value in _SAMPLE_KWARGS.items() if f"/{value}/" in url}


# Addresses that name an object by an id (besides the event's slug).
ID_KEYS = {"player_id", "event_id", "ruling_id", "screen_id", "league_id", "pk", "number"}


def _id_routes() -> list[str]:
    names = []
    for name in sorted(MATRIX):
        if name in PUBLIC:
            continue
        pattern = reverse_with(name, _SAMPLE_KWARGS)
        if any(f"/{value}/" in pattern for value in _SAMPLE_IDS):
            names.append(name)
    return names


# Distinct sample values, to tell which addresses carry an id when reversed.
_SAMPLE_IDS = (7_000_001, 7_000_002, 7_000_003, 7_000_004, 7_000_005, 7_000_006, 7_000_007)
_SAMPLE_KWARGS = {
    "slug": "s",
    "player_id": 7_000_001,
    "event_id": 7_000_002,
    "ruling_id": 7_000_003,
    "screen_id": 7_000_004,
    "league_id": 7_000_005,
    "pk": 7_000_006,
    "number": 7_000_007,
    "kind": "rebuy",
    "report": "results",
    "fmt": "pdf",
    "table": 1,
    "seat": 1,
    "action": "pause",
    "token": "00000000-0000-0000-0000-000000000000",
    "league": "l",
    "code": "ABCDEFGH",
    "visit": "v",
    "export": "gpi",
    "part": "clock",
    "event": "e",
}


def _foreign_kwargs(world, foreign, name: str, role: str) -> dict | None:
    """The ids this role does not hold for this address; None when every id of its kind is
    the role's to reach (the manager's players, the cash floor's cash room)."""
    kwargs = {**world["kwargs"], **foreign["kwargs"]}
    if name in CASH_PK:
        if role in ("manager", "cash"):
            return None  # the cash room is theirs: every one of its objects
        kwargs["pk"] = world["cash"][CASH_PK[name]]
        return kwargs
    if name == "pit_ruling" and role in ("manager", "pit"):
        return None
    if role == "manager":
        return None  # the room's manager reaches every event, player and league
    if role == "td_other" and "slug" not in _route_keys(name):
        # The other event's players and league are his: the sample event's are not.
        kwargs = {**world["kwargs"], "event_id": foreign["kwargs"]["event_id"]}
    if name == "room_staff_undo":
        kwargs["event_id"] = world["overrides"]["room_staff_undo"]["event_id"]
    return kwargs


REFUSED = {FORBIDDEN, NOT_FOUND, NOT_ALLOWED}


@pytest.mark.parametrize("name", _id_routes())
def test_foreign_ids_are_not_found_and_write_nothing(client, world, foreign, name):
    # One snapshot around the whole walk: a write by any call shows, and this address's
    # name says where to look.
    before = snapshot()
    for role in ROLES:
        kwargs = _foreign_kwargs(world, foreign, name, role)
        if kwargs is None:
            continue
        url = reverse_with(name, kwargs)
        _login(client, world, role)
        for method in ("get", "post"):
            response = getattr(client, method)(url)
            status = response.status_code
            if role in ("anonymous", "display") and status == 302:
                assert response["Location"].startswith(reverse("login")), (name, role, method)
            else:
                assert status in REFUSED, (name, role, method, status)
    assert snapshot() == before, name


def test_the_foreign_routes_are_walked():
    routes = set(_id_routes())
    assert {"register", "id_check", "person", "person_export", "league_edit"} <= routes
    assert {"event_undo", "ruling_detail", "screen_revoke", "cash_seat_leave"} <= routes
