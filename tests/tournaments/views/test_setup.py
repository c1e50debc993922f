"""The TD's setup pages: settings, structure editor, tables, staff, clone."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import make_manager
from tournaments import events
from tournaments.models import Entry, Event, Player, Role, Seat, StaffAssignment, Table, Tournament
from tournaments.services import layout as layout_services
from tournaments.services import presets
from tournaments.services import setup as setup_services

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english(settings):
    # The messages asserted below are the English source strings.
    settings.LANGUAGE_CODE = "en"


PAGES = ["tournament_edit", "structure_edit", "tables_edit", "staff_edit", "tournament_clone"]


# --- Personas -------------------------------------------------------------------------


def _user(username: str, **extra):
    return get_user_model().objects.create_user(username=username, password=None, **extra)


@pytest.fixture
def td():
    """The room's manager, who creates the events (and so is TD of those he creates)."""
    return make_manager(_user("td"))


@pytest.fixture
def tournament(td):
    return setup_services.tournament_create(
        actor=td,
        fields={"name": "Friday Deepstack", "date": dt.date(2026, 11, 27), "venue": "Sala A"},
        now=timezone.now(),
    )


def _staff(tournament, username: str, role: str):
    user = _user(username)
    StaffAssignment.objects.create(tournament=tournament, user=user, role=role)
    return user


@pytest.fixture
def td_client(client, td):
    client.force_login(td)
    return client


def _url(name: str, tournament: Tournament) -> str:
    return reverse(name, args=[tournament.slug])


def _messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def _structure_post(rows: list[dict], op: str = "save") -> dict:
    """The editor posts one value per field per row, in page order."""
    fields = ("kind", "small_blind", "big_blind", "ante", "ante_mode", "minutes", "color_up")
    data: dict = {name: [str(row.get(name, "")) for row in rows] for name in fields}
    data["op"] = op
    return data


def _level(sb, bb, minutes=20, ante=0, ante_mode="none"):
    return {
        "kind": "level",
        "small_blind": sb,
        "big_blind": bb,
        "ante": ante,
        "ante_mode": ante_mode,
        "minutes": minutes,
    }


def _break(minutes=10, color_up=""):
    return {"kind": "break", "ante_mode": "none", "minutes": minutes, "color_up": color_up}


def _saved(tournament) -> list[tuple]:
    return list(
        tournament.items.values_list(
            "kind", "small_blind", "big_blind", "ante", "ante_mode", "minutes", "color_up"
        )
    )


# --- Tournament create and edit -------------------------------------------------------


FORM = {
    "name": "Sunday Main",
    "date": "2026-12-06",
    "venue": "Casino",
    "game": "plo",
    "currency": "eur",
    "buy_in_prize": "100",
    "buy_in_fee": "20",
    "house_percent": "0",
    "guarantee": "5000",
    "added_money": "0",
    "starting_stack": "30000",
    "seats_per_table": "9",
    "deal_in_exclusion": "button_to_sb",
    "late_registration_level": "6",
    "late_registration_through_break": "on",
    "reentry_allowed": "on",
    "max_entries": "2",
    "rebuy_max": "0",
    "rebuy_price": "0",
    "rebuy_chips": "0",
    "addon_price": "0",
    "addon_chips": "0",
    "balance_max_diff": "1",
    "final_table_rule": "tda_rp9",
}


def test_create_through_the_form_makes_the_creator_td(td_client, td):
    response = td_client.post(reverse("tournament_create"), FORM)
    tournament = Tournament.objects.get(name="Sunday Main")
    assert response.status_code == 302
    assert response["Location"] == _url("structure_edit", tournament)
    assert (tournament.game, tournament.currency, tournament.guarantee) == ("plo", "EUR", 5000)
    assert tournament.late_registration_level == 6
    assert tournament.late_registration_through_break is True
    assert StaffAssignment.objects.get(tournament=tournament, user=td).role == Role.TD
    listing = td_client.get(reverse("tournament_list"))
    assert "Sunday Main" in listing.content.decode()


def test_create_form_defaults_to_no_limit_holdem(td_client):
    response = td_client.get(reverse("tournament_create"))
    assert response.status_code == 200
    assert response.context["form"]["game"].value() == "nlhe"


