"""Bad input, fuzzed: every route and every WebSocket message.

Shared by the CI sample (tests/fuzz/) and `manage.py bench fuzz`. Each case sends one
request (or a few socket frames) with junk and near-valid values to a realistic world and
checks three things:

- no server error: never a 500, never an exception, never a crashed or silent socket;
- no partial write: a refused input (an error message, a 4xx, a socket "error") changes
  nothing, and an accepted one that changes rows writes the event log (`Target.logged`);
- messages in the user's language: the user asks for Italian (language cookie and
  Accept-Language), and no message shown is an English text that has an Italian
  translation (locale/it and Django's own catalogues, read with polib).

Hypothesis and polib are test dependencies (the `test` extra): they are imported inside
functions only, so this module loads without them.

A new URL needs a row in `targets()` (tests/fuzz/test_forms_fuzz.py fails otherwise): the
method, the roles that may use it, its fields and its URL arguments, by kind. The room's
routes, their kinds and the world's room rows are in bench/fuzzing_room.py.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import sys
import traceback
import uuid
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection, transaction
from django.db.models import ForeignKey, Q
from django.urls import reverse
from django.utils import timezone

from bench import fuzzing_room
from tournaments.services import entries as entry_services
from tournaments.services import layout as layout_services
from tournaments.services import rulings as ruling_services
from tournaments.services import setup as setup_services

ROLES = ("anonymous", "outsider", "desk", "floor", "td")
STAFF = ("desk", "floor", "td")
FLOOR = ("floor", "td")
DESK = ("desk", "td")
TD = ("td",)
PUBLIC = ("anonymous",)
LANGUAGE = "it"  # the user's language in every case

# --- Targets --------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """One route: how it is called, by whom, and what its input looks like.

    `fields` maps a field name to a kind (see `_near`); a name may hold a placeholder
    expanded from the world: {entry} (entry numbers), {seat} (1-10), {i} (0-15, chip-set
    rows), {value} (chip values), {dealer} (the room's dealers, bench/fuzzing_room.py).
    `kwargs` maps URL arguments to kinds. `base` returns a valid form for the world, which
    cases then mutate. `logged`: an accepted change writes the event log (False where a
    change is by design a counter, not an action).
    """

    method: str
    roles: tuple[str, ...]
    fields: dict[str, str] = field(default_factory=dict)
    kwargs: dict[str, str] = field(default_factory=dict)
    base: Callable[[World], dict[str, Any]] | None = None
    logged: bool = True
    # The body is JSON (a page's script posts it), not a form.
    json: bool = False
    # Settings the route needs to answer at all (e-mail notices where a mail server is set).
    settings: dict[str, Any] = field(default_factory=dict)


def _form_kinds(form_class) -> dict[str, str]:
    """Field kinds of a Django form, read from its fields (a new field is fuzzed at once)."""
    from django import forms

    kinds = {}
    for name, form_field in form_class().fields.items():
        if isinstance(form_field, forms.BooleanField):
            kinds[name] = "bool"
        elif isinstance(form_field, forms.ModelChoiceField):
            # Its choices are rows (another event, say): read from the database only when
            # a case runs, so fuzz them as ids.
            kinds[name] = "int"
        elif isinstance(form_field, forms.ChoiceField):
            kinds[name] = "choice:" + "|".join(str(v) for v, _label in form_field.choices)
        elif isinstance(form_field, forms.DateField):
            kinds[name] = "date"
        elif isinstance(form_field, forms.DateTimeField):
            kinds[name] = "datetime"
        elif isinstance(form_field, forms.TimeField):
            kinds[name] = "time"
        elif isinstance(form_field, forms.DecimalField):
            kinds[name] = "decimal"
        elif isinstance(form_field, forms.IntegerField):
            kinds[name] = "int"
        elif name in {"accessible_seats", "reserved_seats"}:
            kinds[name] = "seat_list"
        else:
            kinds[name] = "text"
    return kinds


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
        **fuzzing_room.targets(),
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


def url_names() -> set[str]:
    """Every named URL of the project (as tests/test_permissions.py walks them)."""
    from django.urls import get_resolver

    names: set[str] = set()

    def walk(patterns):
        for pattern in patterns:
            if hasattr(pattern, "url_patterns"):
                walk(pattern.url_patterns)
            elif pattern.name:
                names.add(pattern.name)

    walk(get_resolver().url_patterns)
    return names


_READ = re.compile(r"\b(?:POST|GET)\.(?:get|getlist)\(\s*f?\"([^\"]*)\"")
_HELPER = re.compile(r"\b(_\w+)\(")
_SLOT = re.compile(r"\{[^}]*\}")
# A form bound to the request's data (an unbound form only renders: it reads nothing).
_FORM = re.compile(
    r"(?<![\w.])(?:(\w*forms)\.)?(\w+Form)\(\s*(?:request\.(?:POST|GET)|data\b)([^)]*)"
)
_MADE = re.compile(r"self\.fields\[\s*f?\"([^\"]*)\"\s*\]\s*=")
# The project's own apps (Django's views, login and language, read nothing of ours).
_OURS = ("tournaments.", "tables.", "room.")


def _form_fields(form_class) -> set[str]:
    """What a Django form reads: its declared fields and those its __init__ makes per
    player, seat or chip (``stack_{n}``)."""
    import inspect

    names = set(getattr(form_class, "base_fields", {}))
    if "keys" in inspect.signature(form_class.__init__).parameters or any(
        "keys" in inspect.signature(k.__init__).parameters
        for k in form_class.__mro__
        if "__init__" in k.__dict__ and k.__module__.startswith(_OURS)
    ):
        names |= set(form_class(keys=["{}"]).fields)  # one field per key: "stack_{}"
    for klass in form_class.__mro__:
        init = klass.__dict__.get("__init__")
        if init is not None and klass.__module__.startswith(_OURS):
            made = {_SLOT.sub("{}", n) for n in _MADE.findall(inspect.getsource(init))}
            names |= {n for n in made if not n.startswith("{")}  # keyed: named below
    return names


def fields_read(name: str) -> set[str]:
    """The request fields the view of URL `name` reads by name (and the helpers of its
    module that it calls), with f-string parts as "{}": a field missing from the target's
    spec would not be fuzzed."""
    import inspect

    from django.urls import get_resolver

    callbacks = {}

    def walk(patterns):
        for pattern in patterns:
            if hasattr(pattern, "url_patterns"):
                walk(pattern.url_patterns)
            elif pattern.name:
                callbacks[pattern.name] = pattern.callback

    walk(get_resolver().url_patterns)
    view = inspect.unwrap(callbacks[name])
    module = inspect.getmodule(view)
    if module is None or not module.__name__.startswith(_OURS):
        return set()  # Django's own views (login, logout, language)
    seen, todo, reads = set(), [view], set()
    while todo:
        function = todo.pop()
        if function in seen:
            continue
        seen.add(function)
        source = inspect.getsource(function)
        reads |= {_SLOT.sub("{}", field) for field in _READ.findall(source)}
        for alias, form_name, rest in _FORM.findall(source):
            holder = getattr(module, alias, None) if alias else module
            form_class = getattr(holder, form_name, None)
            if form_class is not None:
                names = _form_fields(form_class)
                # A prefixed form (one per row of a page) reads "<prefix>-<name>".
                reads |= {"{}-" + n for n in names} if "prefix=" in rest else names
        for helper in _HELPER.findall(source):
            found = getattr(module, helper, None)
            if inspect.isfunction(found) and found.__module__ == module.__name__:
                todo.append(found)
    return reads


def spec_fields(target: Target) -> set[str]:
    return {_SLOT.sub("{}", name) for name in target.fields}


# --- The world ------------------------------------------------------------------------


@dataclass
class World:
    """A tournament in play: structure, four tables, seated players, chips, payouts, a
    penalty, a saved ruling, the clock paused, three screens, and its staff."""

    tournament_id: int
    slug: str
    users: dict[str, Any]
    usernames: dict[str, str]
    player_ids: list[int]
    entries: list[int]
    tables: list[int]
    event_ids: list[int]
    ruling_ids: list[int]
    screen_ids: list[int]
    tokens: dict[str, str]
    values: list[int]
    hand_json: str
    names_json: str
    league_ids: list[int] = field(default_factory=list)
    league_slugs: list[str] = field(default_factory=list)
    probe: Any = field(default=None, repr=False)  # the snapshot's SQL, compiled once
    room: Any = field(default=None, repr=False)  # the room's rows (fuzzing_room.RoomWorld)
    # The room's one-row settings as they were before the world (fuzzing_room.room_rows).
    room_before: dict[str, Any] = field(default_factory=dict, repr=False)

    def user_ids(self) -> list[int]:
        return [u.pk for u in self.users.values() if u is not None]


def build_world(label: str = "fuzz", *, room: bool = True) -> World:
    """Build the world through the services, as the room would (committed by the caller).
    `room`: the room's rows too (bench/fuzzing_room.py), which the room's routes need."""
    from tables.engine import Hand, SeatStack, TableSetup
    from tournaments.models import DisplayScreen, Event, Player, Role, StaffAssignment
    from tournaments.services import chips, clock, penalties, results, screens

    now = timezone.now()
    # Read first: the event's first tables already make the dealers' settings row.
    room_before = fuzzing_room.room_rows()
    suffix = uuid.uuid4().hex[:8]
    User = get_user_model()
    users: dict[str, Any] = {"anonymous": None}
    for role in ("td", "floor", "desk", "outsider"):
        user = User(username=f"{label}-{role}-{suffix}", is_staff=role == "td")
        user.set_unusable_password()
        user.save()
        users[role] = user
    td = users["td"]
    tournament = setup_services.tournament_create(
        actor=td,
        fields={
            "name": f"Fuzz {suffix}",
            "date": now.date(),
            "starting_stack": 20000,
            "max_entries": 3,
            "reentry_forfeit_allowed": True,
            "rebuys_allowed": True,
            "rebuy_max": 2,
            "rebuy_price": 50,
            "rebuy_chips": 20000,
            "addon_allowed": True,
            "addon_price": 50,
            "addon_chips": 20000,
            "late_registration_level": 6,
            # Two seats held by reservation, the rest of them wait (fuzzing_room).
            "reservations_open": True,
            "reservable_seats": 2,
        },
        now=now,
    )
    for role in ("floor", "desk"):
        StaffAssignment.objects.create(tournament=tournament, user=users[role], role=Role(role))
    # The cash room: the TD also manages the room.
    from tournaments.models import RoomRole, RoomStaff

    RoomStaff.objects.create(user=td, role=RoomRole.MANAGER)
    spec = setup_services.ItemSpec
    setup_services.structure_set(
        tournament=tournament,
        actor=td,
        items=[
            spec(kind="level", small_blind=100, big_blind=200, minutes=20),
            spec(kind="level", small_blind=200, big_blind=400, minutes=20),
            spec(kind="break", minutes=10, color_up=25),
            spec(kind="level", small_blind=300, big_blind=600, minutes=20),
            spec(
                kind="level",
                small_blind=400,
                big_blind=800,
                ante=800,
                ante_mode="big_blind_ante",
                minutes=20,
            ),
            spec(kind="level", small_blind=500, big_blind=1000, minutes=20),
            spec(kind="level", small_blind=1000, big_blind=2000, minutes=20),
        ],
        now=now,
    )
    layout_services.tables_add(
        tournament=tournament,
        actor=td,
        first=1,
        last=4,
        max_seats=9,
        accessible_seats=[1],
        reserved_seats=[],
        now=now,
    )
    chips.chipset_set(
        tournament=tournament,
        actor=td,
        denominations=[
            chips.DenominationSpec(value=25, colour="green", in_starting_stack=8),
            chips.DenominationSpec(value=100, colour="black", in_starting_stack=18),
            chips.DenominationSpec(value=500, colour="purple", in_starting_stack=16),
            chips.DenominationSpec(value=1000, colour="yellow", in_starting_stack=10),
        ],
        now=now,
    )
    players = [
        Player.objects.create(first_name=f"Gino{i}", last_name=f"Fuzz{suffix}{i:02d}")
        for i in range(16)
    ]
    entries = []
    for player in players[:14]:
        registration = entry_services.entry_register(
            tournament=tournament, player=player, actor=td, now=now
        )
        entries.append(registration.entry)
    entry_services.entry_eliminate(tournament=tournament, entry=entries[-1], actor=td, now=now)
    entry_services.id_check(tournament=tournament, player=players[0], actor=td, now=now)
    penalties.penalty_give(
        tournament=tournament, entry=entries[1], kind="missed_hands", hands=3, actor=td, now=now
    )
    results.payouts_generate(tournament=tournament, actor=td, now=now)
    clock.clock_start(tournament=tournament, actor=td, now=now)
    clock.clock_pause(tournament=tournament, actor=td, now=now)
    hand = Hand(
        TableSetup(players=(SeatStack(1, 5000), SeatStack(2, 5000)), button=1, sb=50, bb=100)
    )
    ruling = ruling_services.ruling_save(
        tournament=tournament,
        actor=td,
        hand=hand.to_dict(),
        names={"1": "Anna", "2": "Bruno"},
        table_number=1,
        note="",
        now=now,
    )
    made = {
        kind: screens.screen_create(
            tournament=tournament,
            actor=td,
            name=f"{kind} screen",
            kind=kind,
            table_number=1 if kind == DisplayScreen.Kind.TABLE else None,
            now=now,
        )
        for kind in DisplayScreen.Kind.values
    }
    three = Hand(
        TableSetup(
            players=(SeatStack(1, 5000), SeatStack(2, 5000), SeatStack(3, 3000)),
            button=1,
            sb=50,
            bb=100,
        )
    )
    from room.models import League

    league = League.objects.create(
        name=f"Fuzz league {suffix}", slug=f"fuzz-league-{suffix}", created_at=now
    )
    league.events.set([tournament])
    world = World(
        tournament_id=tournament.pk,
        slug=tournament.slug,
        users=users,
        usernames={r: u.get_username() for r, u in users.items() if u is not None},
        player_ids=[p.pk for p in players],
        entries=[e.number for e in entries],
        tables=[1, 2, 3, 4],
        event_ids=list(
            Event.objects.filter(tournament=tournament).values_list("pk", flat=True)[:40]
        ),
        ruling_ids=[ruling.pk],
        screen_ids=[s.pk for s in made.values()],
        tokens={kind: str(s.token) for kind, s in made.items()},
        values=[25, 100, 500, 1000],
        hand_json=json.dumps(three.to_dict()),
        names_json=json.dumps({"1": "Anna", "2": "Bruno", "3": "Carla"}),
        league_ids=[league.pk],
        league_slugs=[league.slug],
        room_before=room_before,
    )
    if room:
        world.room = fuzzing_room.build_room(world)
    return world


def delete_world(world: World) -> None:
    """Remove everything the world made (the bench runs against the configured database)."""
    from room.models import League
    from tournaments.models import Player, Reservation, SeatBoardVersion, Tournament

    with transaction.atomic():
        fuzzing_room.delete_room(world)
        family = Tournament.objects.filter(
            Q(pk=world.tournament_id)
            | Q(parent_id=world.tournament_id)
            | Q(staff__user_id__in=world.user_ids())
        )
        ids = list(family.values_list("pk", flat=True))
        # A reservation's record, made when it arrived or lapsed (a clock's level change
        # on the socket commits).
        reserved = list(
            Reservation.objects.filter(tournament_id__in=ids, player__isnull=False).values_list(
                "player_id", flat=True
            )
        )
        Tournament.objects.filter(pk__in=ids).delete()
        # The seating board's token: a row per event the database's triggers keep.
        SeatBoardVersion.objects.filter(tournament_id__in=ids).delete()
        League.objects.filter(pk__in=world.league_ids).delete()
        Player.objects.filter(pk__in=[*world.player_ids, *reserved]).delete()
        get_user_model().objects.filter(pk__in=world.user_ids()).delete()


# --- What the database holds ----------------------------------------------------------

# Sessions change with every login; nothing a user types lands there.
_UNWATCHED = {"sessions.Session"}
_UNHASHED_FIELDS = {"last_login"}


def _scope(model, world: World):
    """The world's rows of `model` (None: only its row count is watched)."""
    from tournaments.models import Player, Tournament

    manager = model._default_manager
    if model is Tournament:
        return manager.filter(Q(pk=world.tournament_id) | Q(parent_id=world.tournament_id))
    if model is Player:
        return manager.filter(pk__in=world.player_ids)
    if model is get_user_model():
        return manager.filter(pk__in=world.user_ids())
    room = fuzzing_room.scope(model, world)
    if room is not None:
        return room
    names = {f.name: f for f in model._meta.concrete_fields}
    if "tournament" in names:
        return manager.filter(tournament_id=world.tournament_id)
    for f in model._meta.concrete_fields:
        related = f.related_model if isinstance(f, ForeignKey) else None
        if related is not None and any(
            g.name == "tournament" for g in related._meta.concrete_fields
        ):
            return manager.filter(**{f"{f.name}__tournament_id": world.tournament_id})
    return None


@dataclass
class _Probe:
    """The SQL of a snapshot, compiled once per world (the ORM's compiler is slow)."""

    counts: tuple[str, list[str]]
    digests: list[tuple[str, str, tuple]]


def _probe(world: World) -> _Probe:
    if world.probe is not None:
        return world.probe
    labels, parts, digests = [], [], []
    for model in apps.get_models():
        label = model._meta.label
        if label in _UNWATCHED:
            continue
        labels.append(label)
        parts.append(f"(SELECT COUNT(*) FROM {connection.ops.quote_name(model._meta.db_table)})")
        rows = _scope(model, world)
        if rows is not None:
            names = [
                f.attname for f in model._meta.concrete_fields if f.name not in _UNHASHED_FIELDS
            ]
            sql, params = rows.order_by("pk").values_list(*names).query.sql_with_params()
            digests.append((label, sql, params))
    world.probe = _Probe(("SELECT " + ", ".join(parts), labels), digests)
    return world.probe


def snapshot(world: World) -> dict[str, tuple[int, str]]:
    """Row counts of every model, and a digest of the world's own rows."""
    probe = _probe(world)
    sql, labels = probe.counts
    with connection.cursor() as cursor:
        cursor.execute(sql)
        counts = dict(zip(labels, cursor.fetchone(), strict=True))
        state = {label: (count, "") for label, count in counts.items()}
        for label, query, params in probe.digests:
            cursor.execute(query, params)
            digest = hashlib.md5(repr(cursor.fetchall()).encode(), usedforsecurity=False)
            state[label] = (counts[label], digest.hexdigest())
    return state


def event_count() -> int:
    """Rows of the tournaments' log and of the room's own log (cash room, pit)."""
    from room.models import RoomEvent
    from tournaments.models import Event

    total = 0
    with connection.cursor() as cursor:
        for model in (Event, RoomEvent):
            cursor.execute(
                f"SELECT COUNT(*) FROM {connection.ops.quote_name(model._meta.db_table)}"
            )
            total += cursor.fetchone()[0]
    return total


def changed(before: dict, after: dict) -> list[str]:
    return sorted(label for label in after if before.get(label) != after[label])


# --- The user's language --------------------------------------------------------------

_PLACEHOLDER = re.compile(r"%\(\w+\)[sdifr]|%[sdifr]|%%|\{\w*\}")


@dataclass
class _Pattern:
    msgid: str
    key: str  # the longest literal piece: a cheap test before the regex
    regex: re.Pattern[str]


class Catalog:
    """Tells an English text with an Italian translation from Italian (or untranslatable)
    text, using the project's catalogue and Django's own (form and login errors)."""

    def __init__(self, language: str = LANGUAGE) -> None:
        import django
        import polib

        files = [Path(p) / language / "LC_MESSAGES" / "django.po" for p in settings.LOCALE_PATHS]
        root = Path(django.__file__).parent
        files += [
            root / "conf" / "locale" / language / "LC_MESSAGES" / "django.po",
            root / "contrib" / "auth" / "locale" / language / "LC_MESSAGES" / "django.po",
        ]
        english: dict[str, str] = {}
        translated: list[str] = []
        for path in files:
            if not path.exists():
                continue
            for entry in polib.pofile(str(path)):
                if entry.obsolete or "fuzzy" in entry.flags:
                    continue
                pairs = [(entry.msgid, entry.msgstr)]
                if entry.msgid_plural:
                    plurals = [entry.msgstr_plural[k] for k in sorted(entry.msgstr_plural)]
                    pairs = [(entry.msgid, plurals[0] if plurals else "")]
                    pairs.append((entry.msgid_plural, plurals[-1] if plurals else ""))
                for msgid, msgstr in pairs:
                    if msgstr:
                        translated.append(msgstr)
                    if msgstr and msgstr != msgid:
                        english[msgid] = msgstr
        italian_text = "\n".join(translated)
        self.patterns: list[_Pattern] = []
        for msgid in english:
            pieces = [p for p in _PLACEHOLDER.split(msgid) if p.strip()]
            key = max(pieces, key=len, default="")
            # Short texts ("Seat", "Table %(n)s") read the same in both languages too
            # often to tell; a piece an Italian translation also contains proves nothing.
            if len(key.strip()) < 12 or " " not in key.strip() or key in italian_text:
                continue
            self.patterns.append(_Pattern(msgid, key, _regex(msgid)))

    def english_in(self, text: str) -> str | None:
        """The English msgid found in `text`, if any."""
        for pattern in self.patterns:
            if pattern.key in text and pattern.regex.search(text):
                return pattern.msgid
        return None


def _regex(msgid: str) -> re.Pattern[str]:
    parts = []
    last = 0
    for match in _PLACEHOLDER.finditer(msgid):
        parts.append(re.escape(msgid[last : match.start()]))
        parts.append("%" if match.group() == "%%" else ".*?")
        last = match.end()
    parts.append(re.escape(msgid[last:]))
    return re.compile("".join(parts), re.DOTALL)


_ERRORLIST = re.compile(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', re.DOTALL)
_TAG = re.compile(r"<[^>]+>")


def shown_messages(response) -> tuple[list[str], list[str]]:
    """(error texts, other texts) the user sees: flashed messages, an htmx error event,
    and form errors written into the page."""
    import html

    from django.contrib import messages

    errors, others = [], []
    storage = getattr(getattr(response, "wsgi_request", None), "_messages", None)
    # A page that shows its messages moves them from the queue to the loaded list (each
    # case has a fresh client, so nothing older is loaded).
    shown = [*getattr(storage, "_loaded_messages", []), *getattr(storage, "_queued_messages", [])]
    for message in shown:
        (errors if message.level >= messages.ERROR else others).append(str(message.message))
    trigger = response.headers.get("HX-Trigger", "")
    if "torneo:error" in trigger:
        try:
            errors.append(str(json.loads(trigger)["torneo:error"]))
        except (ValueError, KeyError, TypeError):
            errors.append(trigger)
    content_type = response.headers.get("Content-Type", "")
    if content_type.startswith("text/html") and not getattr(response, "streaming", False):
        body = response.content.decode("utf-8", "replace")
        for block in _ERRORLIST.findall(body):
            for item in re.findall(r"<li>(.*?)</li>", block, re.DOTALL):
                errors.append(html.unescape(_TAG.sub("", item)).strip())
    return errors, others


# --- Outcomes -------------------------------------------------------------------------


@dataclass
class Outcome:
    target: str
    refused: bool = False
    accepted: bool = False  # something changed, and the log says so
    server_error: str = ""
    partial_write: str = ""
    untranslated: str = ""
    message: str = ""  # the first refusal shown, for the bench's report
    # Money written more than once by copies of one request (bench/fuzzing_money.py).
    double_payment: str = ""

    @property
    def problems(self) -> list[str]:
        found = (self.server_error, self.partial_write, self.untranslated, self.double_payment)
        return [p for p in found if p]


@dataclass
class Tally:
    """Per-target counts for the bench's report."""

    cases: dict[str, int] = field(default_factory=dict)
    refused: dict[str, int] = field(default_factory=dict)
    accepted: dict[str, int] = field(default_factory=dict)
    server_errors: int = 0
    partial_writes: int = 0
    untranslated: int = 0
    double_payments: int = 0
    samples: list[str] = field(default_factory=list)
    messages: dict[str, dict[str, int]] = field(default_factory=dict)

    def add(self, outcome: Outcome) -> None:
        name = outcome.target
        if outcome.message:
            seen = self.messages.setdefault(name, {})
            seen[outcome.message[:90]] = seen.get(outcome.message[:90], 0) + 1
        self.cases[name] = self.cases.get(name, 0) + 1
        self.refused[name] = self.refused.get(name, 0) + outcome.refused
        self.accepted[name] = self.accepted.get(name, 0) + outcome.accepted
        self.server_errors += bool(outcome.server_error)
        self.partial_writes += bool(outcome.partial_write)
        self.untranslated += bool(outcome.untranslated)
        self.double_payments += bool(outcome.double_payment)
        for problem in outcome.problems:
            if len(self.samples) < 40:
                self.samples.append(f"{name}: {problem[:600]}")


# --- Strategies -----------------------------------------------------------------------

JUNK = (
    "",
    " ",
    "0",
    "-1",
    "-0",
    "+5",
    "1.5",
    "1e9",
    "1_000",
    "0x1f",
    "NaN",
    "inf",
    "-inf",
    "2147483648",
    "9223372036854775808",
    "-9223372036854775809",
    "99999999999999999999999999",
    "abc",
    "null",
    "None",
    "true",
    "[]",
    "{}",
    '{"a": 1}',
    "\x00",
    "a\x00b",
    "１２",
    "²",
    "٣",
    # Digits of other scripts and other numerals: str.isdigit() or int() take many of them
    # Every number the app reads must be ASCII digits.
    "۳",  # Extended Arabic-Indic
    "०१",  # Devanagari
    "৩",  # Bengali
    "๓",  # Thai
    "߃",  # NKo
    "፫",  # Ethiopic (a digit to isdigit(), not to int())
    "᠓",  # Mongolian
    "𝟗",  # mathematical bold
    "⑤",  # circled
    "Ⅻ",  # Roman numeral
    "½",
    "三",
    "-٣",
    "٣٫٥",  # Arabic decimal separator
    "1٬000",  # Arabic thousands separator
    "１e３",
    "٣​",
    "🂡🂱",
    "Ah\x00Kd",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "%s %(x)s %%",
    "{0} {x}",
    "../../etc/passwd",
    "\r\n\t",
    "\u202e\u200b",
    "9/",
    "/9",
    "1/99",
    "9999999/1",
)
LONG = (
    "x" * 5000,
    "9" * 5000,
    "9" * 4301,
    "1" * 40,
    "é" * 3000,
    "[" * 5000 + "]" * 5000,
    '{"a":' * 3000 + "1" + "}" * 3000,
    "\x00" * 100,
)


def _st():
    from hypothesis import strategies as st

    return st


def junk():
    st = _st()
    return st.one_of(
        st.sampled_from(JUNK),
        st.text(max_size=30),
        st.integers(min_value=-(10**30), max_value=10**30).map(str),
        st.floats().map(str),
        st.sampled_from(LONG),
        st.text(max_size=300),
    )


# The digits 0-9 of other scripts, for a number typed in any of them.
DIGIT_SCRIPTS = (
    "٠١٢٣٤٥٦٧٨٩",  # Arabic-Indic
    "۰۱۲۳۴۵۶۷۸۹",  # Extended Arabic-Indic
    "०१२३४५६७८९",  # Devanagari
    "০১২৩৪৫৬৭৮৯",  # Bengali
    "๐๑๒๓๔๕๖๗๘๙",  # Thai
    "０１２３４５６７８９",  # fullwidth
    "𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗",  # mathematical bold
    "⁰¹²³⁴⁵⁶⁷⁸⁹",  # superscript
    "₀₁₂₃₄₅₆₇₈₉",  # subscript
    "⓪①②③④⑤⑥⑦⑧⑨",  # circled
)


def _in_script(text: str, script: str) -> str:
    return text.translate(str.maketrans("0123456789", script))


def _numerals(strategy):
    """Numbers as typed, and the same numbers in the digits of another script."""
    st = _st()
    other = st.tuples(strategy, st.sampled_from(DIGIT_SCRIPTS)).map(lambda p: _in_script(*p))
    return st.one_of(strategy, strategy, other)


def _near(kind: str, world: World):
    """Values a user might really type for a field of this kind."""
    st = _st()
    small = st.integers(min_value=0, max_value=60).map(str)
    if kind.startswith("choice:"):
        return st.sampled_from(kind.split(":", 1)[1].split("|"))
    simple = {
        "int": st.one_of(small, st.sampled_from(["100", "200", "1000", "20000", "1000000"])),
        "chips_int": st.sampled_from(["0", "25", "5000", "20000", "40000", "100000"]),
        "decimal": st.sampled_from(["0", "5", "12.5", "100", "100.01", "3,5"]),
        "bool": st.sampled_from(["on", "1", "0", "true", "false", "off"]),
        "date": st.one_of(
            st.dates().map(lambda d: d.isoformat()),
            st.sampled_from(["2026-02-30", "31/12/2030", "2030-13-01", "0000-00-00"]),
        ),
        "time": st.sampled_from(["21:30", "9:05", "25:00", "21:61", "2030-01-01T10:00", "now"]),
        # NUL bytes come with the junk (the middleware refuses the whole request).
        "text": st.one_of(st.sampled_from(["Anna", "Bar", "Dealer Gigi", "Nöel"]), st.text()),
        "name": st.sampled_from(["Gino", "Fuzz", "gino1", "ma", "x", "Rossi", "%", "_"]),
        "seat": st.integers(min_value=0, max_value=23).map(str),
        "table": st.sampled_from([*map(str, world.tables), "5", "0", "10000"]),
        "entry": st.sampled_from([*map(str, world.entries), "0", "99"]),
        "value": st.sampled_from([*map(str, world.values), "5000", "1", "0"]),
        "spot": st.sampled_from(["1/1", "1/2", "2.3", "3-4", "4/9", "1/1 1/2", "9/9,1/3"]),
        "amounts": st.sampled_from(["500 300 200", "1000", "100,50,25", "10 20", "0 0"]),
        "cards": st.sampled_from(["Ah 7c 2d", "Ks", "Ah Kh", "As As", "Xx 7c", "Td 9d 8d 7d"]),
        "chips": st.sampled_from(["100", "100 25", "500 500 100"]),
        "seat_list": st.sampled_from(["1", "1, 9", "1;2 3", "0", "11", "1,,9", "1000"]),
        "username": st.sampled_from([*world.usernames.values(), "nobody", "admin"]),
        "path": st.sampled_from(["/", "/t/", "https://evil.example/", "//evil", "javascript:1"]),
        "structure_op": st.sampled_from(
            ["save", "add_level", "add_break", "delete:0", "up:1", "down:0", "preset", "up:x"]
        ),
        "names": st.sampled_from([world.names_json, "{}", '{"1": ["x"]}', '{"a": 1}', "[]"]),
        "hand": st.one_of(st.just(world.hand_json), _mutated_json(world.hand_json)),
        "datetime": st.sampled_from(
            ["2030-01-01 10:00", "2030-01-01T10:00:00+01:00", "31/12/2030 10:00", "now"]
        ),
        **fuzzing_room.field_kinds(world),
    }
    for numeric in ("int", "chips_int", "decimal", "seat", "table", "entry", "value", "amounts"):
        simple[numeric] = _numerals(simple[numeric])
    if kind in simple:
        return simple[kind]
    raise KeyError(f"no strategy for field kind {kind!r}")


def _mutated_json(text: str):
    """A valid hand with one value swapped for junk of another JSON type."""
    st = _st()
    data = json.loads(text)
    paths = list(_json_paths(data))
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(10**20), max_value=10**20),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=20),
        st.just([]),
        st.just({}),
    )

    def swap(args):
        path, value = args
        copy = json.loads(text)
        node = copy
        for step in path[:-1]:
            node = node[step]
        node[path[-1]] = value
        return json.dumps(copy)

    return st.tuples(st.sampled_from(paths), scalars).map(swap)


