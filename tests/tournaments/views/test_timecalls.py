"""Time calls on the pages: the console's form and list, the tablet's shot clock and the
ruling, the event log and the event's setting."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.conftest import NOW, make_player
from tournaments.models import DisplayScreen, Event, TimeCall
from tournaments.services import entries as entry_services
from tournaments.services import timecalls as tc

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def seated(tournament, td):
    return entry_services.entry_register(
        tournament=tournament, player=make_player("Lia", "Gialli"), actor=td, now=NOW
    )


def _post(client, tournament, action, data, **extra):
    return client.post(reverse("clock_control", args=[tournament.slug, action]), data, **extra)


def test_floor_calls_the_clock_from_the_console(client, tournament, floor, seated):
    client.force_login(floor)
    response = _post(
        client,
        tournament,
        "timecall_start",
        {"table": seated.table, "seat": seated.seat, "facing_bet": "1"},
        **HX,
    )
    assert response.status_code == 200
    call = TimeCall.objects.get()
    assert (call.table_number, call.seat_number, call.facing_bet) == (
        seated.table,
        seated.seat,
        True,
    )
    assert call.called_by == floor and call.outcome == "running"
    html = response.content.decode()
    assert 'data-testid="timecall-row"' in html and "Gialli Lia" in html
    assert f'data-call="{call.pk}"' in html and 'data-countdown="5"' in html
    # Acted, from the same list.
    _post(client, tournament, "timecall_acted", {"call": call.pk}, **HX)
    call.refresh_from_db()
    assert call.outcome == "acted"


def test_the_console_form_without_a_bet_and_cancel(client, tournament, td, seated):
    client.force_login(td)
    response = _post(
        client, tournament, "timecall_start", {"table": seated.table, "seat": seated.seat}
    )
    assert response.status_code == 302
    call = TimeCall.objects.get()
    assert not call.facing_bet and call.on_expiry == "check"
    _post(client, tournament, "timecall_cancel", {"call": call.pk})
    call.refresh_from_db()
    assert call.outcome == "cancelled"


@pytest.mark.parametrize(
    "data",
    [
        {"table": "1", "seat": "9"},  # empty seat (the first player sits elsewhere)
        {"table": "77", "seat": "1"},
        {"table": "x", "seat": "1"},
        {"table": "", "seat": ""},
        {"table": "1", "seat": "99999999999999999999"},
    ],
)
def test_console_refusals_change_nothing_and_say_why(client, tournament, td, seated, data):
    if data["table"] == "1" and data["seat"] == "9" and (seated.table, seated.seat) == (1, 9):
        data = {"table": "1", "seat": "8"}
    client.force_login(td)
    response = _post(client, tournament, "timecall_start", data, **HX)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="message error"' in html
    assert not TimeCall.objects.exists()


def test_desk_cannot_call_the_clock(client, tournament, desk, seated):
    client.force_login(desk)
    response = _post(client, tournament, "timecall_start", {"table": 1, "seat": seated.seat})
    assert response.status_code == 403
    assert not TimeCall.objects.exists()


def test_the_tablet_shows_the_shot_clock_then_the_ruling(client, tournament, td, seated):
    screen = DisplayScreen.objects.create(
        tournament=tournament, name="T", kind="table", table_number=seated.table
    )
    other = DisplayScreen.objects.create(
        tournament=tournament, name="U", kind="table", table_number=seated.table % 4 + 1
    )
    page = client.get(f"/s/{screen.token}/").content.decode()
    assert f'data-timecall-seat="{seated.seat}"' in page and "js/timecall.js" in page
    now = timezone.now()
    call = tc.timecall_start(
        tournament=tournament,
        actor=td,
        now=now,
        table_number=seated.table,
        seat_number=seated.seat,
        facing_bet=False,
    )
    page = client.get(f"/s/{screen.token}/").content.decode()
    assert f'data-expires-at="{call.expires_at.isoformat()}"' in page
    # The rules cited by name (their codes stay in the hover text).
    assert "When the time runs out: Check (" in page and ">Calling the clock<" in page
    assert "data-timecall-seat" not in page  # one clock at a time at this table
    assert "data-timecall-running" not in client.get(f"/s/{other.token}/").content.decode()

    tc.timecall_expire(
        tournament=tournament, actor=None, now=now + dt.timedelta(seconds=30), call_id=call.pk
    )
    page = client.get(f"/s/{screen.token}/").content.decode()
    assert "data-timecall-running" not in page
    assert "Time ran out, seat" in page and "Check (" in page and ">Calling the clock<" in page


def test_the_event_chooses_its_time_call_rules(client, tournament, td, seated):
    client.force_login(td)
    edit = client.get(reverse("tournament_edit", args=[tournament.slug])).content.decode()
    assert 'name="time_call_profile"' in edit
    tournament.time_call_profile = "tda2015"
    tournament.save()
    client.post(
        reverse("clock_control", args=[tournament.slug, "timecall_start"]),
        {"table": seated.table, "seat": seated.seat},
    )
    call = TimeCall.objects.get()
    assert (call.grant_seconds, call.countdown_seconds, call.on_expiry) == (60, 10, "dead_hand")
    assert Event.objects.filter(action="timecall.start", data__seconds=60).exists()


def test_floor_undoes_an_expiry_from_the_log(client, tournament, floor, seated):
    call = tc.timecall_start(
        tournament=tournament,
        actor=floor,
        now=NOW,
        table_number=seated.table,
        seat_number=seated.seat,
        facing_bet=True,
    )
    tc.timecall_expire(
        tournament=tournament, actor=None, now=NOW + dt.timedelta(seconds=30), call_id=call.pk
    )
    event = Event.objects.get(action="timecall.expire")
    client.force_login(floor)
    client.post(reverse("event_undo", args=[tournament.slug, event.pk]), {"confirm": "1"})
    call.refresh_from_db()
    assert (call.outcome, call.ruling) == ("cancelled", "")