def test_create_refused_to_users_who_may_not_create(client):
    client.force_login(_user("nobody"))
    assert client.get(reverse("tournament_create")).status_code == 403
    assert client.post(reverse("tournament_create"), FORM).status_code == 403
    assert not Tournament.objects.filter(name="Sunday Main").exists()


def test_create_anonymous_goes_to_login(client):
    response = client.get(reverse("tournament_create"))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


@pytest.mark.parametrize(
    ("field", "value", "field_with_error"),
    [
        ("name", "   ", "name"),
        ("date", "yesterday", "date"),
        ("buy_in_prize", "-5", "buy_in_prize"),
        ("buy_in_prize", "abc", "buy_in_prize"),
        ("starting_stack", "99999999999999999999", "starting_stack"),
        ("seats_per_table", "1", "seats_per_table"),
        ("seats_per_table", "40", "seats_per_table"),
        ("currency", "E1", "currency"),
        ("max_entries", "0", "max_entries"),
        ("house_percent", "150", "house_percent"),
        ("game", "stud", "game"),
        ("late_registration_level", "", "late_registration_level"),  # through-break without level
    ],
)
def test_create_rejects_bad_input_and_creates_nothing(td_client, field, value, field_with_error):
    response = td_client.post(reverse("tournament_create"), {**FORM, field: value})
    assert response.status_code == 200
    assert field_with_error in response.context["form"].errors
    assert not Tournament.objects.filter(name__in=["Sunday Main", "   "]).exists()


def test_create_with_missing_fields_is_a_form_error(td_client):
    response = td_client.post(reverse("tournament_create"), {"name": "X"})
    assert response.status_code == 200
    assert "date" in response.context["form"].errors
    assert not Tournament.objects.filter(name="X").exists()


def test_edit_changes_only_what_changed_and_logs_it(td_client, tournament):
    response = td_client.get(_url("tournament_edit", tournament))
    form = response.context["form"]
    data = {
        name: ("on" if value is True else "" if value is None or value is False else value)
        for name, value in ((f.name, f.value()) for f in form)
    }
    data = {k: v for k, v in data.items() if v != ""}
    data.update(starting_stack="40000", rebuys_allowed="on", rebuy_max="2", rebuy_chips="20000")
    response = td_client.post(_url("tournament_edit", tournament), data)
    assert response.status_code == 302, response.context["form"].errors
    tournament.refresh_from_db()
    assert (tournament.starting_stack, tournament.rebuy_max) == (40000, 2)
    event = Event.objects.get(tournament=tournament, action="tournament.update")
    assert event.data["before"]["starting_stack"] == 30000
    assert set(event.data["after"]) == {
        "starting_stack",
        "rebuys_allowed",
        "rebuy_max",
        "rebuy_chips",
    }


def test_edit_rejects_rebuys_without_chips_and_changes_nothing(td_client, tournament):
    data = {**FORM, "name": tournament.name, "rebuys_allowed": "on", "rebuy_max": "1"}
    response = td_client.post(_url("tournament_edit", tournament), data)
    assert response.status_code == 200
    assert "rebuy_chips" in response.context["form"].errors
    tournament.refresh_from_db()
    assert tournament.rebuys_allowed is False
    assert tournament.game == "nlhe"
    assert not Event.objects.filter(tournament=tournament, action="tournament.update").exists()


def test_edit_page_groups_the_fields_in_sections(td_client, tournament):
    body = td_client.get(_url("tournament_edit", tournament)).content.decode()
    for legend in ["General", "Buy-in and prize pool", "Seating", "Late registration",
                   "Re-entry", "Rebuys", "Add-on"]:  # fmt: skip
        assert f"<legend>{legend}" in body


# --- Permissions ----------------------------------------------------------------------


@pytest.mark.parametrize("page", PAGES)
def test_every_setup_page_is_open_to_the_td(td_client, tournament, page):
    assert td_client.get(_url(page, tournament)).status_code == 200


