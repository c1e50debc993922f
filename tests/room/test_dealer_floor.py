"""The dealers' floor: clock-in by PIN and lateness, the plan stored as assignments, the
push, the floor's override and its undo, tables opening and closing re-flowing the plan at
once, the pit's tables, the hours and the tips' split (integer cents, remainder rule)."""

from __future__ import annotations

import csv
import io
from datetime import time, timedelta

import pytest
from django.urls import reverse

from room.events import room_event_undo
from room.models import CashTable, DealerAssignment, DealerShift, PitTable, RoomEvent, TipsPool
from room.rules.tips import split_pool, weights
from room.selectors import dealers as selectors
from room.services import cash_tables
from room.services import dealers as services
from tests.conftest import NOW, make_cash_game, make_manager, make_room_user, make_tournament
from tournaments.errors import CannotUndo, DomainError
from tournaments.models import RoomRole, StaffPin, Table, Tournament
from tournaments.services import moves as room_services

pytestmark = pytest.mark.django_db

HOLDEM = ["holdem", "omaha"]


def dealer(username: str, games=HOLDEM, start: time = time(19, 0)):
    user = make_room_user(username, RoomRole.DEALER)
    user.first_name = username.capitalize()
    user.save()
    services.profile_save(
        actor=None, dealer=user, games=games, start=start, end=time(3, 0), now=NOW
    )
    return user


@pytest.fixture
def room(td):
    """A running event with two open tables and an open cash table."""
    event = make_tournament(td, tables=3)
    Tournament.objects.filter(pk=event.pk).update(status=Tournament.Status.RUNNING)
    Table.objects.filter(tournament=event, number__in=[1, 2]).update(status=Table.Status.OPEN)
    manager = make_manager()
    game = make_cash_game(manager)
    cash = CashTable.objects.create(game=game, number=1, opened_at=NOW)
    keys = [f"tournament:{Table.objects.get(tournament=event, number=n).pk}" for n in (1, 2)] + [
        f"cash:{cash.pk}"
    ]
    return {"event": event, "manager": manager, "cash": cash, "keys": keys}


def where(user) -> str | None:
    row = DealerAssignment.objects.filter(dealer=user, ended_at__isnull=True).first()
    return None if row is None else row.table_key


def test_clocking_in_staffs_the_open_tables_and_marks_lateness(room):
    anna, bruno, carla, dario = (dealer(n) for n in ("anna", "bruno", "carla", "dario"))
    for i, user in enumerate((anna, bruno, carla, dario)):
        services.clock_in(dealer=user, now=NOW + timedelta(minutes=i))
    seated = {where(u) for u in (anna, bruno, carla, dario)}
    assert set(room["keys"]) <= seated  # every open table is dealt
    assert None in seated  # the fourth waits for a table
    shift = DealerShift.objects.get(dealer=anna)
    # NOW is 18:00 UTC, 19:00 in the room (Europe/Rome): on time; a minute later, late.
    assert (shift.late_minutes, DealerShift.objects.get(dealer=bruno).late_minutes) == (0, 1)
    with pytest.raises(DomainError):
        services.clock_in(dealer=anna, now=NOW + timedelta(minutes=5))


def test_a_non_dealer_cannot_clock_in(room):
    with pytest.raises(DomainError):
        services.clock_in(dealer=room["manager"], now=NOW)


def test_the_push_moves_the_due_dealers_and_is_logged(room):
    users = [dealer(n) for n in ("anna", "bruno", "carla", "dario")]
    for user in users:
        services.clock_in(dealer=user, now=NOW)
    before = {u.pk: where(u) for u in users}
    services.push(actor=room["manager"], now=NOW + timedelta(minutes=31))
    after = {u.pk: where(u) for u in users}
    assert after != before
    staffed = [k for k in after.values() if k]
    assert len(staffed) == len(set(staffed))  # no table dealt twice
    assert RoomEvent.objects.filter(action=services.PUSH).count() == 1
    # Not due yet: the sweep leaves the plan alone.
    assert services.push(actor=None, now=NOW + timedelta(minutes=32), only_if_due=True) is None


def test_a_push_with_nobody_to_move_is_refused_in_words(room):
    with pytest.raises(DomainError, match="Nobody moves"):
        services.push(actor=room["manager"], now=NOW)


