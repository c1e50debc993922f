"""Balancing never stalls on unknown buttons: the plan asks for each one, seat by seat."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tests.tournaments.services.test_moves import seat_players, started, where

pytestmark = pytest.mark.django_db


def test_the_plan_asks_for_each_unknown_button_and_then_applies(client, floor, tournament):
    placed = seat_players(tournament, {1: list(range(1, 10)), 2: [1, 2, 3, 4, 5, 6]})
    started(tournament)
    client.force_login(floor)
    url = reverse("room", args=[tournament.slug])
    with translation.override("it"):
        html = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    # One tap per table, from the seats shown, in the plan itself.
    assert 'data-testid="button-ask-1"' in html and 'data-testid="button-ask-2"' in html
    assert "Tavolo 1: il bottone è al posto" in html
    for number in (1, 2):
        response = client.post(
            reverse("table_button", args=[tournament.slug, number]),
            {"button": "1", "back": "room"},
        )
        assert response.status_code == 302 and response["Location"] == url
    html = client.get(url).content.decode()
    assert 'data-testid="button-ask-' not in html
    client.post(reverse("room_apply", args=[tournament.slug]))
    # The next big blind of table 1 moved to the worst seat of table 2 (TDA-11a).
    assert where(placed[(1, 4)]) == (2, 7)