@pytest.mark.parametrize("role", [Role.FLOOR, Role.DESK])
@pytest.mark.parametrize("page", PAGES)
def test_setup_pages_forbidden_to_floor_and_desk(client, tournament, role, page):
    client.force_login(_staff(tournament, f"staff-{role}", role))
    assert client.get(_url(page, tournament)).status_code == 403
    assert client.post(_url(page, tournament), {"name": "Hijack"}).status_code == 403
    tournament.refresh_from_db()
    assert tournament.name == "Friday Deepstack"


@pytest.mark.parametrize("page", PAGES)
def test_setup_pages_send_anonymous_users_to_login(client, tournament, page):
    response = client.get(_url(page, tournament))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_td_of_another_tournament_is_forbidden(client, tournament):
    other_td = _user("other", is_staff=True)
    setup_services.tournament_create(
        actor=other_td, fields={"name": "Other", "date": dt.date(2026, 1, 1)}, now=timezone.now()
    )
    client.force_login(other_td)
    assert client.get(_url("structure_edit", tournament)).status_code == 403


# --- Structure editor -----------------------------------------------------------------


def test_valid_structure_is_saved_in_order(td_client, tournament):
    rows = [
        _level(100, 200),
        _level(200, 400, ante=400, ante_mode="big_blind_ante"),
        _break(15, color_up=100),
        _level(500, 1000, minutes=30, ante=100, ante_mode="each_player"),
    ]
    response = td_client.post(_url("structure_edit", tournament), _structure_post(rows))
    assert response.status_code == 302
    assert _saved(tournament) == [
        ("level", 100, 200, 0, "none", 20, None),
        ("level", 200, 400, 400, "big_blind_ante", 20, None),
        ("break", 0, 0, 0, "none", 15, 100),
        ("level", 500, 1000, 100, "each_player", 30, None),
    ]
    page = td_client.get(_url("structure_edit", tournament)).content.decode()
    assert "3 levels, total 1:25" in page
    assert "Level 3" in page


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([_level(200, 100)], "The big blind must be at least the small blind."),
        ([_level(100, 200), _level(50, 100)], "blinds go down from the level before"),
        ([_level(100, 200, minutes=0)], "A level lasts at least one minute."),
        ([_level(100, 200), _break(0)], "A break lasts at least one minute."),
        ([], "it needs at least one level"),
        ([_break(10)], "it needs at least one level"),
        ([_level(0, 0)], "The small blind must be positive."),
        ([_level(100, 200, ante=25)], "Choose who pays the ante."),
        ([_level("abc", 200)], "Enter a whole number."),
        ([_level(-100, 200)], "greater than or equal to 0"),
        ([_level(100, 10**12)], "less than or equal to"),
        ([_level(100, 200, minutes="")], "This field is required."),
        ([_level(100, 200, minutes="²")], "Enter a whole number."),
        ([_break(10, color_up="x")], "Enter a whole number."),
    ],
)
def test_invalid_structure_shows_its_message_and_changes_nothing(
    td_client, tournament, rows, message
):
    setup_services.structure_set(
        tournament=tournament, actor=None, items=[setup_services.ItemSpec("level", 25, 50)],
        now=timezone.now(),
    )  # fmt: skip
    before = _saved(tournament)
    response = td_client.post(_url("structure_edit", tournament), _structure_post(rows))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert _saved(tournament) == before


def test_structure_post_with_ragged_or_missing_fields_is_not_a_500(td_client, tournament):
    ragged = {"kind": ["level", "level"], "small_blind": ["100"], "op": "save"}
    assert td_client.post(_url("structure_edit", tournament), ragged).status_code == 200
    odd_kind = _structure_post([_level(100, 200)]) | {"kind": ["bogus"]}
    response = td_client.post(_url("structure_edit", tournament), odd_kind)
    assert response.status_code == 200
    assert "neither a level nor a break" in response.content.decode()
    assert td_client.post(_url("structure_edit", tournament), {"op": "up:x"}).status_code == 200
    assert _saved(tournament) == []


