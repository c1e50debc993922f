"""The front door, the lobby screen and the room dashboard."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from room.selectors import lobby
from tests.conftest import NOW, make_player, make_tournament
from tournaments.errors import DomainError
from tournaments.models import Event, Table
from tournaments.services import clock as clock_services
from tournaments.services import entries as entry_services
from tournaments.services import sharing

pytestmark = pytest.mark.django_db

MIN = dt.timedelta(minutes=1)


def test_the_front_page_lists_upcoming_and_running_events_without_login(client, tournament, td):
    later = make_tournament(td, name="Friday Turbo", date=NOW.date() + dt.timedelta(days=3))
    clock_services.clock_start(tournament=later, actor=td, now=NOW, at=NOW + dt.timedelta(days=3))
    entry_services.entry_register(tournament=tournament, player=make_player(), actor=td, now=NOW)
    clock_services.clock_start(tournament=tournament, actor=td, now=NOW)

    page = client.get(reverse("front_page")).content.decode()

    running = page.split('data-testid="running"')[1].split('data-testid="upcoming"')[0]
    assert "Sunday Deepstack" in running and "Level 1" in running
    assert "Players: 1 / 1" in running
    assert reverse("seat_finder", args=[tournament.slug]) in running
    upcoming = page.split('data-testid="upcoming"')[1].split('data-testid="finished"')[0]
    assert "Friday Turbo" in upcoming and "100 + 20 EUR" in upcoming
    assert reverse("public_structure", args=[later.slug]) in upcoming


def test_anonymous_visitors_at_the_root_land_on_the_front_page(client):
    assert client.get("/")["Location"] == reverse("front_page")


def test_the_front_page_in_italian(client, tournament):
    page = client.get(reverse("front_page"), HTTP_ACCEPT_LANGUAGE="it")
    assert page.status_code == 200


def test_the_public_structure_marks_breaks_colour_ups_and_late_registration(client, td):
    event = make_tournament(td, late_registration_level=2)
    page = client.get(reverse("public_structure", args=[event.slug])).content.decode()
    assert "100 / 200" in page and "colour up 25" in page
    assert "late registration ends" in page


def test_the_seat_card_and_the_tv_carry_the_front_page_qr(client, tournament, td):
    reg = entry_services.entry_register(
        tournament=tournament, player=make_player(), actor=td, now=NOW
    )
    client.force_login(td)
    card = client.get(reverse("seat_card", args=[tournament.slug, reg.entry.number]))
    assert 'data-testid="front-qr"' in card.content.decode()
    tv = client.get(reverse("public_clock", args=[tournament.slug]))
    assert 'data-testid="front-qr"' in tv.content.decode()


def test_the_dashboard_shows_every_running_event_with_its_alerts(client, tournament, td, floor):
    other = make_tournament(td, name="Side Event", addon_allowed=True, addon_break_after_level=2)
    for event in (tournament, other):
        clock_services.clock_start(tournament=event, actor=td, now=NOW)
    Table.objects.filter(tournament=other, number=1).update(
        status=Table.Status.OPEN, hand_started_at=NOW - 30 * MIN
    )
    # 45 minutes in: level 1 and 2 played (40 min), the add-on break is on.
    cards = {c.tournament.name: c for c in lobby.running_events(NOW + 45 * MIN)}
    assert set(cards) == {"Sunday Deepstack", "Side Event"}
    assert "Add-on break" in cards["Side Event"].alerts
    assert "Table 1 halted" in cards["Side Event"].alerts
    assert "Add-on break" not in cards["Sunday Deepstack"].alerts

    client.force_login(floor)  # the floor of one event sees only his own
    page = client.get(reverse("room_dashboard")).content.decode()
    assert "Sunday Deepstack" in page and "Side Event" not in page


def test_the_lobby_turns_through_the_running_events(client, tournament, td):
    other = make_tournament(td, name="Side Event")
    for event in (tournament, other):
        clock_services.clock_start(tournament=event, actor=td, now=NOW)
    first = client.get(reverse("lobby_screen")).content.decode()
    second = client.get(reverse("lobby_screen") + "?i=1").content.decode()
    assert 'url=/lobby/?i=1"' in first and 'url=/lobby/?i=0"' in second
    titles = {
        page.split('data-testid="lobby-title">')[1].split(" <small>")[0] for page in (first, second)
    }
    assert titles == {"Sunday Deepstack", "Side Event"}


def test_the_front_page_reads_a_fixed_number_of_queries(client, td, django_assert_max_num_queries):
    for i in range(3):
        make_tournament(td, name=f"Event {i}", tables=0)
    with django_assert_max_num_queries(12):
        assert client.get(reverse("front_page")).status_code == 200
    for i in range(6):
        make_tournament(td, name=f"More {i}", tables=0)
    with django_assert_max_num_queries(12):
        assert client.get(reverse("front_page")).status_code == 200


def test_a_table_one_event_freed_opens_in_another(client, tournament, td):
    other = make_tournament(td, name="Side Event", tables=2)
    for event in (tournament, other):
        clock_services.clock_start(tournament=event, actor=td, now=NOW)
    Table.objects.filter(tournament=tournament, number=4).update(status=Table.Status.CLOSED)
    Table.objects.filter(tournament=tournament, number=1).update(status=Table.Status.OPEN)
    Table.objects.filter(tournament=other).update(status=Table.Status.CLOSED)
    cards = lobby.running_events(NOW + MIN)
    assert [t.number for t in lobby.free_tables(cards)] == [4]

    client.force_login(td)
    page = client.get(reverse("room_dashboard")).content.decode()
    assert 'data-testid="free-tables"' in page
    client.post(
        reverse("table_share"), {"source": tournament.slug, "target": other.slug, "number": 4}
    )
    assert Table.objects.get(tournament=other, number=4).status == Table.Status.RESERVE
    assert 4 not in [t.number for t in lobby.free_tables(cards)]  # it waits in the other
    assert Event.objects.filter(tournament=tournament, action="table.share").exists()
    assert Event.objects.filter(tournament=other, action="table.share").exists()
    # A table in play is never lent; nor one the other event already has.
    with pytest.raises(DomainError):
        sharing.table_share(source=tournament, target=other, number=1, actor=td, now=NOW)
    with pytest.raises(DomainError):
        sharing.table_share(source=tournament, target=other, number=4, actor=td, now=NOW)
