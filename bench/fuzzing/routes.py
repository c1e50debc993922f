"""The event's routes as fuzz targets, one per URL name (the room's, from room_routes.py,
merged in): the method, the roles that may use it, its fields and its URL arguments, by
kind, and the valid forms that cases mutate.

A new URL needs a row in `targets()` (tests/fuzz/test_forms_fuzz.py fails otherwise).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING, Any

from bench.fuzzing import room_routes
from bench.fuzzing.spec import Target, _form_kinds

if TYPE_CHECKING:
    from bench.fuzzing.worlds import World

ROLES = ("anonymous", "outsider", "desk", "floor", "td")
STAFF = ("desk", "floor", "td")
FLOOR = ("floor", "td")
DESK = ("desk", "td")
TD = ("td",)
PUBLIC = ("anonymous",)


def _tournament_base(world: World) -> dict[str, Any]:
    from tournaments.forms.setup import TournamentForm
    from tournaments.models import Tournament

    form = TournamentForm(instance=Tournament.objects.get(pk=world.tournament_id))
    data: dict[str, Any] = {}
    for name, bound in ((n, form[n]) for n in form.fields):
        value = bound.value()
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif value is not None:
            data[name] = str(value)
    data["name"] = "Fuzz Monday"
    return data


SETUP_FIELDS = {
    **{f"name_{n}": "text" for n in range(1, 11)},
    **{f"stack_{n}": "int" for n in range(1, 11)},
    "button": "seat",
    "sb": "int",
    "bb": "int",
    "ante": "int",
    "ante_mode": "choice:none|each|bba|junk",
    "game": "choice:NL|PL|L|FL",
    "variant": "choice:holdem|omaha",
    "street": "choice:preflop|flop|turn|river",
    "small_bet": "int",
    "big_bet": "int",
    "pot": "int",
}
STEP_FIELDS = {
    "op": "choice:start|act|board|hole|muck|back|save",
    "hand": "hand",
    "names": "names",
    "seat": "seat",
    "kind": "choice:fold|check|call|bet|raise|all_in|complete|timeout|chips|declare",
    "to": "int",
    "chips": "chips",
    "declared": "choice:raise|bet|call|all_in|pot",
    "declared_to": "int",
    "words": "text",
    "forfeit": "int",
    "declared_after_chips": "bool",
    "unclear": "bool",
    "cards": "cards",
}


def _ruling_base(world: World) -> dict[str, Any]:
    return {
        "op": "start",
        "name_1": "Anna",
        "stack_1": "5000",
        "name_2": "Bruno",
        "stack_2": "5000",
        "stack_3": "3000",
        "button": "1",
        "sb": "50",
        "bb": "100",
        "game": "NL",
        "variant": "holdem",
        "street": "preflop",
        "table": "1",
    }


def _ruling_step_base(world: World) -> dict[str, Any]:
    return {
        "op": "act",
        "hand": world.hand_json,
        "names": world.names_json,
        "seat": "1",
        "kind": "call",
        "table": "1",
    }


def _structure_base(world: World) -> dict[str, Any]:
    return {
        "op": "save",
        "kind": ["level", "level", "break", "level"],
        "small_blind": ["100", "200", "", "300"],
        "big_blind": ["200", "400", "", "600"],
        "ante": ["0", "0", "", "600"],
        "ante_mode": ["none", "none", "none", "big_blind_ante"],
        "minutes": ["20", "20", "10", "20"],
        "color_up": ["", "", "25", ""],
    }


def _chipset_base(world: World) -> dict[str, Any]:
    return {
        "value_0": "25",
        "count_0": "8",
        "value_1": "100",
        "count_1": "18",
        "value_2": "500",
        "count_2": "16",
        "value_3": "1000",
        "count_3": "10",
        "colour_0": "green",
    }


def _tables_base(world: World) -> dict[str, Any]:
    return {"first": "5", "last": "6", "max_seats": "9", "accessible_seats": "1, 9"}


def _clock_base(world: World) -> dict[str, Any]:
    return {"seconds": "60", "index": "1", "table": "1", "at": "21:30", "card": "3"}


def targets() -> dict[str, Target]:
    """Every URL name of the project, with its fuzz spec."""
    from tournaments.controls import CONTROLS
    from tournaments.documents.reports import REPORTS
    from tournaments.forms.desk import PlayerForm, PurchaseForm
    from tournaments.forms.setup import (
        CloneForm,
        TablesAddForm,
        TableUpdateForm,
        TournamentForm,
    )
    from tournaments.models import ChipAdjustment, DisplayScreen, Purchase, Role
    from tournaments.rules.penalties import PenaltyKind, TableEvent

    def choice(values: Iterable[str]) -> str:
        return "choice:" + "|".join(values)

    tournament_fields = _form_kinds(TournamentForm)
    ruling_fields = {
        **SETUP_FIELDS,
        **STEP_FIELDS,
        "table": "table",
        "note": "text",
        **{f"setting_{name}": "text" for name in _engine_settings()},
    }
    return {
        "home": Target("get", ROLES),
        "login": Target(
            "post", PUBLIC, {"username": "username", "password": "text", "next": "path"}
        ),
        "logout": Target("post", ROLES, {"next": "path"}),
        "set_language": Target(
            "post", ROLES, {"language": "choice:it|en|de|", "next": "path"}, logged=False
        ),
        "tournament_list": Target("get", STAFF),
        "health": Target("get", PUBLIC),
        "tournament_export": Target("get", TD, kwargs={"slug": "slug"}),
        # The upload's file part arrives as a plain field here: "no file" is the refusal.
        "tournament_import": Target("post", TD, {"file": "text"}),
        "tournament_create": Target("post", TD, tournament_fields, base=_tournament_base),
        "tournament_home": Target("get", STAFF, kwargs={"slug": "slug"}),
        "tournament_edit": Target(
            "post", TD, tournament_fields, {"slug": "slug"}, base=_tournament_base
        ),
        "structure_edit": Target(
            "post",
            TD,
            {
                "op": "structure_op",
                "preset": "text",
                "kind": "choice:level|break",
                "small_blind": "int",
                "big_blind": "int",
                "ante": "int",
                "ante_mode": choice(["none", "each_player", "big_blind_ante"]),
                "minutes": "int",
                "color_up": "int",
            },
            {"slug": "slug"},
            base=_structure_base,
        ),
        "tables_edit": Target(
            "post",
            TD,
            {
                "action": "choice:update|add",
                **_form_kinds(TablesAddForm),
                **_form_kinds(TableUpdateForm),
                "number": "table",
            },
            {"slug": "slug"},
            base=_tables_base,
        ),
        "staff_edit": Target(
            "post",
            TD,
            {"username": "username", "role": choice(Role.values), "remove": "user"},
            {"slug": "slug"},
            base=lambda w: {"username": w.usernames["outsider"], "role": "floor"},
        ),
        "tournament_clone": Target(
            "post",
            TD,
            _form_kinds(CloneForm),
            {"slug": "slug"},
            base=lambda w: {"name": "Fuzz copy", "date": "2031-01-02"},
        ),
        "event_log": Target("get", STAFF, {"page": "int"}, {"slug": "slug"}),
        "event_row": Target("get", STAFF, kwargs={"slug": "slug", "event_id": "event"}),
        "event_undo": Target(
            "post", STAFF, {"confirm": "bool"}, {"slug": "slug", "event_id": "event"}
        ),
        "desk": Target("get", DESK, {"q": "name"}, {"slug": "slug"}),
        "desk_search": Target("get", DESK, {"q": "name"}, {"slug": "slug"}),
        "player_new": Target(
            "post",
            DESK,
            {
                **_form_kinds(PlayerForm),
                "register": "bool",
                "different_person": "bool",
                "q": "name",
                "payment_method": "choice:cash|card|voucher|",
            },
            {"slug": "slug"},
            base=lambda w: {"first_name": "Zeno", "last_name": "Fuzz", "register": "1"},
        ),
        "register": Target(
            "post",
            DESK,
            {"forfeit": "bool", "payment_method": "choice:cash|card|voucher|"},
            {"slug": "slug", "player_id": "player"},
        ),
        "id_check": Target("post", DESK, {}, {"slug": "slug", "player_id": "player"}),
        "purchase": Target(
            "post",
            DESK,
            {**_form_kinds(PurchaseForm), "payment_method": "choice:cash|card|voucher|"},
            {"slug": "slug", "number": "entry", "kind": choice(Purchase.Kind.values)},
        ),
        "seat_card": Target("get", DESK, kwargs={"slug": "slug", "number": "entry"}),
        "eliminate": Target("post", FLOOR, kwargs={"slug": "slug", "number": "entry"}),
        "ruling_tool": Target(
            "post", FLOOR, ruling_fields, {"slug": "slug"}, base=_ruling_step_base
        ),
        "ruling_detail": Target("get", FLOOR, kwargs={"slug": "slug", "ruling_id": "ruling"}),
        "ruling_phh": Target("get", FLOOR, kwargs={"slug": "slug", "ruling_id": "ruling"}),
        "ruling_publish": Target(
            "post", FLOOR, {"publish": "choice:0|1"}, {"slug": "slug", "ruling_id": "ruling"}
        ),
        "dealer_tablet": Target(
            "post",
            FLOOR,
            ruling_fields,
            {"slug": "slug", "number": "table"},
            base=_ruling_base,
        ),
        "money": Target("get", STAFF, {"page": "int", "all": "bool"}, {"slug": "slug"}),
        "payouts_generate": Target("post", TD, {"paid_places": "int"}, {"slug": "slug"}),
        "payouts_edit": Target("post", TD, {"amounts": "amounts"}, {"slug": "slug"}),
        "deal": Target(
            "post",
            TD,
            {
                "action": "choice:accept|propose",
                "method": "choice:icm|chip_chop",
                "left_to_play_for": "int",
                "stack_{entry}": "chips_int",
            },
            {"slug": "slug"},
        ),
        "eliminations": Target("get", STAFF, {"view_table": "int"}, {"slug": "slug"}),
        "eliminations_record": Target(
            "post",
            FLOOR,
            {
                "out": "entry",
                "seats": "spot",
                "stack_{entry}": "chips_int",
                "view_table": "int",
                "hand_for_hand": "bool",
                "announcement_hand": "bool",
            },
            {"slug": "slug"},
        ),
        "bounties": Target("get", STAFF, kwargs={"slug": "slug"}),
        "bounty_award": Target(
            "post",
            FLOOR,
            {
                "eliminated": "entry",
                "winners": "text",
                "low_winners": "text",
                "envelope": "text",
                "confirm": "bool",
            },
            {"slug": "slug"},
        ),
        "own_bounty": Target("post", FLOOR, kwargs={"slug": "slug"}),
        "bounty_forfeit": Target("post", FLOOR, {"entry": "entry"}, {"slug": "slug"}),
        "envelopes": Target("post", TD, {"envelopes": "text"}, {"slug": "slug"}),
        "satellite_award": Target("post", TD, {"play_off_winners": "text"}, {"slug": "slug"}),
        "bounty_slip": Target("get", STAFF, kwargs={"slug": "slug", "event_id": "event"}),
        "penalties": Target("get", STAFF, kwargs={"slug": "slug"}),
        "penalty_give": Target(
            "post",
            FLOOR,
            {
                "kind": choice(k.value for k in PenaltyKind),
                "entry": "entry",
                "rounds": "int",
                "hands": "int",
                "offence": "text",
                "stack": "chips_int",
            },
            {"slug": "slug"},
        ),
        "penalty_hand": Target(
            "post",
            FLOOR,
            {"table": "table", "event": choice(e.value for e in TableEvent)},
            {"slug": "slug"},
            logged=False,  # a hand served counts down a penalty: a counter, not an action
        ),
        "chips": Target(
            "get",
            STAFF,
            {"table": "table", "removed": "value", "preview": "bool", "held_{seat}": "int"},
            {"slug": "slug"},
        ),
        "chipset": Target(
            "post",
            TD,
            {
                "value_{i}": "value",
                "colour_{i}": "text",
                "count_{i}": "int",
                # The chips page's own fields, shown again with a refused set.
                "held_{entry}": "chips_int",
                "removed": "int",
                "table": "table",
            },
            {"slug": "slug"},
            base=_chipset_base,
        ),
        "chip_race": Target(
            "post",
            FLOOR,
            {
                "table": "table",
                "removed": "value",
                "draw": "bool",
                "held_{seat}": "int",
                "cards_{seat}": "cards",
                "only_{seat}": "bool",
            },
            {"slug": "slug"},
            base=lambda w: {"table": "1", "removed": "25", "draw": "1", "held_1": "3"},
        ),
        "color_up": Target(
            "post",
            FLOOR,
            {"entry": "entry", "target": "value", "count_{value}": "int"},
            {"slug": "slug"},
            base=lambda w: {"entry": "1", "target": "100", "count_25": "8"},
        ),
        "leftovers": Target(
            "post",
            FLOOR,
            {"entry": "entry", "removed": "value", "count": "int"},
            {"slug": "slug"},
        ),
        "chips_remove": Target(
            "post",
            FLOOR,
            {
                "amount": "chips_int",
                "reason": choice(ChipAdjustment.Reason.values),
                "note": "text",
            },
            {"slug": "slug"},
        ),
        "days": Target("get", STAFF, kwargs={"slug": "slug"}),
        "bag": Target("post", FLOOR, {"chips_{entry}": "chips_int"}, {"slug": "slug"}),
        "flight_new": Target(
            "post",
            TD,
            {"name": "text", "date": "date"},
            {"slug": "slug"},
            base=lambda w: {"name": "Day 1B", "date": "2031-01-03"},
        ),
        "flights_merge": Target("post", TD, kwargs={"slug": "slug"}),
        "day_next": Target("post", TD, kwargs={"slug": "slug"}),
        "day_redraw": Target("post", TD, kwargs={"slug": "slug"}),
        "report": Target(
            "get",
            STAFF,
            kwargs={"slug": "slug", "report": choice(REPORTS), "fmt": "choice:csv|pdf"},
        ),
        "public_results": Target("get", PUBLIC, {"page": "int", "all": "bool"}, {"slug": "slug"}),
        "results_export": Target(
            "get",
            FLOOR,
            kwargs={"slug": "slug", "export": "choice:hendon-mob|gpi", "fmt": "choice:csv|xlsx"},
        ),
        "room": Target("get", FLOOR, {"page": "int", "all_waiting": "bool"}, {"slug": "slug"}),
        "room_apply": Target("post", FLOOR, kwargs={"slug": "slug"}),
        "room_buttons": Target("post", FLOOR, kwargs={"slug": "slug"}),
        "player_move": Target(
            "post",
            FLOOR,
            {"entry": "entry", "table": "table", "seat": "seat", "back_table": "table"},
            {"slug": "slug"},
        ),
        "room_table": Target("get", FLOOR, kwargs={"slug": "slug", "table": "table"}),
        "table_button": Target(
            "post",
            FLOOR,
            {"button": "seat", "back": "choice:room|"},
            {"slug": "slug", "table": "table"},
        ),
        "floor_bust": Target(
            "post", FLOOR, {"out": "seat", "won": "seat"}, {"slug": "slug", "table": "table"}
        ),
        "dealer_bust": Target(
            "post", FLOOR, {"out": "seat", "won": "seat"}, {"slug": "slug", "number": "table"}
        ),
        "table_hand": Target("post", FLOOR, kwargs={"slug": "slug", "table": "table"}),
        "table_status": Target(
            "post", FLOOR, {"status": "choice:open|closed"}, {"slug": "slug", "table": "table"}
        ),
        "table_renumber": Target(
            "post", FLOOR, {"number": "table"}, {"slug": "slug", "table": "table"}
        ),
        "seat_lock": Target(
            "post",
            FLOOR,
            {"locked": "choice:0|1"},
            {"slug": "slug", "table": "table", "seat": "seat"},
        ),
        "move_confirm": Target(
            "post", FLOOR, {"carried_by": "text"}, {"slug": "slug", "number": "entry"}
        ),
        "clock_console": Target("get", FLOOR, kwargs={"slug": "slug"}),
        "clock_control": Target(
            "post",
            FLOOR,
            {
                "seconds": "int",
                "index": "int",
                "table": "table",
                "at": "time",
                "card": "text",
                "last_level_of_day": "bool",
            },
            {"slug": "slug", "action": choice(CONTROLS)},
            base=_clock_base,
        ),
        "screens": Target(
            "post",
            TD,
            {"name": "text", "kind": choice(DisplayScreen.Kind.values), "table_number": "table"},
            {"slug": "slug"},
            base=lambda w: {"name": "Bar", "kind": "table", "table_number": "2"},
        ),
        "screen_revoke": Target("post", TD, kwargs={"slug": "slug", "screen_id": "screen"}),
        "screen": Target("get", PUBLIC, {"page": "int", "per": "int"}, {"token": "token"}),
        "tablet_bust": Target("post", PUBLIC, {"out": "seat", "won": "seat"}, {"token": "token"}),
        "tablet_hand": Target(
            "post",
            PUBLIC,
            {"hand": "choice:done|start|dealt"},
            {"token": "token"},
            logged=False,  # "dealt" counts down penalties (see penalty_hand)
        ),
        "public_clock": Target("get", PUBLIC, kwargs={"slug": "slug"}),
        "overlay": Target(
            "get",
            PUBLIC,
            kwargs={"token": "token", "part": "choice:clock|final-table|payouts|elimination"},
        ),
        "feed_events": Target("get", PUBLIC),
        "feed_event": Target("get", PUBLIC, kwargs={"event": "slug"}),
        "seat_finder": Target("get", PUBLIC, {"q": "name"}, {"slug": "slug"}),
        **_books_targets(),
        **_people_targets(),
        **room_routes.targets(),
    }


# --- The front door, the lobby, the room dashboard, the books -----


def _books_targets() -> dict[str, Target]:
    from tournaments.forms import books

    slug = {"slug": "slug"}
    return {
        "event_books": Target("get", DESK, _form_kinds(books.NightForm), slug),
        "sale_void": Target(
            "post",
            TD,
            {**_form_kinds(books.VoidForm), "entry": "entry"},
            slug,
            base=lambda w: {"entry": str(w.entries[0]), "reason": "wrong player"},
        ),
        "printout": Target("get", STAFF, {**_form_kinds(books.PrintForm), "entry": "entry"}, slug),
        "night_books": Target("get", TD, _form_kinds(books.NightForm)),
        "night_close": Target("post", TD, _form_kinds(books.CloseForm)),
        "night_correct": Target("post", TD, _form_kinds(books.CorrectionForm)),
        "staff_accounts": Target(
            "post",
            TD,
            {**_form_kinds(books.AccountForm), "username": "username"},
            base=lambda w: {
                "action": "create",
                "username": "fuzz-dealer",
                "password": "x7-Qwerty!",
            },
        ),
        # A PIN unlock is a login: logged in no event log (as a password login is not).
        "pin_unlock": Target(
            "post",
            PUBLIC,
            {**_form_kinds(books.PinForm), "username": "username"},
            {"slug": "slug", "number": "table"},
            logged=False,
        ),
        "front_page": Target("get", PUBLIC),
        "lobby_screen": Target("get", PUBLIC, {"i": "int"}),
        "public_structure": Target("get", PUBLIC, kwargs={"slug": "slug"}),
        "room_dashboard": Target("get", FLOOR),
        "table_share": Target("post", TD, {**_form_kinds(books.ShareForm), "number": "table"}),
    }


# --- Players and leagues ---------------------------------------------------


def _people_targets() -> dict[str, Target]:
    from room.forms import people as people_forms

    listing = {
        "q": "name",
        "show": "choice:all|active|out|paid",
        "sort": "choice:number|name|table|chips|place|prize",
        "page": "int",
    }
    player = {"player_id": "player"}
    league = {**_form_kinds(people_forms.LeagueForm), "entries": "int"}
    return {
        "player_list": Target("get", STAFF, {**listing, "print": "choice:1|0"}, {"slug": "slug"}),
        "player_list_export": Target(
            "get", STAFF, {**listing, "format": "choice:csv|xlsx"}, {"slug": "slug"}
        ),
        "table_counts": Target(
            "post",
            FLOOR,
            {"table": "table", "count_{entry}": "chips_int"},
            {"slug": "slug"},
            base=lambda w: {"table": "1"},
        ),
        "people": Target("get", TD, {"q": "name", "page": "int"}),
        "people_duplicates": Target("get", TD),
        "person": Target("post", TD, _form_kinds(people_forms.ProfileForm), player),
        "person_export": Target("get", TD, kwargs=player),
        "person_photo": Target("get", TD, kwargs=player),
        "person_erase": Target("post", TD, {"confirm": "choice:1|0|"}, player),
        "person_merge": Target("post", TD, {"into": "int"}, player),
        "merge_undo": Target("post", TD, kwargs={"event_id": "event"}),
        "tablet_counts": Target(
            "post", PUBLIC, {"count_{entry}": "chips_int", "table": "table"}, {"token": "token"}
        ),
        "league_list": Target("post", TD, league),
        "league_edit": Target("post", TD, league, {"league_id": "league"}),
        "league_public": Target("get", PUBLIC, kwargs={"league": "league_slug"}),
        "league_csv": Target("get", PUBLIC, kwargs={"league": "league_slug"}),
        "league_ranking": Target(
            "get", TD, kwargs={"league_id": "league", "fmt": "choice:csv|xlsx"}
        ),
    }


def _engine_settings() -> list[str]:
    from tournaments.forms import ruling as ruling_forms

    return [name for name, _choices, _default in ruling_forms.setting_choices()]


@cache
def targets_cached() -> dict[str, Target]:
    return targets()