@pytest.mark.parametrize(
    ("op", "expected"),
    [
        ("up:1", [(200, 400), (100, 200), (300, 600)]),
        ("down:0", [(200, 400), (100, 200), (300, 600)]),
        ("up:0", [(100, 200), (200, 400), (300, 600)]),  # first row cannot go up
        ("down:2", [(100, 200), (200, 400), (300, 600)]),  # last row cannot go down
        ("delete:1", [(100, 200), (300, 600)]),
        ("delete:9", [(100, 200), (200, 400), (300, 600)]),
        ("add_level", [(100, 200), (200, 400), (300, 600), (300, 600)]),
    ],
)
def test_row_operations_edit_the_rows_without_saving(td_client, tournament, op, expected):
    rows = [_level(100, 200), _level(200, 400), _level(300, 600)]
    response = td_client.post(_url("structure_edit", tournament), _structure_post(rows, op=op))
    assert response.status_code == 200
    shown = [
        (int(r["values"]["small_blind"]), int(r["values"]["big_blind"]))
        for r in response.context["rows"]
    ]
    assert shown == expected
    assert _saved(tournament) == []


def test_add_break_numbers_levels_around_it(td_client, tournament):
    rows = [_level(100, 200), _level(200, 400)]
    response = td_client.post(
        _url("structure_edit", tournament), _structure_post(rows, op="add_break")
    )
    response = td_client.post(
        _url("structure_edit", tournament),
        _structure_post([*rows, _break(10)], op="up:2"),
    )
    numbers = [(r["is_level"], r["number"]) for r in response.context["rows"]]
    assert numbers == [(True, 1), (False, None), (True, 2)]


def test_row_operation_with_htmx_returns_only_the_editor(td_client, tournament):
    rows = [_level(100, 200)]
    url = _url("structure_edit", tournament)
    fragment = td_client.post(url, _structure_post(rows, op="add_level"), HTTP_HX_REQUEST="true")
    full = td_client.post(url, _structure_post(rows, op="add_level"))
    assert 'id="editor"' in fragment.content.decode()
    assert "<html" not in fragment.content.decode()
    assert "<html" in full.content.decode()
    assert fragment.content.decode().count('name="kind"') == 2


@pytest.mark.parametrize("key", sorted(presets.PRESETS))
def test_preset_loads_into_the_editor_and_saves(td_client, tournament, key):
    url = _url("structure_edit", tournament)
    response = td_client.post(url, {"op": "preset", "preset": key}, HTTP_HX_REQUEST="true")
    rows = [r["values"] for r in response.context["rows"]]
    assert len(rows) == len(presets.PRESETS[key].items)
    assert _saved(tournament) == []  # loading a preset only fills the editor
    response = td_client.post(url, _structure_post(rows))
    assert response.status_code == 302
    assert len(_saved(tournament)) == len(presets.PRESETS[key].items)


def test_unknown_preset_is_a_message(td_client, tournament):
    response = td_client.post(
        _url("structure_edit", tournament), {"op": "preset", "preset": "nope"}
    )
    assert response.status_code == 200
    assert "Choose a preset." in response.content.decode()


def test_structure_page_shows_saved_levels_and_breaks(td_client, tournament):
    setup_services.structure_set(
        tournament=tournament,
        actor=None,
        items=list(presets.PRESETS["deep"].items),
        now=timezone.now(),
    )
    response = td_client.get(_url("structure_edit", tournament))
    levels = [r for r in response.context["rows"] if r["is_level"]]
    assert [r["number"] for r in levels] == list(range(1, len(levels) + 1))
    assert response.context["level_count"] == len(levels)


# --- Presets --------------------------------------------------------------------------


@pytest.mark.parametrize("preset", list(presets.PRESETS.values()), ids=lambda p: p.key)
def test_presets_are_valid_structures(preset):
    setup_services.structure_validate(list(preset.items))
    assert any(item.kind == "break" for item in preset.items)
    assert any(item.color_up for item in preset.items)


@pytest.mark.parametrize("preset", list(presets.PRESETS.values()), ids=lambda p: p.key)
def test_preset_colour_ups_remove_only_chips_no_later_level_needs(preset):
    # tournament.md §12.2: after a colour-up every blind and ante must be payable with
    # the denominations still in play.
    in_play = sorted(preset.denominations)
    for item in preset.items:
        if item.kind == "break" and item.color_up:
            assert item.color_up == in_play[0], "colour up the smallest chip first"
            in_play.remove(item.color_up)
        elif item.kind == "level":
            for amount in (item.small_blind, item.big_blind, item.ante):
                assert amount % in_play[0] == 0, (preset.key, item)


