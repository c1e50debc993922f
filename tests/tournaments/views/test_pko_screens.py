"""A satellite shows seats everywhere, and the lobby TV lists what is coming."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from tests.conftest import NOW, make_player, make_tournament
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db


def _satellite(td, n=12):
    target = make_tournament(td, name="Main Event", buy_in_prize=1000, buy_in_fee=100)
    satellite = make_tournament(
        td, name="Sat", prize_type="seats", target_event=target, buy_in_prize=100, buy_in_fee=10
    )
    entries = [
        entry_services.entry_register(
            tournament=satellite, player=make_player(), actor=td, now=NOW
        ).entry
        for _ in range(n)
    ]
    return satellite, entries


def test_a_satellites_money_page_shows_seats_not_a_cash_payout_table(client, td):
    satellite, _ = _satellite(td)
    client.force_login(td)
    page = client.get(reverse("money", args=[satellite.slug])).content.decode()
    assert "1 seat" in page
    assert 'id="payouts"' not in page and "Save the payout table" not in page


def test_a_satellites_public_results_show_its_seats_not_a_cash_prize_pool(client, td):
    satellite, _ = _satellite(td)
    page = client.get(reverse("public_results", args=[satellite.slug])).content.decode()
    assert "1 seat in Main Event" in page and "Prize pool" not in page


def test_the_front_page_and_lobby_say_which_event_a_satellite_awards_seats_to(client, td):
    _satellite(td)
    page = client.get(reverse("front_page")).content.decode()
    assert "Satellite: seats in Main Event" in page
    lobby = client.get(reverse("lobby_screen")).content.decode()
    assert "Satellite: seats in Main Event" in lobby


def test_the_lobby_tv_lists_upcoming_events_when_none_is_running(client, td):
    make_tournament(td, name="Friday Turbo", date=NOW.date() + timedelta(days=1))
    page = client.get(reverse("lobby_screen")).content.decode()
    assert 'data-testid="lobby-upcoming"' in page and "Friday Turbo" in page