def test_an_override_moves_one_dealer_and_its_undo_restores_the_plan(room):
    users = [dealer(n) for n in ("anna", "bruno", "carla", "dario")]
    for user in users:
        services.clock_in(dealer=user, now=NOW)
    waiting = next(u for u in users if where(u) is None)
    target = room["keys"][0]
    sitting = next(u for u in users if where(u) == target)
    before = {u.pk: where(u) for u in users}
    event = services.override(
        actor=room["manager"],
        dealer_id=waiting.pk,
        table_key=target,
        now=NOW + timedelta(minutes=5),
    )
    assert where(waiting) == target
    assert where(sitting) is None
    room_event_undo(event_id=event.pk, actor=room["manager"], now=NOW + timedelta(minutes=6))
    assert {u.pk: where(u) for u in users} == before
    with pytest.raises(CannotUndo):
        room_event_undo(event_id=event.pk, actor=room["manager"], now=NOW + timedelta(minutes=7))


def test_an_override_refuses_a_game_the_dealer_does_not_deal(room):
    pit = PitTable.objects.create(name="BJ 1", game="blackjack", status="open")
    anna = dealer("anna")
    services.clock_in(dealer=anna, now=NOW)
    with pytest.raises(DomainError, match="does not deal Blackjack"):
        services.override(
            actor=room["manager"], dealer_id=anna.pk, table_key=f"pit:{pit.pk}", now=NOW
        )


def test_a_cash_table_closing_frees_its_dealer_at_once(room, django_capture_on_commit_callbacks):
    anna = dealer("anna")
    services.clock_in(dealer=anna, now=NOW)
    others = [dealer(n) for n in ("bruno", "carla")]
    for user in others:
        services.clock_in(dealer=user, now=NOW)
    cash_key = room["keys"][2]
    at_cash = next(u for u in [anna, *others] if where(u) == cash_key)
    with django_capture_on_commit_callbacks(execute=True):
        cash_tables.table_close(actor=room["manager"], table=room["cash"], now=NOW)
    assert where(at_cash) is None
    assert RoomEvent.objects.filter(action=services.REFLOW).exists()


def test_a_tournament_table_opening_takes_a_waiting_dealer(
    room, td, django_capture_on_commit_callbacks
):
    users = [dealer(n) for n in ("anna", "bruno", "carla", "dario")]
    for user in users:
        services.clock_in(dealer=user, now=NOW)
    waiting = next(u for u in users if where(u) is None)
    with django_capture_on_commit_callbacks(execute=True):
        room_services.table_set_status(
            tournament=room["event"], table_number=3, status="open", actor=td, now=NOW
        )
    table3 = Table.objects.get(tournament=room["event"], number=3)
    assert where(waiting) == f"tournament:{table3.pk}"


def test_a_pit_table_opens_and_closes_with_its_dealer(room):
    croupier = dealer("elena", games=["blackjack"])
    services.clock_in(dealer=croupier, now=NOW)
    table = services.pit_table_add(actor=room["manager"], name="BJ 1", game="blackjack", now=NOW)
    services.pit_table_status(actor=room["manager"], table=table, status="open", now=NOW)
    assert where(croupier) == f"pit:{table.pk}"
    services.pit_table_status(actor=room["manager"], table=table, status="closed", now=NOW)
    assert where(croupier) is None


def test_hours_count_the_box_by_game_and_table_and_the_breaks(room):
    anna = dealer("anna")
    services.clock_in(dealer=anna, now=NOW)
    services.override(actor=None, dealer_id=anna.pk, table_key="", now=NOW + timedelta(minutes=40))
    services.clock_out(dealer=anna, now=NOW + timedelta(minutes=90))
    [row] = selectors.hours(NOW.date(), NOW + timedelta(hours=2))
    assert row.box_minutes == 40
    assert row.by_game == {"holdem": 40}
    assert row.breaks == 1 and row.break_minutes == 20  # the break's length, not the wait


def test_tips_split_in_cents_adds_up_and_gives_the_remainder_by_largest_fraction():
    # 100.00 € over 30, 30 and 30 minutes: 33.34, 33.33, 33.33 (the first listed on a tie).
    assert split_pool(10000, {"a": 30, "b": 30, "c": 30}) == {"a": 3334, "b": 3333, "c": 3333}
    # 10.01 € by 50 and 100 minutes: 3.336... and 6.673...: the larger fraction gets the cent.
    assert split_pool(1001, {"a": 50, "b": 100}) == {"a": 334, "b": 667}
    assert weights({"a": 50, "b": 0}, "shifts") == {"a": 1, "b": 0}
    assert split_pool(500, {"a": 0}) == {"a": 0}
    for amount in (0, 1, 99, 12345, 10**8):
        shares = split_pool(amount, {"a": 17, "b": 5, "c": 0, "d": 41})
        assert sum(shares.values()) == amount
        assert shares["c"] == 0