def test_club_and_deep_presets_match_their_description():
    club, deep = presets.PRESETS["club"], presets.PRESETS["deep"]
    assert {i.minutes for i in club.items if i.kind == "level"} == {20}
    deep_levels = [i for i in deep.items if i.kind == "level"]
    assert all(i.ante_mode == "big_blind_ante" and i.ante == i.big_blind for i in deep_levels)


# --- Tables ---------------------------------------------------------------------------


def _tables_post(**overrides):
    return {
        "first": "1",
        "last": "10",
        "max_seats": "9",
        "accessible_seats": "1, 9",
        "reserved_seats": "",
        **overrides,
    }


def test_adding_tables_1_to_10_creates_them(td_client, tournament):
    response = td_client.post(_url("tables_edit", tournament), _tables_post())
    assert response.status_code == 302
    tables = list(Table.objects.filter(tournament=tournament).order_by("number"))
    assert [t.number for t in tables] == list(range(1, 11))
    assert all(t.max_seats == 9 and t.accessible_seats == [1, 9] for t in tables)
    page = td_client.get(_url("tables_edit", tournament)).content.decode()
    assert "10 tables, 90 seats" in page


def test_overlapping_range_is_refused_with_a_message(td_client, tournament):
    td_client.post(_url("tables_edit", tournament), _tables_post())
    response = td_client.post(
        _url("tables_edit", tournament), _tables_post(first="8", last="12"), follow=True
    )
    assert "Table 8 already exists." in response.content.decode()
    assert Table.objects.filter(tournament=tournament).count() == 10


def test_adding_tables_with_htmx_returns_the_fragment(td_client, tournament):
    response = td_client.post(
        _url("tables_edit", tournament), _tables_post(last="3"), HTTP_HX_REQUEST="true"
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body
    assert 'data-table="3"' in body
    assert "3 tables added." in body  # out-of-band message


@pytest.mark.parametrize(
    "overrides",
    [
        {"first": "10", "last": "1"},
        {"first": "abc"},
        {"first": "-3"},
        {"last": "99999999999999999999"},
        {"max_seats": "1"},
        {"max_seats": "11"},
        {"accessible_seats": "1, x"},
        {"accessible_seats": "²"},
        {"accessible_seats": "12"},
        {"reserved_seats": "0"},
        {"first": ""},
    ],
)
def test_bad_table_input_adds_nothing(td_client, tournament, overrides):
    response = td_client.post(_url("tables_edit", tournament), _tables_post(**overrides))
    assert response.status_code == 200
    assert response.context["form"].errors
    assert not Table.objects.filter(tournament=tournament).exists()


def test_tables_page_counts_players(td_client, tournament):
    layout_services.tables_add(
        tournament=tournament, actor=None, first=1, last=2, max_seats=9,
        accessible_seats=[], reserved_seats=[], now=timezone.now(),
    )  # fmt: skip
    player = Player.objects.create(first_name="Ada", last_name="Rossi")
    entry = Entry.objects.create(
        tournament=tournament, player=player, number=1, chips=30000, created_at=timezone.now()
    )
    table = Table.objects.get(tournament=tournament, number=2)
    Seat.objects.create(table=table, number=4, entry=entry, assigned_at=timezone.now())
    response = td_client.get(_url("tables_edit", tournament))
    counts = {t.number: t.players for t in response.context["tables"]}
    assert counts == {1: 0, 2: 1}


# --- Staff ----------------------------------------------------------------------------


def test_staff_assignment_gives_and_replaces_a_role(td_client, tournament):
    carla = _user("carla")
    url = _url("staff_edit", tournament)
    assert td_client.post(url, {"username": "carla", "role": "desk"}).status_code == 302
    assert StaffAssignment.objects.get(tournament=tournament, user=carla).role == Role.DESK
    td_client.post(url, {"username": "carla", "role": "floor"})
    assert StaffAssignment.objects.get(tournament=tournament, user=carla).role == Role.FLOOR
    page = td_client.get(url).content.decode()
    assert "carla" in page


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"username": "ghost", "role": "desk"}, "No staff account is called ghost."),
        ({"username": "carla", "role": "king"}, "Write a username and choose a role."),
        ({"username": "", "role": "desk"}, "Write a username and choose a role."),
        ({}, "Write a username and choose a role."),
    ],
)
def test_bad_staff_input_is_a_message(td_client, tournament, data, message):
    _user("carla")
    response = td_client.post(_url("staff_edit", tournament), data, follow=True)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert StaffAssignment.objects.filter(tournament=tournament).count() == 1  # only the TD


