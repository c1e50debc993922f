"""The table tablet shows who sits out a penalty and counts it down as hands are dealt."""

from __future__ import annotations

import pytest

from tests.conftest import NOW, make_player
from tournaments.models import DisplayScreen
from tournaments.services import entries as entry_services
from tournaments.services import penalties as penalty_services

pytestmark = pytest.mark.django_db


def test_tablet_counts_a_missed_hands_penalty_down(client, tournament, td):
    offender = entry_services.entry_register(
        tournament=tournament, player=make_player("Carlo", "Blu"), actor=td, now=NOW
    )
    entry_services.entry_register(tournament=tournament, player=make_player(), actor=td, now=NOW)
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
    offender = entry_services.entry_register(
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


def test_the_tablet_shows_its_tables_chip_race_results(client, tournament, td):
    import datetime as dt

    import time_machine

    from tournaments.services import chips as chip_services

    regs = [
        entry_services.entry_register(
            tournament=tournament, player=make_player(), actor=td, now=NOW
        )
        for _ in range(3)
    ]
    chip_services.chipset_set(
        tournament=tournament,
        actor=td,
        denominations=[
            chip_services.DenominationSpec(25, "green", 40),
            chip_services.DenominationSpec(100, "black", 90),
            chip_services.DenominationSpec(1000, "yellow", 20),
        ],
        now=NOW,
    )
    table = regs[0].table
    a, b = sorted(r.seat for r in regs if r.table == table)[:2]
    chip_services.chip_race_record(
        tournament=tournament,
        table_number=table,
        removed=25,
        held={a: 2, b: 2},
        cards={a: ["2c", "3d"], b: ["Ks", "4h"]},
        nothing_else=frozenset(),
        actor=td,
        now=NOW,
    )
    mine = DisplayScreen.objects.create(
        tournament=tournament, name="T", kind="table", table_number=table
    )
    other = DisplayScreen.objects.create(
        tournament=tournament, name="U", kind="table", table_number=table + 1
    )
    with time_machine.travel(NOW + dt.timedelta(minutes=5), tick=False):
        page = client.get(f"/s/{mine.token}/").content.decode()
        assert "Chip race: 25 chips coloured up into 100" in page
        assert "Ks 4h" in page and "Wins a 100 chip" in page
        assert "Chip race" not in client.get(f"/s/{other.token}/").content.decode()
    with time_machine.travel(NOW + dt.timedelta(hours=1), tick=False):
        assert "Chip race" not in client.get(f"/s/{mine.token}/").content.decode()