def _json_paths(node, path=()):
    if isinstance(node, dict):
        for key, value in node.items():
            yield (*path, key)
            yield from _json_paths(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield (*path, index)
            yield from _json_paths(value, (*path, index))


def _expand(fields: dict[str, str], world: World) -> dict[str, str]:
    out = {}
    room = fuzzing_room.placeholders(world)
    for name, kind in fields.items():
        placeholder = next((p for p in room if p in name), None)
        if placeholder is not None:
            out.update({name.replace(placeholder, str(n)): kind for n in room[placeholder]})
        elif "{entry}" in name:
            out.update({name.replace("{entry}", str(n)): kind for n in world.entries})
        elif "{seat}" in name:
            out.update({name.replace("{seat}", str(n)): kind for n in range(1, 11)})
        elif "{i}" in name:
            out.update({name.replace("{i}", str(n)): kind for n in range(16)})
        elif "{value}" in name:
            out.update({name.replace("{value}", str(n)): kind for n in world.values})
        else:
            out[name] = kind
    return out


@dataclass
class FormCase:
    target: str
    role: str
    kwargs: dict[str, Any]
    data: dict[str, Any]
    htmx: bool = False
    raw: bytes | None = None
    content_type: str = ""


def often(strategy_of: Callable[[], Any], times: int, *others):
    """`strategy_of()` drawn `times` as often as each of `others`. Hypothesis's one_of draws
    each distinct branch alike and counts a branch given twice once: each repeat is a
    strategy of its own."""
    return _st().one_of(*[strategy_of() for _ in range(times)], *others)


def _value(kind: str, world: World):
    st = _st()

    def one():
        return often(lambda: _near(kind, world), 2, junk())

    return often(one, 3, st.lists(one(), min_size=2, max_size=4))


def _kwarg(kind: str, world: World):
    """URL arguments: the world's own, others that do not exist, and junk in the pattern."""
    st = _st()
    big = st.integers(min_value=0, max_value=10**25)

    def mostly(values):
        return often(lambda: st.sampled_from(values), 4, big)

    words = st.text(st.characters(blacklist_characters="/", codec="utf-8"), min_size=1)
    near = {
        "slug": st.sampled_from([world.slug] * 18 + ["nope", "a" * 100]),
        "player": mostly(world.player_ids),
        "entry": mostly(world.entries),
        "event": mostly(world.event_ids),
        "ruling": mostly(world.ruling_ids),
        "table": mostly(world.tables),
        "seat": mostly(list(range(0, 12))),
        "screen": mostly(world.screen_ids),
        "league": mostly(world.league_ids),
        "league_slug": st.sampled_from([*world.league_slugs, "nope"]),
        "token": often(
            lambda: st.sampled_from(sorted(world.tokens.values())), 4, st.uuids().map(str)
        ),
        **fuzzing_room.kwarg_kinds(world),
    }
    if kind.startswith("choice:"):
        return often(lambda: st.sampled_from(kind.split(":", 1)[1].split("|")), 3, words)
    return near[kind]


def form_cases(name: str, target: Target, world: World):
    """Hypothesis strategy of cases for one route."""
    st = _st()
    fields = _expand(target.fields, world)
    values = {f: _value(kind, world) for f, kind in fields.items()}
    extra = st.dictionaries(
        st.one_of(
            st.sampled_from(["op", "action", "next", "entry", "table", "csrfmiddlewaretoken"]),
            st.text(min_size=1, max_size=12),
        ),
        junk(),
        max_size=3,
    )
    random_form = st.fixed_dictionaries({}, optional=values) if values else st.just({})
    # Every field filled with what a user might type: reaches the services more often.
    typed = st.fixed_dictionaries({f: _near(kind, world) for f, kind in fields.items()})
    forms = [random_form, typed]
    if target.base is not None:
        base = target.base(world)
        names = sorted(set(base) | set(fields))

        def mutate(args):
            changes = args
            data = dict(base)
            for key, new in changes:
                if new is None:
                    data.pop(key, None)
                else:
                    data[key] = new
            return data

        change = st.tuples(
            st.sampled_from(names),
            st.one_of(st.none(), junk(), *(_value(fields.get(n, "text"), world) for n in names))
            if len(names) < 40
            else st.one_of(st.none(), junk(), st.text(max_size=10)),
        )
        forms += [st.lists(change, max_size=3).map(mutate) for _ in range(2)]
    data = st.tuples(st.one_of(*forms), extra).map(lambda p: {**p[1], **p[0]})
    raw = st.one_of(
        st.none(),
        st.none(),
        st.none(),
        st.none(),
        st.one_of(
            st.binary(max_size=200),
            st.sampled_from(
                [b"a=%zz&b=%ff%fe", b"\xff\xfe\x00", b"=&=&&", b"--zz\r\n\r\n", b"a" * 100000]
            ),
        ),
    )
    content_type = st.sampled_from(
        [
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=zz",
            "multipart/form-data",
            "application/json",
            "text/plain; charset=utf-16",
        ]
    )
    roles = st.one_of(st.sampled_from(target.roles), st.sampled_from(sorted(world.users)))
    kwargs = st.fixed_dictionaries({k: _kwarg(kind, world) for k, kind in target.kwargs.items()})
    return st.builds(
        FormCase,
        target=st.just(name),
        role=st.one_of(st.sampled_from(target.roles), roles),
        kwargs=kwargs,
        data=data,
        htmx=st.booleans(),
        raw=raw if target.method == "post" else st.none(),
        content_type=content_type,
    )


# --- Running a form case --------------------------------------------------------------


class _Errors:
    """Exceptions raised inside views (the test client turns them into 500 responses)."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def __call__(self, sender, request=None, **kwargs) -> None:
        exc = sys.exc_info()[1]
        if exc is None:
            return
        frames = traceback.extract_tb(exc.__traceback__)
        ours = [f for f in frames if "site-packages" not in f.filename] or frames
        where = f"{ours[-1].filename}:{ours[-1].lineno} in {ours[-1].name}" if ours else "?"
        self.seen.append(f"{type(exc).__name__}: {str(exc)[:300]} ({where})")


def _client(role: str, world: World):
    from django.test import Client

    client = Client(
        raise_request_exception=False,
        HTTP_ACCEPT_LANGUAGE=LANGUAGE,
        REMOTE_ADDR=f"10.9.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}",
    )
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = LANGUAGE
    user = world.users.get(role)
    if user is not None:
        client.force_login(user)
    return client


def _url(name: str, kwargs: dict[str, Any]) -> str:
    from django.urls import NoReverseMatch

    try:
        return reverse(name, kwargs=kwargs)
    except NoReverseMatch:
        return ""


def _refusal(response, errors: list[str]) -> bool:
    from django.conf import settings as conf

    if errors or response.status_code >= 400:
        return True
    location = response.headers.get("Location", "")
    return response.status_code == 302 and location.startswith(conf.LOGIN_URL)


def _submitted_texts(case: FormCase) -> list[str]:
    """The texts the case submitted, longest first (a message may quote them)."""
    values: list[str] = []
    for value in (case.data or {}).values():
        values += [str(v) for v in value] if isinstance(value, list | tuple) else [str(value)]
    return sorted((v for v in values if v.strip()), key=len, reverse=True)


def run_form_case(world: World, case: FormCase, catalog: Catalog) -> Outcome:
    """One request; the database is rolled back afterwards whatever happened."""
    from django.test import override_settings

    target = targets_cached()[case.target]
    with override_settings(**target.settings):
        return _run_form_case(world, case, catalog, target)


def _run_form_case(world: World, case: FormCase, catalog: Catalog, target: Target) -> Outcome:
    from django.core.signals import got_request_exception

    outcome = Outcome(case.target)
    url = _url(case.target, case.kwargs)
    if not url:  # junk that the URL pattern does not take never reaches a view
        outcome.refused = True
        return outcome
    recorder = _Errors()
    got_request_exception.connect(recorder)
    try:
        with transaction.atomic():
            client = _client(case.role, world)
            headers = {"HX-Request": "true"} if case.htmx else {}
            before, events_before = snapshot(world), event_count()
            try:
                if target.method == "get":
                    response = client.get(url, case.data, headers=headers)
                elif target.json and case.raw is None:
                    body = json.dumps(case.data)
                    response = client.post(
                        url, body, content_type="application/json", headers=headers
                    )
                elif case.raw is not None:
                    response = client.generic(
                        "POST", url, case.raw, content_type=case.content_type, headers=headers
                    )
                else:
                    response = client.post(url, case.data, headers=headers)
            except Exception:  # noqa: BLE001 - any exception is the finding
                outcome.server_error = traceback.format_exc(limit=-6)
                transaction.set_rollback(True)
                return outcome
            if response.status_code >= 500:
                outcome.server_error = f"{response.status_code}: " + (
                    recorder.seen[-1] if recorder.seen else "no exception recorded"
                )
                transaction.set_rollback(True)
                return outcome
            errors, others = shown_messages(response)
            outcome.refused = _refusal(response, errors)
            outcome.message = errors[0] if errors else f"HTTP {response.status_code}"
            try:
                after, events_after = snapshot(world), event_count()
            except DatabaseError as exc:  # the request left the transaction broken
                outcome.server_error = f"broken transaction after the request: {exc}"
                transaction.set_rollback(True)
                return outcome
            diff = changed(before, after)
            logged = events_after > events_before
            if diff and outcome.refused:
                outcome.partial_write = f"refused ({errors[:2]}) but changed {diff}"
            elif diff and target.logged and not logged:
                outcome.partial_write = f"changed {diff} without an event"
            outcome.accepted = bool(diff) and not outcome.partial_write
            echoed = _submitted_texts(case)
            for text in errors + others:
                # A message may quote what was typed ("X is not one of the choices"): the
                # fuzzer types the site's own English texts, which are no untranslated
                # message of the site's.
                for value in echoed:
                    text = text.replace(value, "")
                english = catalog.english_in(text)
                if english:
                    outcome.untranslated = f"{text!r} is English ({english!r})"
                    break
            transaction.set_rollback(True)
    finally:
        got_request_exception.disconnect(recorder)
    if outcome.problems:
        outcome.server_error = outcome.server_error and f"{_describe(case)}\n{outcome.server_error}"
        outcome.partial_write = (
            outcome.partial_write and f"{_describe(case)} {outcome.partial_write}"
        )
        outcome.untranslated = outcome.untranslated and f"{_describe(case)} {outcome.untranslated}"
    return outcome


def _describe(case: FormCase) -> str:
    data = {k: (v[:80] if isinstance(v, str) else v) for k, v in case.data.items()}
    body = f" raw={case.raw[:80]!r} ({case.content_type})" if case.raw is not None else ""
    return f"[{case.role} {case.kwargs} {data}{body} htmx={case.htmx}]"


@cache
def targets_cached() -> dict[str, Target]:
    return targets()


# --- WebSocket ------------------------------------------------------------------------

SOCKETS = ("public", "desk", "floor", "td", "clock_screen", "table_screen")
ANSWERS = {"ok", "error", "pong"}


@dataclass
class WsCase:
    socket: str
    frames: list[tuple[str, Any]]  # ("json", obj) | ("text", str) | ("bytes", bytes)
    # What happens to the socket's user once it is open: "" nothing,
    # "desk" his role becomes desk, "removed" he leaves the staff, "logout" his session
    # ends. From then on no message may change anything (closing the socket is fine).
    change: str = ""


ROLE_CHANGES = ("desk", "removed", "logout")


def _change_rights(world: World, socket: str, change: str) -> Callable[[], None]:
    """Apply a role change to the socket's user; return what puts it back."""
    from django.contrib.sessions.models import Session

    from tournaments.models import Role, StaffAssignment

    user = world.users.get(socket)
    if not change or user is None:
        return lambda: None
    rows = StaffAssignment.objects.filter(tournament_id=world.tournament_id, user=user)
    before = list(rows.values_list("role", flat=True))
    if change == "desk":
        rows.update(role=Role.DESK)
    elif change == "removed":
        rows.delete()
    elif change == "logout":
        mine = [
            s.pk
            for s in Session.objects.all()
            if s.get_decoded().get("_auth_user_id") == str(user.pk)
        ]
        Session.objects.filter(pk__in=mine).delete()

    def restore() -> None:
        StaffAssignment.objects.filter(tournament_id=world.tournament_id, user=user).delete()
        StaffAssignment.objects.bulk_create(
            StaffAssignment(tournament_id=world.tournament_id, user=user, role=role)
            for role in before
        )

    return restore


def ws_message_types() -> list[str]:
    """Every message a client may send: ping, control with each action, hand reports."""
    from tournaments.controls import CONTROLS

    return ["ping", *(f"control:{a}" for a in CONTROLS), "hand:done", "hand:start"]


def _anything():
    """Any JSON value, of any type."""
    st = _st()
    return st.recursive(
        st.one_of(
            st.none(),
            st.booleans(),
            st.integers(min_value=-(10**40), max_value=10**40),
            st.floats(allow_nan=False, allow_infinity=False),
            st.text(max_size=40),
            st.sampled_from(JUNK),
        ),
        lambda children: st.one_of(
            st.lists(children, max_size=3), st.dictionaries(st.text(max_size=5), children)
        ),
        max_leaves=6,
    )


def _ws_message(world: World, kind: str):
    """A message of one type (see ws_message_types), its fields right or of a wrong type."""
    st = _st()
    anything = _anything()
    fields = {
        "seconds": st.one_of(st.integers(min_value=-3600, max_value=3600), anything),
        "index": st.one_of(st.integers(min_value=-1, max_value=8), anything),
        "table": st.one_of(st.sampled_from(world.tables), anything),
        "at": st.one_of(st.sampled_from(["21:30", "", "25:99", "now"]), anything),
        "card": st.one_of(st.sampled_from(["3", ""]), anything),
        "last_level_of_day": st.one_of(st.booleans(), anything),
        "t": st.one_of(st.integers(), anything),
    }
    kind_, _sep, action = kind.partition(":")
    if kind_ == "ping":
        return st.fixed_dictionaries({"type": st.just("ping")}, optional={"t": fields["t"]})
    if kind_ in ("control", "hand"):
        required = {"type": st.just(kind_), "action": st.one_of(st.just(action), anything)}
        optional = fields if kind_ == "control" else {}
        return st.fixed_dictionaries(required, optional=optional)
    return _junk_frame(world)


def _junk_frame(world: World):
    st = _st()
    return st.one_of(
        st.tuples(
            st.just("json"),
            st.dictionaries(st.sampled_from(["type", "action", "t", "x"]), _anything(), max_size=3),
        ),
        st.tuples(
            st.just("json"),
            st.one_of(st.lists(st.integers(), max_size=3), st.integers(), st.text(), st.none()),
        ),
        st.tuples(
            st.just("text"),
            st.one_of(st.text(max_size=50), st.sampled_from([*JUNK, *LONG, "x" * 300000])),
        ),
        st.tuples(st.just("bytes"), st.binary(max_size=50)),
    )


def ws_cases(world: World, kind: str):
    """Cases whose first frame is a message of `kind` ("junk": anything else), sent on a
    socket that may send it (and sometimes on one that may not), then up to two more."""
    from tournaments.controls import CONTROLS
    from tournaments.permissions import TD as TD_ROLES

    st = _st()
    if kind.startswith("control:"):
        roles = CONTROLS[kind.split(":", 1)[1]][0]
        allowed = ["td"] if roles == TD_ROLES else ["floor", "td"]
    elif kind.startswith("hand:"):
        allowed = ["table_screen"]
    else:
        allowed = list(SOCKETS)
    first = (
        _junk_frame(world)
        if kind == "junk"
        else st.tuples(st.just("json"), _ws_message(world, kind))
    )
    any_frame = st.one_of(
        *(st.tuples(st.just("json"), _ws_message(world, k)) for k in ws_message_types()),
        _junk_frame(world),
    )
    return st.builds(
        WsCase,
        socket=st.one_of(
            st.sampled_from(allowed), st.sampled_from(allowed), st.sampled_from(SOCKETS)
        ),
        frames=st.tuples(first, st.lists(any_frame, max_size=2)).map(lambda p: [p[0], *p[1]]),
        change=st.sampled_from(["", "", "", *ROLE_CHANGES]),
    )


def _ws_headers(world: World, socket: str, language: str) -> tuple[str, list]:
    from django.test import Client

    headers = [(b"origin", b"http://testserver"), (b"accept-language", language.encode())]
    cookies = [f"{settings.LANGUAGE_COOKIE_NAME}={language}"]
    if socket in ("clock_screen", "table_screen"):
        token = world.tokens["clock" if socket == "clock_screen" else "table"]
        path = f"/ws/screens/{token}/"
    else:
        path = f"/ws/t/{world.slug}/"
        user = world.users.get(socket)
        if user is not None:
            client = Client()
            client.force_login(user)
            session = client.cookies[settings.SESSION_COOKIE_NAME].value
            cookies.append(f"{settings.SESSION_COOKIE_NAME}={session}")
    headers.append((b"cookie", "; ".join(cookies).encode()))
    return path, headers


async def _answer(communicator, timeout: float) -> dict | None:
    """The consumer's answer to a frame (pushes of the new state are skipped)."""
    while True:
        try:
            output = await communicator.receive_output(timeout)
        except TimeoutError:
            return None
        if output["type"] == "websocket.close":
            return {"type": "closed", "code": output.get("code")}
        payload = json.loads(output.get("text") or "null")
        if isinstance(payload, dict) and payload.get("type") in ANSWERS:
            return payload


def run_ws_case(world: World, case: WsCase, catalog: Catalog, timeout: float = 5) -> list[Outcome]:
    """Send the frames, then a ping: one outcome per frame. The database is not rolled
    back (the socket runs its services in their own transactions): callers use a world
    they may spend (a transactional test, or the bench's world it deletes)."""
    from asgiref.sync import async_to_sync, sync_to_async
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    path, headers = _ws_headers(world, case.socket, LANGUAGE)
    state = sync_to_async(lambda: (snapshot(world), event_count()))
    if world.users.get(case.socket) is None:  # a screen or the public: no user to change
        case = WsCase(case.socket, case.frames)
    outcomes: list[Outcome] = []

    async def run() -> None:
        communicator = WebsocketCommunicator(application, path, headers=headers)
        connected, code = await communicator.connect(timeout)
        if not connected:
            outcome = Outcome(f"ws:{case.socket}:connect")
            outcome.server_error = f"socket refused: {code}"
            outcomes.append(outcome)
            return
        await communicator.receive_output(timeout)  # the state on connect
        restore = await sync_to_async(_change_rights)(world, case.socket, case.change)
        try:
            for kind, payload in case.frames:
                outcome = Outcome(f"ws:{_type_of(kind, payload)}")
                outcomes.append(outcome)
                before, events_before = await state()
                # Raw ASGI input: the communicator's send_to refuses empty frames.
                if kind == "bytes":
                    await communicator.send_input({"type": "websocket.receive", "bytes": payload})
                else:
                    text = json.dumps(payload) if kind == "json" else payload
                    await communicator.send_input({"type": "websocket.receive", "text": text})
                answer = await _answer(communicator, timeout)
                after, events_after = await state()
                described = f"[{case.socket} {kind} {str(payload)[:200]!r}]"
                if case.change:
                    described = (
                        f"[{case.socket}, then {case.change}: {kind} {str(payload)[:200]!r}]"
                    )
                    if answer is not None and answer["type"] == "closed":
                        outcome.refused = True  # the socket closed on the role change
                        return
                if answer is None or answer["type"] == "closed":
                    outcome.server_error = f"{described} answered {answer}"
                    return
                diff = changed(before, after)
                if diff and case.change:
                    outcome.partial_write = f"{described} {answer} changed {diff} without the right"
                outcome.refused = answer["type"] == "error"
                outcome.message = str(answer.get("message", answer["type"]))
                if diff and (outcome.refused or events_after == events_before):
                    outcome.partial_write = f"{described} {answer} but changed {diff}"
                outcome.accepted = bool(diff) and not outcome.partial_write
                if outcome.refused:
                    english = catalog.english_in(str(answer.get("message", "")))
                    if english:
                        outcome.untranslated = f"{described} {answer['message']!r} is English"
            ping = Outcome("ws:ping after")
            outcomes.append(ping)
            await communicator.send_to(text_data=json.dumps({"type": "ping", "t": 7}))
            answer = await _answer(communicator, timeout)
            closed = bool(answer) and answer.get("type") == "closed"
            if (not answer or answer.get("type") != "pong") and not (case.change and closed):
                ping.server_error = f"[{case.socket}] no pong after {case.frames!r:.300}: {answer}"
        finally:
            await sync_to_async(restore)()
            await communicator.disconnect()

    try:
        async_to_sync(run)()
    except Exception:  # noqa: BLE001 - a crashed consumer is the finding
        outcome = outcomes[-1] if outcomes else Outcome(f"ws:{case.socket}")
        if not outcomes:
            outcomes.append(outcome)
        outcome.server_error = (
            f"[{case.socket} {case.frames!r:.300}] crashed:\n{traceback.format_exc(limit=-4)}"
        )
    return outcomes


def _type_of(kind: str, payload: Any) -> str:
    if kind != "json":
        return f"junk-{kind}"
    if not isinstance(payload, dict):
        return "junk-json"
    typed = f"{payload.get('type')}:{payload.get('action')}"
    if payload.get("type") == "ping":
        return "ping"
    if typed in ws_message_types():
        return typed
    if payload.get("type") in ("control", "hand"):
        return f"{payload['type']}:junk-action"
    return "junk-type"


# --- Driving hypothesis ---------------------------------------------------------------


@contextmanager
def quiet():
    """Silence the log of refused requests (thousands of 404s and 403s on purpose)."""
    loggers = [logging.getLogger(name) for name in ("django.request", "django.security")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def drive(strategy, run: Callable[[Any], None], *, examples: int, derandomize: bool) -> None:
    """Run `run` on `examples` cases drawn from `strategy` (a failure in `run` is shrunk
    and reported by hypothesis, as in any property test)."""
    from hypothesis import HealthCheck, given
    from hypothesis import settings as hsettings

    @hsettings(
        max_examples=examples,
        derandomize=derandomize,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )
    @given(strategy)
    def property_(case):
        run(case)

    property_()
