"""The table tablet shows who sits out a penalty and counts it down as hands are dealt."""

from __future__ import annotations

import pytest

from tests.conftest import NOW, make_player
from tournaments import services
from tournaments.models import DisplayScreen
from tournaments.services import penalties as penalty_services

pytestmark = pytest.mark.django_db


def test_tablet_counts_a_missed_hands_penalty_down(client, tournament, td):
    offender = services.entry_register(
        tournament=tournament, player=make_player("Carlo", "Blu"), actor=td, now=NOW
    )
    services.entry_register(tournament=tournament, player=make_player(), actor=td, now=NOW)
    penalty = penalty_services.penalty_give(
        tournament=tournament, entry=offender.entry, kind="missed_hands", hands=3, actor=td, now=NOW
    )
    screen = DisplayScreen.objects.create(
        tournament=tournament, name="T", kind="table", table_number=offender.table
    )
    page = client.get(f"/s/{screen.token}/").content.decode()
    assert "Penalty: 3 hands left" in page and "Blu Carlo" in page

    response = client.post(f"/s/{screen.token}/hand/", {"hand": "dealt"})
    assert response.status_code == 302
    penalty.refresh_from_db()
    assert penalty.remaining == 2
    assert "Penalty: 2 hands left" in client.get(f"/s/{screen.token}/").content.decode()

    # Another table's tablet counts nothing for him.
    other = 2 if offender.table == 1 else 1
    elsewhere = DisplayScreen.objects.create(
        tournament=tournament, name="U", kind="table", table_number=other
    )
    client.post(f"/s/{elsewhere.token}/hand/", {"hand": "dealt"})
    penalty.refresh_from_db()
    assert penalty.remaining == 2


def test_a_revoked_tablet_counts_nothing(client, tournament, td):
    offender = services.entry_register(
        tournament=tournament, player=make_player(), actor=td, now=NOW
    )
    penalty = penalty_services.penalty_give(
        tournament=tournament, entry=offender.entry, kind="missed_hands", hands=2, actor=td, now=NOW
    )
    screen = DisplayScreen.objects.create(
        tournament=tournament, name="T", kind="table", table_number=offender.table, revoked=True
    )
    assert client.post(f"/s/{screen.token}/hand/", {"hand": "dealt"}).status_code == 404
    penalty.refresh_from_db()
    assert penalty.remaining == 2
