"""The cash room's settings page and its rake report: every room setting editable with the
rulebook's default beside it, and a rake report by shift and dealer (both chosen, never
typed), in the room's time and in words, for the manager, the cash-room floor and the books."""

from __future__ import annotations

import csv
import io
import random
from datetime import timedelta

import pytest
from django.urls import reverse

from room.forms.cash import CashRoomForm
from room.models import CashRoom, RakeRecord, RoomEvent
from room.selectors import cash as cash_reads
from room.services import cash_lists, cash_seats, cash_settings, cash_tables
from tables.cash.settings import DEFAULTS
from tests.conftest import NOW, make_cash_game, make_player, make_user
from tournaments.models import RoomRole, RoomStaff

pytestmark = pytest.mark.django_db


def staff(username, role, first_name=""):
    user = make_user(username)
    if first_name:
        user.first_name = first_name
        user.save()
    RoomStaff.objects.create(user=user, role=role)
    return user


@pytest.fixture
def manager(db):
    return staff("roomtd", RoomRole.MANAGER)


@pytest.fixture
def cash_floor(db):
    return staff("roomfloor", RoomRole.CASH, "Franco")


@pytest.fixture
def books(db):
    return staff("roombooks", RoomRole.BOOKS, "Bice")


@pytest.fixture
def mara(db):
    return staff("mara", RoomRole.DEALER, "Mara")


@pytest.fixture
def game(manager):
    return make_cash_game(manager)


@pytest.fixture
def table(game, cash_floor):
    players = []
    for name in ["Anna", "Bruno", "Carla"]:
        player = make_player(name)
        cash_lists.list_add(actor=cash_floor, player=player, games=[game], present=True, now=NOW)
        players.append(player)
    return cash_tables.table_open(
        actor=cash_floor,
        game=game,
        number=6,
        present={p.pk for p in players},
        now=NOW,
        rng=random.Random(7),
    )


def settings_post(**changes):
    """The settings form as the page draws it at the rulebook's defaults, with `changes`."""
    values = CashRoomForm.as_fields(DEFAULTS, public_name_format="first_name")
    values["gaming_day_start"] = values["gaming_day_start"].strftime("%H:%M")
    values.update(changes)
    return {
        k: ("on" if v is True else v) for k, v in values.items() if v is not False and v is not None
    }


def with_shifts(actor, text="Day 10:00\nNight 18:00"):
    form = CashRoomForm(settings_post(shifts=text))
    assert form.is_valid(), form.errors
    cash_settings.room_settings_save(actor=actor, values=form.values(), now=NOW)


# --- settings ---------------------------------------------------------------------------


def test_the_manager_finds_every_room_setting_with_the_rulebooks_default(client, manager):
    client.force_login(manager)
    html = client.get(reverse("cash_room_settings")).content.decode()
    for label, default in [
        ("Minutes of a sit-out", 30),
        ("Sit-outs per player per day", 1),
        ("Minutes a declined seat keeps him off the lists", 30),
        ("Minutes to answer a call", 15),
        ("Minutes before he may sit again at a table he left", 30),
        ("Minutes away without a word", 20),
    ]:
        assert label in html
        assert f"Rulebook: {default}" in html
    assert 'name="sit_out_minutes" value="30"' in html
    assert "Rulebook: ♠ > ♥ > ♦ > ♣" in html
    assert "No flop, no drop" in html and "Dealer shifts" in html
    # The board leads there.
    assert reverse("cash_room_settings") in client.get(reverse("cash_board")).content.decode()


