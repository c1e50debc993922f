"""Tablets stay live after "Hand dealt"; the console shows hand-for-hand tables as they
report."""

from __future__ import annotations

import re

import pytest

from tests.conftest import NOW, make_player
from tournaments.models import DisplayScreen
from tournaments.services import clock as clock_services
from tournaments.services import entries as entry_services
from tournaments.services import handforhand as handforhand_services

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def _refresh_url(html: str) -> str:
    section = re.search(r'<section id="seats"[^>]*>', html).group(0)
    return re.search(r'hx-get="([^"]+)"', section).group(1)


def test_after_hand_dealt_the_tablet_still_refreshes_from_its_own_page(client, tournament, td):
    registration = entry_services.entry_register(
        tournament=tournament, player=make_player("Marta", "Gialli"), actor=td, now=NOW
    )
    entry_services.entry_register(tournament=tournament, player=make_player(), actor=td, now=NOW)
    screen = DisplayScreen.objects.create(
        tournament=tournament, name="T", kind="table", table_number=registration.table
    )
    response = client.post(f"/s/{screen.token}/hand/", {"hand": "dealt"}, headers=HTMX)
    assert response.status_code == 200
    url = _refresh_url(response.content.decode())
    assert url == f"/s/{screen.token}/"
    # A bust pushed to the tablet makes it fetch its seats again: the player is gone.
    entry_services.entry_eliminate(
        tournament=tournament, entry=registration.entry, actor=td, now=NOW
    )
    for _ in range(2):  # and again, and again: never a 405
        again = client.get(url, headers=HTMX)
        assert again.status_code == 200
        assert "Gialli" not in again.content.decode()
        url = _refresh_url(again.content.decode())


def test_the_console_marks_each_table_hand_done_from_the_push(client, tournament, td):
    for _ in range(4):
        entry_services.entry_register(
            tournament=tournament, player=make_player(), actor=td, now=NOW
        )
    clock_services.clock_start(tournament=tournament, actor=td, now=NOW)
    tournament.refresh_from_db()
    handforhand_services.h4h_start(tournament=tournament, actor=td, now=NOW)
    client.force_login(td)
    page = client.get(f"/t/{tournament.slug}/clock/").content.decode()
    buttons = re.findall(r'data-h4h-table="(\d+)"', page)
    assert buttons  # each table's button carries its number for the push to update
    assert 'data-done="done"' in page and 'data-playing="playing"' in page
    with open("static/js/screen.js", encoding="utf-8") as script:
        assert "[data-h4h-table]" in script.read()