def test_the_tips_pool_is_set_once_a_night_and_undone(room):
    night = NOW.date()
    manager = room["manager"]
    services.tips_set(actor=manager, night=night, amount=12000, now=NOW)
    second = services.tips_set(actor=manager, night=night, amount=15000, now=NOW)
    assert TipsPool.objects.get(night=night).amount == 15000
    event = RoomEvent.objects.filter(action=services.TIPS).order_by("-pk").first()
    room_event_undo(event_id=event.pk, actor=manager, now=NOW)
    assert TipsPool.objects.get(night=night).amount == 12000
    assert second.pk == TipsPool.objects.get(night=night).pk
    with pytest.raises(DomainError):
        services.tips_set(actor=manager, night=night, amount=-1, now=NOW)


def test_the_clock_tablet_takes_the_pin_and_shows_only_his_own(client, room):
    from django.contrib.auth.hashers import make_password

    anna = dealer("anna")
    StaffPin.objects.create(user=anna, pin_hash=make_password("2468"), set_at=NOW)
    url = reverse("dealer_clock")
    wrong = client.post(url, {"username": "anna", "pin": "1111", "direction": "in"})
    assert wrong.status_code == 403 and not DealerShift.objects.exists()
    done = client.post(url, {"username": "anna", "pin": "2468", "direction": "in"})
    assert done.status_code == 200
    assert "you are clocked in" in done.content.decode()
    assert DealerShift.objects.filter(dealer=anna, clock_out__isnull=True).exists()
    assert "_auth_user_id" not in client.session  # the PIN logs nobody in


def test_hours_export_in_csv_and_the_books_fragment(client, room):
    anna = dealer("anna")
    services.clock_in(dealer=anna, now=NOW)
    services.clock_out(dealer=anna, now=NOW + timedelta(minutes=45))
    services.tips_set(actor=room["manager"], night=NOW.date(), amount=4501, now=NOW)
    client.force_login(room["manager"])
    response = client.get(
        reverse("dealer_hours"), {"night": NOW.date().isoformat(), "format": "csv"}
    )
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][0] == "Dealer" and rows[1][0] == "Anna"
    assert rows[1][4] == "45" and rows[1][-1] == "45.01"
    for fmt in ("xlsx", "pdf"):
        got = client.get(reverse("dealer_hours"), {"night": NOW.date().isoformat(), "format": fmt})
        assert got.status_code == 200 and len(got.content) > 500
    fragment = client.get(reverse("dealer_tips"), {"night": NOW.date().isoformat()})
    assert "45.01" in fragment.content.decode()


def test_the_push_comes_on_its_own_when_due(room, frozen_clock):
    from room.tasks import push_dealers_when_due

    users = [dealer(n) for n in ("anna", "bruno", "carla", "dario")]
    for user in users:
        services.clock_in(dealer=user, now=NOW)
    assert push_dealers_when_due() is False  # the downs have just begun
    frozen_clock.shift(timedelta(minutes=31))
    assert push_dealers_when_due() is True
    assert RoomEvent.objects.filter(action=services.PUSH, actor=None).count() == 1


def test_a_pin_unlocked_tablet_reads_its_relief_line_and_nothing_else(client, room):
    from tournaments.permissions import PIN_TABLE

    anna = dealer("anna")
    services.clock_in(dealer=anna, now=NOW)
    client.force_login(anna)
    session = client.session
    until = (NOW + timedelta(hours=8)).timestamp()
    session[PIN_TABLE] = {"kind": "cash", "pk": room["cash"].pk, "until": until}
    session.save()
    relief = client.get(reverse("dealer_relief", args=["cash", room["cash"].pk]))
    assert relief.status_code == 200
    assert client.get(reverse("dealer_floor")).status_code == 403
    assert client.get(reverse("dealer_hours")).status_code == 403


@pytest.mark.parametrize("typed", ["²", "٣", "9" * 30, "9" * 4301])
def test_a_dealer_named_by_a_number_that_is_none_is_refused_in_words(client, room, typed):
    """A dealer's id that is no number, or too long for one, was a 500 on the override and
    on the profile; now each is the page's refusal, and nothing changes."""
    anna = dealer("anna")
    services.clock_in(dealer=anna, now=NOW)
    pit = PitTable.objects.create(name="BJ 1", game="blackjack", status="open")
    client.force_login(room["manager"])
    before = (list(DealerAssignment.objects.values()), RoomEvent.objects.count())
    moved = client.post(
        reverse("dealer_override"), {"dealer": typed, "table": f"pit:{pit.pk}"}, follow=True
    )
    assert "Choose a dealer." in moved.content.decode()
    saved = client.post(
        reverse("dealer_profile"),
        {"dealer": typed, f"{anna.pk}-games": ["holdem"], f"{anna.pk}-shift_start": "20:00"},
        follow=True,
    )
    assert "Choose a dealer of the room." in saved.content.decode()
    assert (list(DealerAssignment.objects.values()), RoomEvent.objects.count()) == before