def test_the_settings_page_in_italian(client, manager):
    client.force_login(manager)
    html = client.get(reverse("cash_room_settings"), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Impostazioni della sala cash" in html
    assert "Minuti di un sit-out" in html and "Regolamento: 30" in html
    assert "Turni dei dealer" in html


def test_a_longer_sit_out_set_by_the_manager_is_the_one_granted(client, manager, table):
    client.force_login(manager)
    response = client.post(
        reverse("cash_room_settings"),
        settings_post(sit_out_minutes=45, sit_outs_per_day=2, decline_lockout_minutes=10),
        follow=True,
    )
    assert "Room settings saved." in response.content.decode()
    settings = cash_reads.room_settings()
    assert (settings.sit_out_minutes, settings.sit_outs_per_day) == (45, 2)
    assert settings.decline_lockout_minutes == 10
    # Only what the room chose differently from the rulebook is kept as its own.
    assert set(CashRoom.objects.get().overrides) == {
        "sit_out_minutes",
        "sit_outs_per_day",
        "decline_lockout_minutes",
    }
    seat = table.seats.first()
    seat = cash_seats.sit_out(actor=manager, seat=seat, now=NOW)
    assert seat.sit_out_until == NOW + timedelta(minutes=45)
    # The page shows the room's values from now on.
    html = client.get(reverse("cash_room_settings")).content.decode()
    assert 'name="sit_out_minutes" value="45"' in html


def test_markers_may_be_switched_off_and_the_day_start_moved(client, manager):
    client.force_login(manager)
    client.post(
        reverse("cash_room_settings"),
        settings_post(release_after_markers="", gaming_day_start="07:30", suit_order="cdhs"),
    )
    settings = cash_reads.room_settings()
    assert settings.release_after_markers is None
    assert settings.gaming_day_start_minutes == 7 * 60 + 30
    assert settings.suit_order == ("c", "d", "h", "s")


@pytest.mark.parametrize(
    "bad",
    [
        {"sit_out_minutes": "0"},
        {"sit_out_minutes": "half an hour"},
        {"sit_outs_per_day": "-1"},
        {"gaming_day_start": "25:00"},
        {"suit_order": "sshh"},
        {"shifts": "Night"},
        {"shifts": "Day 10:00\nDay 18:00"},
        {"shifts": "Day 10:00\nNight 10:00"},
        {"level_down_moves": "sometimes"},
    ],
)
def test_a_bad_setting_is_refused_with_a_message_and_nothing_changes(client, manager, bad):
    client.force_login(manager)
    response = client.post(reverse("cash_room_settings"), settings_post(**bad))
    assert response.status_code == 200
    assert "Nothing was saved" in response.content.decode()
    assert not CashRoom.objects.exists() or CashRoom.objects.get().overrides == {}
    assert not RoomEvent.objects.filter(action="cash.settings").exists()


def test_the_manager_sets_initials_on_the_public_board_and_can_undo_it(client, manager, game):
    player = make_player("Anna")
    cash_lists.list_add(actor=manager, player=player, games=[game], present=True, now=NOW)
    client.force_login(manager)
    client.post(
        reverse("cash_room_settings"),
        settings_post(public_name_format="initials", sit_out_minutes=40),
    )
    assert "A.R." in client.get(reverse("cash_brush")).content.decode()
    event = RoomEvent.objects.get(action="cash.settings")
    client.post(reverse("cash_undo", args=[event.pk]))
    assert cash_reads.cash_room().public_name_format == "first_name"
    assert cash_reads.room_settings().sit_out_minutes == 30


def test_only_the_manager_changes_the_room_settings(client, cash_floor):
    client.force_login(cash_floor)
    assert client.get(reverse("cash_room_settings")).status_code == 403
    response = client.post(reverse("cash_room_settings"), settings_post(sit_out_minutes=45))
    assert response.status_code == 403
    assert cash_reads.room_settings().sit_out_minutes == 30


# --- the rake form ----------------------------------------------------------------------


def test_the_tablets_rake_form_offers_the_staff_and_the_running_shift(
    client, manager, cash_floor, books, mara, table
):
    with_shifts(manager)
    staff("pietro", RoomRole.PIT, "Pietro")
    client.force_login(cash_floor)
    html = client.get(reverse("cash_tablet", args=[table.pk])).content.decode()
    flop = html[html.index('name="flop_dealt"') - 60 : html.index('name="flop_dealt"') + 60]
    assert "checked" not in flop
    dealers = html[
        html.index('name="dealer"') : html.index("</select>", html.index('name="dealer"'))
    ]
    assert "Mara" in dealers and "Franco" in dealers  # a dealer and the cash-room floor
    assert "Bice" not in dealers and "Pietro" not in dealers  # the books and the pit deal not
    # 18:00 UTC is 19:00 in the room: the night shift, which starts at 18:00.
    assert '<option value="Night" selected>' in html


def test_a_typed_dealer_or_shift_is_refused(client, manager, cash_floor, table):
    with_shifts(manager)
    client.force_login(cash_floor)
    for hand in [
        {"pot": 100, "dealer": "Mara", "shift": "Night"},
        {"pot": 100, "shift": "Evening"},
        {"pot": 100},
    ]:
        response = client.post(reverse("cash_table_rake", args=[table.pk]), hand, follow=True)
        assert response.status_code == 200
    assert not RakeRecord.objects.exists()


def test_a_hand_without_flop_ticked_takes_no_rake(client, cash_floor, mara, table):
    client.force_login(cash_floor)
    client.post(reverse("cash_table_rake", args=[table.pk]), {"pot": 200, "dealer": mara.pk})
    record = RakeRecord.objects.get()
    assert (record.rake, record.flop_dealt, record.dealer_account, record.dealer) == (
        0,
        False,
        mara,
        "Mara",
    )


# --- the report -------------------------------------------------------------------------


def rake_evening(client, clock, manager, cash_floor, mara, table):
    """Three hands: two by Mara in the day shift, one by Franco at night (19:00 room time),
    then one past midnight that still belongs to the night's gaming day."""
    with_shifts(manager)
    client.force_login(cash_floor)
    post = reverse("cash_table_rake", args=[table.pk])
    day = NOW - timedelta(hours=6)  # 13:00 in the room
    with_clock = [
        (day, {"pot": 130, "flop_dealt": "on", "dealer": mara.pk, "shift": "Day"}),
        (day + timedelta(minutes=1), {"pot": 40, "dealer": mara.pk, "shift": "Day"}),
        (NOW, {"pot": 1300, "flop_dealt": "on", "dealer": cash_floor.pk, "shift": "Night"}),
        (NOW + timedelta(hours=6), {"pot": 200, "flop_dealt": "on", "shift": "Night"}),
    ]
    for at, hand in with_clock:
        clock.move_to(at)
        client.post(post, hand)
    clock.move_to(NOW)
    assert list(RakeRecord.objects.order_by("hand").values_list("rake", flat=True)) == [
        7,
        0,
        30,
        10,
    ]


def test_the_report_shows_each_shift_and_dealer(
    client, frozen_clock, manager, cash_floor, books, mara, table
):
    rake_evening(client, frozen_clock, manager, cash_floor, mara, table)
    client.force_login(books)
    html = client.get(reverse("cash_rake_report")).content.decode()
    assert "Total rake €47 over 4 hands" in html
    by_shift = html[html.index('data-testid="by-shift"') :]
    by_shift = by_shift[: by_shift.index("</table>")]
    assert "Day</td><td>€7</td><td>2 hands" in by_shift
    assert "Night</td><td>€40</td><td>2 hands" in by_shift
    html = client.get(reverse("cash_rake_report"), {"shift": "Day"}).content.decode()
    assert "Total rake €7 over 2 hands" in html and "Mara" in html
    # The gaming day runs 06:00 to 06:00: the hand at 01:00 is the 21st's.
    html = client.get(reverse("cash_rake_report"), {"day": "2026-11-21"}).content.decode()
    assert "Total rake €47 over 4 hands" in html
    html = client.get(reverse("cash_rake_report"), {"day": "2026-11-22"}).content.decode()
    assert "Total rake €0 over 0 hands" in html


def test_the_csv_says_the_rooms_time_and_words(
    client, frozen_clock, manager, cash_floor, books, mara, table
):
    rake_evening(client, frozen_clock, manager, cash_floor, mara, table)
    client.force_login(books)
    response = client.get(reverse("cash_rake_report"), {"format": "csv", "shift": "Night"})
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == [
        "Time",
        "Table",
        "Game",
        "Hand",
        "Dealer",
        "Shift",
        "Flop dealt",
        "Pot",
        "Rake",
    ]
    assert rows[1] == [
        "2026-11-21 19:00",
        "6",
        "NL Hold'em 2/5",
        "3",
        "Franco",
        "Night",
        "yes",
        "1300",
        "30",
    ]
    assert rows[2][0] == "2026-11-22 01:00"
    italian = client.get(
        reverse("cash_rake_report"), {"format": "csv"}, HTTP_ACCEPT_LANGUAGE="it"
    ).content.decode("utf-8-sig")
    head, first = italian.splitlines()[:2]
    assert head == "Ora,Tavolo,Gioco,Mano,Dealer,Turno,Flop distribuito,Pot,Rake"
    assert first.startswith("2026-11-21 13:00,") and ",Mara,Day,sì," in first


def test_the_xlsx_keeps_the_rooms_time(
    client, frozen_clock, manager, cash_floor, books, mara, table
):
    from openpyxl import load_workbook

    rake_evening(client, frozen_clock, manager, cash_floor, mara, table)
    client.force_login(cash_floor)
    response = client.get(reverse("cash_rake_report"), {"format": "xlsx"})
    sheet = load_workbook(io.BytesIO(response.content)).active
    assert [c.value for c in sheet[1]][:7] == [
        "Time",
        "Table",
        "Game",
        "Hand",
        "Dealer",
        "Shift",
        "Flop dealt",
    ]
    # A spreadsheet has no time zones: the room's wall-clock time, 19:00 in Rome.
    at = sheet["A4"].value
    assert (at.date().isoformat(), at.hour, at.minute) == ("2026-11-21", 19, 0)
    assert sheet["G4"].value == "yes"


@pytest.mark.parametrize(
    ("who", "status"),
    [
        ("manager", 200),
        ("cash_floor", 200),
        ("books", 200),
        ("mara", 403),
        ("pit", 403),
        ("desk", 403),
        ("outsider", 403),
    ],
)
def test_the_rake_report_is_for_the_manager_the_floor_and_the_books(client, request, who, status):
    user = staff("pietro", RoomRole.PIT) if who == "pit" else request.getfixturevalue(who)
    client.force_login(user)
    assert client.get(reverse("cash_rake_report")).status_code == status
    assert client.get(reverse("cash_rake_report"), {"format": "csv"}).status_code == status
