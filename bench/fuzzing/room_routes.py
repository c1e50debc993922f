"""The room's routes as fuzz targets, fuzzed as every route is (merged into
routes.targets()): the dealers' floor and back office, the pit's tables and rulings, the
kiosks, the players' phones and notifications, the jackpots, the reservations and the cash
room. Their forms' bases act on the room's rows of the world (room_world.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils import timezone

from bench.fuzzing.room_world import BOARD, LOSER, PINS, WINNER, RoomWorld, _b64
from bench.fuzzing.spec import Target, _form_kinds

if TYPE_CHECKING:
    from bench.fuzzing.worlds import World

PUBLIC = ("anonymous",)
MANAGER = ("td",)  # the world's TD is the room's manager
DESK = ("desk", "td")
CASH = ("td", "room_cash")
RAKE = ("td", "room_cash", "room_books")
BOOKS = ("td", "room_books")
PIT = ("td", "room_pit")
DEALERS_FLOOR = ("td", "room_cash", "room_pit")

ROLE_CODES = ("manager", "books", "cash", "pit", "dealer", "td")


def _room(world: World) -> RoomWorld:
    assert world.room is not None, "build_world(room=True) makes the room's rows"
    return world.room


def _profile_base(world: World) -> dict[str, Any]:
    dealer = _room(world).dealer_ids[1]
    return {
        "dealer": str(dealer),
        f"{dealer}-dealer": str(dealer),
        f"{dealer}-games": ["blackjack", "punto_banco"],
        f"{dealer}-shift_start": "20:00",
        f"{dealer}-shift_end": "04:00",
    }


def _jackpot_settings_base(world: World) -> dict[str, Any]:
    from room.forms.jackpots import JackpotSettingsForm
    from room.selectors.jackpots import jackpot_settings

    data: dict[str, Any] = {}
    for name, value in JackpotSettingsForm.initial_from(jackpot_settings()).items():
        if value is True:
            data[name] = "on"
        elif isinstance(value, list):
            data[name] = value
        elif value is not None and value is not False:
            data[name] = str(value)
    return data


def _bad_beat_base(world: World) -> dict[str, Any]:
    return {
        "table": f"c{_room(world).cash_table_ids[0]}",
        "board": BOARD,
        "loser_seat": str(LOSER[0]),
        "loser_cards": LOSER[1],
        "winner_seat": str(WINNER[0]),
        "winner_cards": WINNER[1],
        "dealt": "1 2 3 5 7",
    }


def targets() -> dict[str, Target]:
    """The room's URL names, with their fuzz specs (merged into routes.targets())."""
    from room.forms import dealers, phone
    from room.forms.jackpots import JackpotSettingsForm
    from tournaments.forms.reservations import ReservationForm, ReservationRulesForm

    slug = {"slug": "slug"}
    pay = {"payment_method": "choice:cash|card|voucher|"}
    settings_kinds = _form_kinds(JackpotSettingsForm)
    settings_kinds |= {"bad_min_hand": "hand_rank", "high_min_hand": "hand_rank"}
    night = _form_kinds(dealers.NightForm)
    profile = {
        f"{{dealer}}-{name}": kind for name, kind in _form_kinds(dealers.ProfileForm).items()
    }
    return {
        **_cash_targets(),
        **_pit_targets(),
        "room_staff": Target(
            "post",
            MANAGER,
            {
                "username": "username",
                "role": "choice:" + "|".join(ROLE_CODES),
                "action": "choice:give|take",
            },
            base=lambda w: {"username": w.usernames["outsider"], "role": "books", "action": "give"},
        ),
        "room_staff_undo": Target("post", MANAGER, kwargs={"event_id": "room_event"}),
        # The kiosks: the manager's list, and the device's own pages (its link is the key).
        "kiosks": Target("post", MANAGER, {"name": "text"}, base=lambda w: {"name": "Bar"}),
        "kiosk_revoke": Target("post", MANAGER, kwargs={"pk": "kiosk"}),
        "kiosk_start": Target(
            "post",
            PUBLIC,
            {"card": "card"},
            {"token": "kiosk_token"},
            base=lambda w: {"card": _room(w).card},
        ),
        "kiosk_player": Target("get", PUBLIC, kwargs={"token": "kiosk_token", "visit": "visit"}),
        "kiosk_action": Target(
            "post",
            PUBLIC,
            {"games": "cash_game", "event": "event_slug", "accepted_terms": "choice:1|0|"},
            {
                "token": "kiosk_token",
                "visit": "visit",
                "action": "choice:join|reserve|accessible",
            },
            base=lambda w: {
                "games": str(_room(w).cash_game_ids[1]),
                "event": w.slug,
                "accepted_terms": "1",
            },
        ),
        "reservation_rules": Target(
            "post",
            MANAGER,
            _form_kinds(ReservationRulesForm),
            base=lambda w: {"no_show_limit": "4", "no_show_days": "90"},
        ),
        # The dealers' floor.
        "dealer_floor": Target("get", DEALERS_FLOOR),
        "dealer_board": Target("get", PUBLIC),
        "dealer_push": Target("post", DEALERS_FLOOR),
        "dealer_override": Target(
            "post",
            DEALERS_FLOOR,
            {"dealer": "dealer", "table": "table_key"},
            base=lambda w: {
                "dealer": str(_room(w).dealer_ids[1]),
                "table": f"pit:{_room(w).pit_tables['open']}",
            },
        ),
        "dealer_keep": Target(
            "post",
            DEALERS_FLOOR,
            {"table": "table_key", "keep": "bool"},
            base=lambda w: {"table": f"pit:{_room(w).pit_tables['open']}", "keep": "on"},
        ),
        "dealer_undo": Target("post", DEALERS_FLOOR, kwargs={"event_id": "dealer_event"}),
        "dealer_clock": Target(
            "post",
            PUBLIC,
            {**_form_kinds(dealers.ClockForm), "username": "username", "pin": "pin"},
            base=lambda w: {
                "username": w.usernames["dealer2"],
                "pin": PINS["dealer2"],
                "direction": "out",
            },
        ),
        "dealer_relief": Target(
            "get", PUBLIC, kwargs={"kind": "choice:tournament|cash|pit", "pk": "relief_pk"}
        ),
        # The dealers' back office.
        "dealer_staff": Target("get", MANAGER),
        "dealer_profile": Target(
            "post", MANAGER, {"dealer": "dealer", **profile}, base=_profile_base
        ),
        "dealer_settings": Target(
            "post",
            MANAGER,
            _form_kinds(dealers.SettingsForm),
            base=lambda w: {
                "down_minutes": "25",
                "break_minutes": "15",
                "max_minutes_without_break": "100",
                "tips_split": "shifts",
            },
        ),
        "dealer_hours": Target("get", BOOKS, night),
        "dealer_tips": Target(
            "post",
            BOOKS,
            {**_form_kinds(dealers.TipsForm), "back": "choice:books|hours|", **night},
            base=lambda w: {
                "night": timezone.localdate().isoformat(),
                "amount": "120,50",
                "back": "books",
            },
        ),
        "pit_tables": Target(
            "post",
            PIT,
            _form_kinds(dealers.PitTableForm),
            base=lambda w: {"name": "BJ 7", "game": "blackjack"},
        ),
        "pit_table_status": Target(
            "post",
            PIT,
            _form_kinds(dealers.PitStatusForm),
            {"pk": "pit_table"},
            base=lambda w: {"status": "closed"},
        ),
        # The players' phones: the app, the seat card's QR, his notifications by his link.
        "room_phone_app": Target("get", PUBLIC),
        "room_manifest": Target("get", PUBLIC),
        "room_service_worker": Target("get", PUBLIC),
        "room_phone_qr": Target("get", PUBLIC),
        "room_entry_qr": Target("get", DESK, kwargs={"slug": "slug", "number": "entry"}),
        "room_notify_page": Target("get", PUBLIC, kwargs={"token": "notify_token"}),
        # An opt-in is the player's consent, kept as its own row (when, which language):
        # no log row names a player's phone.
        "room_notify_subscribe": Target(
            "post",
            PUBLIC,
            {"endpoint": "push_endpoint", "p256dh": "push_key", "auth": "push_auth"},
            {"token": "notify_token"},
            base=lambda w: {
                "endpoint": "https://push.invalid/fuzz/new",
                "p256dh": _b64(65),
                "auth": _b64(16),
            },
            logged=False,
            json=True,
        ),
        "room_notify_unsubscribe": Target(
            "post",
            PUBLIC,
            {"endpoint": "push_endpoint"},
            {"token": "notify_token"},
            base=lambda w: {"endpoint": _room(w).endpoint},
            logged=False,
            json=True,
        ),
        "room_notify_email": Target(
            "post",
            PUBLIC,
            {**_form_kinds(phone.EmailOptInForm), "email": "email"},
            {"token": "notify_token"},
            base=lambda w: {"email": "ada@example.org", "consent": "on"},
            logged=False,
            settings={"NOTIFY_BY_EMAIL": True},
        ),
        "room_notify_cash": Target("get", PUBLIC, kwargs={"token": "notify_token"}),
        "room_notify_from_cash": Target("get", PUBLIC, kwargs={"token": "cash_token"}),
        "room_notify_off": Target(
            "post",
            PUBLIC,
            {"List-Unsubscribe": "choice:One-Click|"},
            {"token": "off_token"},
            logged=False,
        ),
        "room_notify_answer": Target(
            "post",
            PUBLIC,
            _form_kinds(phone.AnswerForm),
            {"token": "answer_token"},
            base=lambda w: {"answer": "coming"},
        ),
        # The cash room: a remote join from the phone, the floor sees him arrive.
        "cash_phone_join": Target(
            "post",
            PUBLIC,
            {"games": "cash_game"},
            {"token": "cash_token"},
            base=lambda w: {"games": [str(_room(w).cash_game_ids[1])]},
        ),
        "cash_entry_arrived": Target("post", CASH, kwargs={"pk": "wait_entry"}),
        # The jackpots.
        "jackpot_home": Target("get", CASH),
        "jackpot_board": Target("get", PUBLIC),
        "jackpot_settings": Target("post", MANAGER, settings_kinds, base=_jackpot_settings_base),
        "jackpot_rules": Target("get", RAKE),
        "jackpot_claim": Target(
            "post",
            CASH,
            {
                "table": "claim_table",
                "board": "board",
                "loser_seat": "seat",
                "loser_cards": "hole",
                "winner_seat": "seat",
                "winner_cards": "hole",
                "dealt": "seats_dealt",
            },
            base=_bad_beat_base,
        ),
        "jackpot_confirm": Target("post", CASH, kwargs={"pk": "jackpot_claim"}),
        "jackpot_high_hand": Target(
            "post",
            CASH,
            {"table": "claim_table", "board": "board", "seat": "seat", "cards": "hole"}
            | {"time": "time"},
            base=lambda w: {
                "table": f"c{_room(w).cash_table_ids[0]}",
                "board": BOARD,
                "seat": "4",
                "cards": "Ac Ad",
            },
        ),
        "jackpot_pay_period": Target(
            "post", CASH, {"start": "datetime"}, base=lambda w: {"start": _room(w).period_due}
        ),
        "jackpot_slips": Target("get", RAKE, kwargs={"pk": "jackpot_payment"}),
        "jackpot_undo": Target("post", CASH, kwargs={"event_id": "jackpot_event"}),
        # Reservations: the public page and its confirmation, the desk's finder.
        "reserve": Target(
            "post",
            PUBLIC,
            {**_form_kinds(ReservationForm), "phone": "phone", "email": "email"},
            slug,
            base=lambda w: {
                "first_name": "Zoe",
                "last_name": "Fuzz",
                "phone": "+39 333 1234567",
                "accepted_terms": "on",
            },
        ),
        "reservation": Target("get", PUBLIC, kwargs={**slug, "code": "reservation_code"}),
        "reservation_cancel": Target("post", PUBLIC, kwargs={**slug, "code": "reservation_code"}),
        "desk_reservations": Target("get", DESK, {"q": "reservation_q"}, slug),
        "reservation_register": Target("post", DESK, pay, {**slug, "pk": "reservation"}),
        "reservation_desk_cancel": Target("post", DESK, kwargs={**slug, "pk": "reservation"}),
        # The manager reads a player's contact in full (logged).
        "person_contact": Target("post", MANAGER, kwargs={"player_id": "player"}),
    }


