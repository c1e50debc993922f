"""Who manages staff accounts, and what a tablet's PIN opens: only the room's manager
manages accounts, each change in the room's log under him; a PIN is counted before it is
checked, and unlocks one table's tablet for one shift, never an account that runs events
or the room."""

from __future__ import annotations

import datetime as dt
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import time_machine
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import reverse

from config import ratelimit
from config.asgi import application
from room.models import CashSeat, RoomEvent, WaitEntry
from room.services import accounts, cash_lists
from room.services import cash_tables as table_services
from tests.conftest import (
    NOW,
    make_cash_game,
    make_manager,
    make_player,
    make_room_user,
    make_tournament,
    make_user,
)
from tournaments.errors import DomainError
from tournaments.models import Event, Role, RoomRole, StaffAssignment, StaffPin, Table
from tournaments.selectors import pins
from tournaments.services import clock as clock_services
from tournaments.services import handforhand as handforhand_services
from tournaments.sockets.consumer import current_role

pytestmark = pytest.mark.django_db

PIN = "4711"


def _assign(user, tournament, role):
    StaffAssignment.objects.create(tournament=tournament, user=user, role=role)
    return user


@pytest.fixture
def manager(db):
    return make_manager(make_user("boss"))


@pytest.fixture
def events(td, tournament, manager):
    """Event A (run by `td`), event B with a TD of its own, a desk of A, the manager."""
    other_td = make_user("td-b")
    event_b = make_tournament(other_td, name="Monday Turbo", tables=2)  # its TD
    desk = _assign(make_user("desk-a"), tournament, Role.DESK)
    return {"a": tournament, "b": event_b, "td_b": other_td, "desk": desk}


def _dealer(username="gigi"):
    return make_room_user(username, RoomRole.DEALER)


def _unlock(client, url, username, pin, ip="10.0.0.9"):
    return client.post(url, {"username": username, "pin": pin}, REMOTE_ADDR=ip)


# --- who manages accounts ---------------------------------------------------------------


@pytest.mark.parametrize("action", ["reset", "disable", "pin"])
def test_an_events_td_cannot_touch_another_events_td_a_desk_or_the_manager(
    client, td, events, manager, action
):
    client.force_login(td)
    for victim in (events["td_b"], events["desk"], manager):
        response = client.post(
            reverse("staff_accounts"),
            {
                "action": action,
                "username": victim.username,
                "password": "Nuova-Parola-77",
                "pin": PIN,
            },
        )
        assert response.status_code == 403, victim.username
        victim.refresh_from_db()
        assert victim.is_active and victim.check_password(f"pw-{victim.username}")
    assert client.get(reverse("staff_accounts")).status_code == 403
    assert not StaffPin.objects.exists()
    assert not RoomEvent.objects.exists()


def test_the_manager_manages_accounts_and_each_change_is_logged_under_him(
    client, manager, tournament
):
    client.force_login(manager)
    url = reverse("staff_accounts")
    steps = [
        {"action": "create", "username": "gigi", "password": "Tavolo-Verde-42"},
        {"action": "assign", "username": "gigi", "slug": tournament.slug, "role": "floor"},
        {"action": "pin", "username": "gigi", "pin": PIN},
        {"action": "disable", "username": "gigi"},
        {"action": "enable", "username": "gigi"},
        {"action": "reset", "username": "gigi", "password": "Nuova-Parola-77"},
    ]
    for step in steps:
        assert client.post(url, step).status_code == 302
    logged = list(RoomEvent.objects.order_by("pk").values_list("action", "actor__username"))
    assert logged == [
        ("room.account_create", "boss"),
        ("room.role_give", "boss"),
        ("room.pin_set", "boss"),
        ("room.account_disable", "boss"),
        ("room.account_enable", "boss"),
        ("room.account_reset", "boss"),
    ]
    assert Event.objects.filter(action="staff.assign", actor=manager).exists()
    gigi = get_user_model().objects.get(username="gigi")
    assert gigi.is_active and gigi.check_password("Nuova-Parola-77")
    page = client.get(url).content.decode()
    for words in (
        "gigi: account created",
        "gigi: Floor in Sunday Deepstack",
        "gigi: tablet PIN set",
        "gigi: account disabled",
        "gigi: account enabled",
        "gigi: new password",
    ):
        assert words in page, words
    assert "room.account" not in page