def test_staff_assignment_with_htmx_returns_the_fragment(td_client, tournament):
    _user("carla")
    response = td_client.post(
        _url("staff_edit", tournament), {"username": "carla", "role": "desk"},
        HTTP_HX_REQUEST="true",
    )  # fmt: skip
    body = response.content.decode()
    assert 'id="staff"' in body and "<html" not in body
    assert "carla" in body


# --- Clone ----------------------------------------------------------------------------


def test_clone_copies_structure_and_tables_but_no_entries(td_client, td, tournament):
    setup_services.structure_set(
        tournament=tournament,
        actor=td,
        items=list(presets.PRESETS["club"].items),
        now=timezone.now(),
    )
    layout_services.tables_add(
        tournament=tournament, actor=td, first=1, last=3, max_seats=8,
        accessible_seats=[1], reserved_seats=[], now=timezone.now(),
    )  # fmt: skip
    player = Player.objects.create(first_name="Ada", last_name="Rossi")
    Entry.objects.create(
        tournament=tournament, player=player, number=1, chips=30000, created_at=timezone.now()
    )
    response = td_client.post(
        _url("tournament_clone", tournament), {"name": "Friday Deepstack II", "date": "2026-12-04"}
    )
    clone = Tournament.objects.get(name="Friday Deepstack II")
    assert response.status_code == 302
    assert response["Location"] == _url("tournament_edit", clone)
    assert clone.date == dt.date(2026, 12, 4)
    assert clone.venue == "Sala A"
    assert _saved(clone) == _saved(tournament)
    assert list(clone.tables.values_list("number", "max_seats", "accessible_seats")) == [
        (1, 8, [1]),
        (2, 8, [1]),
        (3, 8, [1]),
    ]
    assert not clone.entries.exists()
    assert StaffAssignment.objects.get(tournament=clone, user=td).role == Role.TD


@pytest.mark.parametrize(
    "data", [{"name": "", "date": "2026-12-04"}, {"name": "X", "date": "soon"}, {}]
)
def test_bad_clone_input_clones_nothing(td_client, tournament, data):
    response = td_client.post(_url("tournament_clone", tournament), data)
    assert response.status_code == 200
    assert Tournament.objects.count() == 1


# --- One table's orders and seats -----------------------------------------------------


def _three_tables(tournament):
    layout_services.tables_add(
        tournament=tournament, actor=None, first=1, last=3, max_seats=9,
        accessible_seats=[], reserved_seats=[], now=timezone.now(),
    )  # fmt: skip


def _table_post(number=2, **overrides):
    return {
        "action": "update",
        "number": str(number),
        "opening_order": "7",
        "break_order": "1",
        "accessible_seats": "1 9",
        "reserved_seats": "5",
        **overrides,
    }


def test_table_update_changes_one_table_and_can_be_undone(td_client, tournament):
    _three_tables(tournament)
    before = list(tournament.tables.values_list("number", "opening_order", "break_order"))
    response = td_client.post(_url("tables_edit", tournament), _table_post())
    assert response.status_code == 302
    table = Table.objects.get(tournament=tournament, number=2)
    assert (table.opening_order, table.break_order) == (7, 1)
    assert (table.accessible_seats, table.reserved_seats) == ([1, 9], [5])
    others = tournament.tables.exclude(number=2).values_list(
        "number", "opening_order", "break_order"
    )
    assert list(others) == [b for b in before if b[0] != 2]
    event = Event.objects.get(tournament=tournament, action="table.update")
    events.event_undo(event_id=event.pk, tournament=tournament, actor=None, now=timezone.now())
    table.refresh_from_db()
    assert (table.opening_order, table.accessible_seats, table.reserved_seats) == (2, [], [])