# --- The pit's rulings and the cash room: the room's TD and the cash floor ---------------


def _pit_targets() -> dict[str, Target]:
    from room.forms import games

    saved = {"op": "choice:save|", "note": "text"}  # a saved ruling is logged (pit.ruling)
    return {
        "pit_home": Target("get", PIT),
        "pit_blackjack": Target("post", PIT, {**_form_kinds(games.BlackjackForm), **saved}),
        "pit_punto_banco": Target("post", PIT, {**_form_kinds(games.PuntoBancoForm), **saved}),
        "pit_trainer": Target(
            "post", PIT, {"seed": "int", "answer": "text", "kind": "text"}, logged=False
        ),
        "pit_ruling": Target("get", PIT, kwargs={"event_id": "room_event"}),
    }


def _cash_targets() -> dict[str, Target]:
    from room.forms import cash as cash
    from tournaments.forms import books

    entry, table, seat = {"pk": "wait_entry"}, {"pk": "cash_table"}, {"pk": "cash_seat"}
    back = {"next": "text", "table": "int"}
    at_table = {"table": "cash_table_id", "seat": "seat"}
    return {
        "cash_board": Target("get", CASH),
        "cash_brush": Target("get", PUBLIC),
        "cash_phone": Target("get", PUBLIC, kwargs={"token": "cash_token"}),
        "cash_phone_answer": Target(
            "post",
            PUBLIC,
            {"takes_seat": "choice:yes|no"},
            {"token": "cash_token", **entry},
            base=lambda w: {"takes_seat": "yes"},
        ),
        "cash_game_add": Target(
            "post",
            MANAGER,
            _form_kinds(cash.CashGameForm),
            base=lambda w: {
                "variant": "Omaha",
                "structure": "pot_limit",
                "sb": "1",
                "bb": "2",
                "min_buy_in": "100",
                "max_seats": "9",
                "rake_percent": "5",
                "rake_cap": "20",
                "active": "on",
            },
        ),
        "cash_room_settings": Target("post", MANAGER, _form_kinds(cash.CashRoomForm)),
        "cash_keep_apart": Target(
            "post",
            MANAGER,
            _form_kinds(cash.KeepApartForm),
            base=lambda w: {"card_a": _room(w).card, "card_b": f"{_room(w).card}B"},
        ),
        "cash_list_add": Target(
            "post",
            CASH,
            {**_form_kinds(cash.ListAddForm), "games": "cash_game", "player": "cash_player"},
            base=lambda w: {
                "find": _room(w).card,
                "player": str(_room(w).cash_player_ids[5]),
                "games": [str(_room(w).cash_game_ids[1])],
                "present": "on",
            },
        ),
        "cash_entry_remove": Target("post", CASH, kwargs=entry),
        "cash_entry_answer": Target(
            "post",
            CASH,
            {"takes_seat": "choice:yes|no"},
            entry,
            base=lambda w: {"takes_seat": "yes"},
        ),
        "cash_entry_no_answer": Target("post", CASH, kwargs=entry),
        "cash_entry_skip": Target("post", CASH, kwargs=entry),
        "cash_player_search": Target("get", CASH, {"find": "name"}),
        "cash_entry_seat": Target(
            "post",
            CASH,
            {**_form_kinds(cash.SeatFromListForm), **at_table},
            entry,
            base=lambda w: {**_free_seat(w), "buy_in": "200"},
        ),
        "cash_table_open": Target(
            "post",
            CASH,
            {"number": "int", "present": "cash_player"},
            {"pk": "game"},
            base=lambda w: {
                "number": "917",
                "present": [str(p) for p in _room(w).cash_player_ids[2:4]],
            },
        ),
        "cash_table_call": Target("post", CASH, {"seat": "seat"}, table, base=_free_seat),
        "cash_table_fill": Target("post", CASH, {"seat": "seat"}, table, base=_free_seat),
        "cash_table_close": Target("post", CASH, kwargs=table),
        "cash_table_hand": Target("post", CASH, kwargs=table),
        "cash_table_rake": Target(
            "post",
            CASH,
            {**_form_kinds(cash.RakeForm), "next": "text", "shift": "text"},
            table,
            base=lambda w: {"pot": "130", "flop_dealt": "on"},
        ),
        "cash_tablet": Target("get", CASH, kwargs=table),
        # A PIN unlock is a login: logged in no room log (as a password login is not).
        "cash_pin_unlock": Target(
            "post",
            PUBLIC,
            {**_form_kinds(books.PinForm), "username": "username", "pin": "pin"},
            table,
            base=lambda w: {"username": w.usernames["dealer"], "pin": PINS["dealer"]},
            logged=False,
        ),
        "cash_seat_move": Target(
            "post", CASH, {**_form_kinds(cash.MoveForm), **at_table}, seat, base=_free_seat
        ),
        "cash_seat_request": Target("post", CASH, _form_kinds(cash.RequestForm), seat),
        "cash_seat_sit_out": Target("post", CASH, back, seat),
        "cash_seat_sit_back": Target("post", CASH, back, seat),
        "cash_seat_marker": Target("post", CASH, back, seat),
        "cash_seat_leave": Target("post", CASH, _form_kinds(cash.LeaveForm), seat),
        "cash_seat_buy": Target(
            "post",
            CASH,
            _form_kinds(cash.BuyForm),
            seat,
            base=lambda w: {"stack": "40", "amount": "300", "bought": "0"},
        ),
        "cash_undo": Target("post", CASH, kwargs={"event_id": "room_event"}),
        "cash_phone_link_new": Target("post", CASH, kwargs={"player_id": "player"}),
        "cash_rake_report": Target(
            "get", RAKE, {"shift": "text", "day": "date", "format": "choice:csv|html"}
        ),
    }


def _free_seat(world: World) -> dict[str, Any]:
    """A free seat of the world's cash table (and the table, for the forms that ask it)."""
    from room.models import CashTable
    from room.services import cash_lists

    table = CashTable.objects.get(pk=_room(world).cash_table_ids[0])
    return {"table": str(table.pk), "seat": str(cash_lists.free_seats(table)[-1])}