def test_the_manager_changes_neither_a_superuser_nor_himself(client, manager):
    admin = get_user_model().objects.create_superuser("root", password="pw-root")
    client.force_login(manager)
    for victim, message in ((admin, "Only an administrator"), (manager, "your own account")):
        response = client.post(
            reverse("staff_accounts"),
            {"action": "reset", "username": victim.username, "password": "Nuova-Parola-77"},
            follow=True,
        )
        assert message in response.content.decode()
        victim.refresh_from_db()
        assert victim.check_password(f"pw-{victim.username}")
    assert not RoomEvent.objects.exists()


def test_an_event_role_is_given_only_in_an_event_the_actor_runs(td, events):
    gigi = make_user("gigi")
    with pytest.raises(DomainError, match="manager"):
        accounts.role_give(actor=td, tournament=events["a"], username="gigi", role="td", now=NOW)
    assert not StaffAssignment.objects.filter(user=gigi).exists()


# --- who holds a PIN -------------------------------------------------------------------


def test_a_pin_is_never_set_for_an_account_that_runs_events_or_the_room(manager, td, events):
    admin = get_user_model().objects.create_superuser("root", password="pw-root")
    other_manager = make_manager(make_user("boss2"))
    for user in (td, events["td_b"], other_manager):
        with pytest.raises(DomainError, match="runs events or the room"):
            accounts.pin_set(actor=manager, username=user.username, pin=PIN, now=NOW)
    with pytest.raises(DomainError):
        accounts.pin_set(actor=admin, username=admin.username, pin=PIN, now=NOW)
    with pytest.raises(DomainError, match="dealer's room role"):
        accounts.pin_set(actor=manager, username=events["desk"].username, pin=PIN, now=NOW)
    assert not StaffPin.objects.exists()


def test_a_pin_left_on_an_account_made_td_unlocks_nothing(client, manager, tournament, events):
    floor = _assign(make_user("gigi"), tournament, Role.FLOOR)
    accounts.pin_set(actor=manager, username="gigi", pin=PIN, now=NOW)
    StaffAssignment.objects.create(tournament=events["b"], user=floor, role=Role.TD)
    assert pins.pin_check("gigi", PIN) is None
    response = _unlock(client, reverse("pin_unlock", args=[tournament.slug, 2]), "gigi", PIN)
    assert response.status_code == 403 and "_auth_user_id" not in client.session


# --- PIN guesses -------------------------------------------------------------------------


def test_a_pin_attempt_is_counted_before_the_check_and_a_right_one_gives_it_back(rf):
    request = rf.post("/", REMOTE_ADDR="10.0.0.9")
    for _ in range(ratelimit.PIN_PER_USERNAME.limit):
        assert ratelimit.pin_attempt(request, "gigi") == 0
    assert ratelimit.pin_attempt(request, "GIGI") > 0  # the name as a login compares it
    ratelimit.pin_succeeded(request, "gigi")
    assert ratelimit.pin_attempt(request, "gigi") == 0


@pytest.mark.django_db(transaction=True)
def test_forty_parallel_wrong_pins_check_at_most_the_limit(monkeypatch):
    dealer = _dealer()
    tournament = make_tournament(make_user("td-x"))
    StaffPin.objects.create(user=dealer, pin_hash="md5$x$y", set_at=NOW)
    checked: list[str] = []
    real_check = pins.pin_check

    def slow_check(username, pin):
        checked.append(username)
        time.sleep(0.02)  # the slow hash: the other guesses arrive meanwhile
        return real_check(username, pin)

    monkeypatch.setattr(pins, "pin_check", slow_check)
    url = reverse("pin_unlock", args=[tournament.slug, 1])
    barrier = threading.Barrier(40)

    def guess(n: int) -> int:
        try:
            barrier.wait(timeout=10)
            return _unlock(Client(), url, "gigi", f"{n:04d}").status_code
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=40) as pool:
        statuses = list(pool.map(guess, range(1000, 1040)))
    assert len(checked) == ratelimit.PIN_PER_USERNAME.limit
    assert statuses.count(429) == 40 - ratelimit.PIN_PER_USERNAME.limit