def test_table_update_with_htmx_returns_the_fragment(td_client, tournament):
    _three_tables(tournament)
    response = td_client.post(
        _url("tables_edit", tournament), _table_post(), HTTP_HX_REQUEST="true"
    )
    body = response.content.decode()
    assert 'id="tables"' in body and "<html" not in body
    assert "Table 2 saved." in body


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"number": "99"}, "Table 99 does not exist."),
        ({"reserved_seats": "10"}, "Table 2 has no seat 10."),
        ({"accessible_seats": "a"}, "Write seat numbers separated by commas"),
        ({"reserved_seats": "1 ²"}, "Write seat numbers separated by commas"),
        ({"opening_order": "-1"}, "Table 2 not changed."),
        ({"break_order": "x"}, "Table 2 not changed."),
        ({"number": "abc"}, "not changed"),
        ({"opening_order": ""}, "Table 2 not changed."),
    ],
)
def test_bad_table_update_is_refused_with_a_message(td_client, tournament, overrides, message):
    _three_tables(tournament)
    before = list(tournament.tables.values())
    response = td_client.post(
        _url("tables_edit", tournament), _table_post(**overrides), follow=True
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert list(tournament.tables.values()) == before


def test_an_occupied_seat_cannot_be_reserved(td_client, tournament):
    _three_tables(tournament)
    player = Player.objects.create(first_name="Ada", last_name="Rossi")
    entry = Entry.objects.create(
        tournament=tournament, player=player, number=1, chips=30000, created_at=timezone.now()
    )
    table = Table.objects.get(tournament=tournament, number=2)
    Seat.objects.create(table=table, number=5, entry=entry, assigned_at=timezone.now())
    response = td_client.post(_url("tables_edit", tournament), _table_post(), follow=True)
    assert "Seat 5 at table 2 is taken" in response.content.decode()
    table.refresh_from_db()
    assert table.reserved_seats == []


# --- Garbage never gives a 500 ----------------------------------------------------------

_junk = st.one_of(
    st.text(max_size=12),
    st.integers(min_value=-(10**15), max_value=10**15).map(str),
    st.sampled_from(["", " ", "0", "-0", "1e9", "NaN", "½", "²", "٣", "10" * 20, "1,000"]),
)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    rows=st.lists(
        st.fixed_dictionaries(
            {
                "kind": st.sampled_from(["level", "break", "level", "junk"]),
                "small_blind": _junk,
                "big_blind": _junk,
                "ante": _junk,
                "ante_mode": st.sampled_from(["none", "each_player", "big_blind_ante", "x"]),
                "minutes": _junk,
                "color_up": _junk,
            }
        ),
        max_size=5,
    ),
    op=st.sampled_from(
        ["save", "add_level", "add_break", "up:1", "down:0", "delete:2", "up:²", "??"]
    ),
)
def test_structure_editor_never_fails_on_junk(td_client, tournament, rows, op):
    data = _structure_post(rows, op=op)
    data = {k: [v.replace("\x00", "") for v in vs] if isinstance(vs, list) else vs
            for k, vs in data.items()}  # fmt: skip
    response = td_client.post(_url("structure_edit", tournament), data)
    assert response.status_code in (200, 302)
    if response.status_code == 302:  # saved: then every row was a clean level or break
        setup_services.structure_validate(
            [setup_services.ItemSpec(*row[:6], color_up=row[6]) for row in _saved(tournament)]
        )


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(field=st.sampled_from(sorted(FORM)), value=_junk)
def test_settings_form_never_fails_on_junk(td_client, tournament, field, value):
    data = {**FORM, field: value.replace("\x00", "")}
    response = td_client.post(_url("tournament_edit", tournament), data)
    assert response.status_code in (200, 302)
    tournament.refresh_from_db()
    assert tournament.starting_stack >= 1
    assert 2 <= tournament.seats_per_table <= 10


# --- Warnings about settings that do not fit the structure ----------------------------


def _set_structure(tournament, items):
    setup_services.structure_set(tournament=tournament, actor=None, items=items, now=timezone.now())


def test_settings_past_the_last_level_are_flagged(td_client, tournament):
    _set_structure(tournament, [setup_services.ItemSpec("level", 100, 200)] * 2)
    setup_services.tournament_update(
        tournament=tournament, actor=None, fields={"late_registration_level": 3},
        now=timezone.now(),
    )  # fmt: skip
    for page in ("structure_edit", "tournament_edit"):
        body = td_client.get(_url(page, tournament)).content.decode()
        assert "Late registration: level 3 is past the last level (2)." in body
    setup_services.tournament_update(
        tournament=tournament, actor=None, fields={"late_registration_level": 2},
        now=timezone.now(),
    )  # fmt: skip
    assert (
        "past the last level"
        not in td_client.get(_url("structure_edit", tournament)).content.decode()
    )


@pytest.mark.parametrize(
    ("kinds", "warned"),
    [(["level", "break", "level"], False), (["level", "level", "break"], True)],
)
def test_addon_break_must_follow_its_level(td_client, tournament, kinds, warned):
    _set_structure(
        tournament,
        [
            setup_services.ItemSpec(kind, 100, 200)
            if kind == "level"
            else setup_services.ItemSpec(kind)
            for kind in kinds
        ],
    )
    setup_services.tournament_update(
        tournament=tournament, actor=None, now=timezone.now(),
        fields={"addon_allowed": True, "addon_chips": 10000, "addon_break_after_level": 1},
    )  # fmt: skip
    body = td_client.get(_url("tournament_edit", tournament)).content.decode()
    assert ("no break follows it" in body) is warned


def test_clone_form_suggests_next_week(td_client, tournament):
    response = td_client.get(_url("tournament_clone", tournament))
    assert response.context["form"].initial["date"] == tournament.date + dt.timedelta(days=7)


def test_cloning_needs_the_right_to_create_a_tournament(client, tournament):
    """A TD of this event who may not create events may not clone it."""
    from tests.conftest import make_user
    from tournaments.models import Role, StaffAssignment, Tournament

    assigned = make_user("assigned-td")  # not staff: may not create tournaments
    StaffAssignment.objects.create(tournament=tournament, user=assigned, role=Role.TD)
    client.force_login(assigned)
    before = Tournament.objects.count()
    response = client.post(
        reverse("tournament_clone", args=[tournament.slug]),
        {"name": "Copy", "date": "2026-12-01"},
    )
    assert response.status_code == 403
    assert Tournament.objects.count() == before


def _edit_data(td_client, tournament) -> dict[str, str]:
    form = td_client.get(_url("tournament_edit", tournament)).context["form"]
    data = {
        name: ("on" if value is True else "" if value is None or value is False else value)
        for name, value in ((f.name, f.value()) for f in form)
    }
    return {k: v for k, v in data.items() if v != ""}


@pytest.mark.parametrize(
    ("language", "label", "plan"),
    [
        ("en", "Expected players", "Planned for 40 expected players: tables 1, 2, 3, 4, 5."),
        ("it", "Giocatori attesi", "Per 40 giocatori attesi sono previsti i tavoli 1, 2, 3, 4, 5."),
    ],
)
def test_the_td_states_the_expected_field_and_the_tables_page_shows_the_plan(
    td_client, td, tournament, language, label, plan
):
    layout_services.tables_add(
        tournament=tournament,
        actor=td,
        first=1,
        last=8,
        max_seats=9,
        accessible_seats=[],
        reserved_seats=[],
        now=timezone.now(),
    )
    td_client.cookies["django_language"] = language
    tables = td_client.get(_url("tables_edit", tournament)).content.decode()
    assert "tables-planned" in tables and plan not in tables  # nothing planned yet
    page = td_client.get(_url("tournament_edit", tournament)).content.decode()
    assert label in page and 'name="expected_entries"' in page
    data = {**_edit_data(td_client, tournament), "expected_entries": "40"}
    response = td_client.post(_url("tournament_edit", tournament), data)
    assert response.status_code == 302, response.context["form"].errors
    tournament.refresh_from_db()
    assert tournament.expected_entries == 40
    assert plan in td_client.get(_url("tables_edit", tournament)).content.decode()
    refused = td_client.post(
        _url("tournament_edit", tournament), {**data, "expected_entries": "-3"}
    )
    assert refused.status_code == 200
    tournament.refresh_from_db()
    assert tournament.expected_entries == 40