# --- what a PIN unlocks -----------------------------------------------------------------


def test_a_pin_session_reaches_its_own_tablet_and_nothing_else(client, manager, tournament):
    _assign(make_user("gigi"), tournament, Role.FLOOR)
    accounts.pin_set(actor=manager, username="gigi", pin=PIN, now=NOW)
    response = _unlock(client, reverse("pin_unlock", args=[tournament.slug, 2]), "gigi", PIN)
    tablet = reverse("dealer_tablet", args=[tournament.slug, 2])
    assert response.status_code == 302 and response["Location"] == tablet
    page = client.get(tablet)
    assert page.status_code == 200
    assert reverse("tournament_edit", args=[tournament.slug]) not in page.content.decode()
    assert client.post(tablet, {"op": "start"}, HTTP_HX_REQUEST="true").status_code == 200
    refused = [
        reverse("dealer_tablet", args=[tournament.slug, 3]),
        reverse("tournament_home", args=[tournament.slug]),
        reverse("tournament_edit", args=[tournament.slug]),
        reverse("event_books", args=[tournament.slug]),
        reverse("player_list", args=[tournament.slug]),
        reverse("night_books"),
        reverse("people"),
        reverse("staff_accounts"),
        reverse("room_staff"),
        reverse("tournament_list"),
        reverse("cash_board"),
    ]
    for url in refused:
        assert client.get(url).status_code == 403, url
    assert client.post(reverse("set_language"), {"language": "it"}).status_code == 302
    assert client.post(reverse("logout")).status_code == 302
    assert "_auth_user_id" not in client.session


def test_a_room_dealer_unlocks_a_tournament_table_a_floor_of_another_event_does_not(
    client, manager, tournament
):
    _dealer()
    accounts.pin_set(actor=manager, username="gigi", pin=PIN, now=NOW)
    other = make_tournament(make_user("td-c"), name="Other", tables=1)
    _assign(make_user("rita"), other, Role.FLOOR)
    accounts.pin_set(actor=manager, username="rita", pin="8080", now=NOW)
    url = reverse("pin_unlock", args=[tournament.slug, 1])
    assert _unlock(Client(), url, "rita", "8080").status_code == 403
    assert _unlock(client, url, "gigi", PIN).status_code == 302
    assert client.get(reverse("dealer_tablet", args=[tournament.slug, 1])).status_code == 200


def test_the_pin_session_ends_with_the_shift(client, manager, tournament):
    _dealer()
    accounts.pin_set(actor=manager, username="gigi", pin=PIN, now=NOW)
    unlock = reverse("pin_unlock", args=[tournament.slug, 2])
    _unlock(client, unlock, "gigi", PIN)
    tablet = reverse("dealer_tablet", args=[tournament.slug, 2])
    shift = dt.timedelta(hours=settings.TABLET_SHIFT_HOURS)
    assert shift == dt.timedelta(hours=8)
    with time_machine.travel(NOW + shift - dt.timedelta(minutes=1)):
        assert client.get(tablet).status_code == 200
    with time_machine.travel(NOW + shift + dt.timedelta(minutes=1)):
        response = client.get(tablet)
        assert response.status_code == 302 and response["Location"] == unlock
        assert "_auth_user_id" not in client.session
    with time_machine.travel(NOW + dt.timedelta(hours=12)):
        assert client.get(tablet).status_code == 302


def test_a_pin_session_sends_no_staff_command_over_the_socket(client, manager, tournament):
    floor = _assign(make_user("gigi"), tournament, Role.FLOOR)
    accounts.pin_set(actor=manager, username="gigi", pin=PIN, now=NOW)
    _unlock(client, reverse("pin_unlock", args=[tournament.slug, 2]), "gigi", PIN)
    pin_session = client.session.session_key
    by_password = Client()
    by_password.force_login(floor)
    assert current_role(floor, tournament, by_password.session.session_key) == Role.FLOOR
    assert current_role(floor, tournament, pin_session) is None


async def _control_over_socket(slug: str, client: Client, message: dict) -> dict:
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    socket = WebsocketCommunicator(
        application,
        f"/ws/t/{slug}/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", cookie.encode())],
    )
    connected, _code = await socket.connect(timeout=10)
    assert connected
    await socket.receive_json_from(timeout=5)  # the clock's state
    await socket.send_json_to({"type": "control", **message})
    replies = [await socket.receive_json_from(timeout=5)]
    if replies[0]["type"] == "clock":  # the push of the change comes before the answer
        replies.append(await socket.receive_json_from(timeout=5))
    await socket.disconnect()
    return replies[-1]


@pytest.mark.django_db(transaction=True)
def test_a_pin_sessions_socket_is_refused_what_the_floor_may_send():
    td = make_user("td-s")
    tournament = make_tournament(td, tables=2)
    Table.objects.filter(tournament=tournament, number=2).update(status="open")
    clock_services.clock_start(tournament=tournament, actor=td, now=NOW)
    handforhand_services.h4h_start(tournament=tournament, actor=td, now=NOW)
    floor = _assign(make_user("gigi"), tournament, Role.FLOOR)
    accounts.pin_set(actor=make_manager(), username="gigi", pin=PIN, now=NOW)
    by_pin, by_password = Client(), Client()
    _unlock(by_pin, reverse("pin_unlock", args=[tournament.slug, 2]), "gigi", PIN)
    by_password.force_login(floor)
    done = {"action": "h4h_table_done", "table": 2}
    assert async_to_sync(_control_over_socket)(tournament.slug, by_pin, done)["type"] == "error"
    assert not Event.objects.filter(action="h4h.table_done").exists()
    assert async_to_sync(_control_over_socket)(tournament.slug, by_password, done)["type"] == "ok"
    assert Event.objects.filter(action="h4h.table_done").exists()


# --- a cash table's tablet --------------------------------------------------------------


@pytest.fixture
def cash_tables(manager):
    game = make_cash_game(manager)
    tables = []
    for number in (1, 2):
        players = [make_player(f"P{number}{k}") for k in range(2)]
        for player in players:
            cash_lists.list_add(actor=manager, player=player, games=[game], present=True, now=NOW)
        tables.append(
            table_services.table_open(
                actor=manager,
                game=game,
                number=number,
                present={p.pk for p in players},
                now=NOW,
                rng=random.Random(number),
            )
        )
    assert not WaitEntry.objects.exists()
    return tables


def test_a_room_dealer_unlocks_a_cash_tablet_for_that_table_only(client, manager, cash_tables):
    mine, other = cash_tables
    _dealer()
    accounts.pin_set(actor=manager, username="gigi", pin=PIN, now=NOW)
    response = _unlock(client, reverse("cash_pin_unlock", args=[mine.pk]), "gigi", PIN)
    assert response["Location"] == reverse("cash_tablet", args=[mine.pk])
    assert client.get(response["Location"]).status_code == 200
    seat = CashSeat.objects.filter(table=mine).first()
    marked = client.post(
        reverse("cash_seat_marker", args=[seat.pk]), {"next": "tablet", "table": mine.pk}
    )
    assert marked["Location"] == reverse("cash_tablet", args=[mine.pk])
    seat.refresh_from_db()
    assert seat.markers == 1
    theirs = CashSeat.objects.filter(table=other).first()
    assert client.post(reverse("cash_seat_marker", args=[theirs.pk])).status_code == 403
    theirs.refresh_from_db()
    assert theirs.markers == 0
    for url in (
        reverse("cash_tablet", args=[other.pk]),
        reverse("cash_board"),
        reverse("cash_rake_report"),
        reverse("dealer_tablet", args=["x", 1]),
    ):
        assert client.get(url).status_code == 403, url
    assert client.post(reverse("cash_table_close", args=[mine.pk])).status_code == 403


def test_only_a_room_dealer_unlocks_a_cash_tablet(client, manager, tournament, cash_tables):
    _assign(make_user("gigi"), tournament, Role.FLOOR)
    accounts.pin_set(actor=manager, username="gigi", pin=PIN, now=NOW)
    response = _unlock(client, reverse("cash_pin_unlock", args=[cash_tables[0].pk]), "gigi", PIN)
    assert response.status_code == 403 and "_auth_user_id" not in client.session
