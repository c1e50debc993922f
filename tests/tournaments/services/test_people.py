"""The room's players and table counts, through the services."""

from __future__ import annotations

import pytest

from room.events import room_event_undo
from room.models import RoomEvent
from room.services import people as people_services
from tests.conftest import NOW, make_player, make_tournament
from tournaments.errors import CannotUndo, DomainError
from tournaments.models import ChipCount, Event
from tournaments.services import chips as chip_services
from tournaments.services import days as day_services
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db


def test_a_merge_undo_gives_back_only_what_the_merge_moved(tournament, td):
    a, b = make_player("Ugo", "Viola"), make_player("viola", "ugo")
    monday = make_tournament(td, name="Monday")
    entry_services.entry_register(tournament=monday, player=a, actor=td, now=NOW)
    event = people_services.players_merge(source=a, target=b, actor=td, now=NOW)
    # The kept player plays on (another event) after the merge: the undo keeps that entry.
    entry_services.entry_register(tournament=tournament, player=b, actor=td, now=NOW)
    undo = room_event_undo(event_id=event.pk, actor=td, now=NOW)
    assert undo.action == "room.undo"
    a.refresh_from_db()
    assert a.merged_into_id is None and a.entries.count() == 1 and b.entries.count() == 1
    with pytest.raises(CannotUndo):
        room_event_undo(event_id=event.pk, actor=td, now=NOW)  # already undone


def test_an_active_player_is_not_erased(tournament, td):
    player = make_player("Eva", "Oro")
    entry_services.entry_register(tournament=tournament, player=player, actor=td, now=NOW)
    with pytest.raises(DomainError):
        people_services.player_erase(player=player, actor=td, now=NOW)
    player.refresh_from_db()
    assert player.erased_at is None and not RoomEvent.objects.exists()


def test_the_erasure_log_holds_no_personal_data(tournament, td):
    player = make_player("Eva", "Oro", document_number="ZZ9")
    people_services.player_erase(player=player, actor=td, now=NOW)
    logged = RoomEvent.objects.get(action="room.player_erase")
    assert logged.data == {"player": player.pk}


def test_a_document_already_registered_is_refused_on_edit(td):
    make_player("Uno", "A", document_number="DOC1")
    other = make_player("Due", "B")
    with pytest.raises(DomainError):
        people_services.player_update(
            player=other, actor=td, fields={"document_number": "doc1"}, now=NOW
        )


def test_table_counts_are_logged_and_do_not_count_as_bags(tournament, td):
    regs = [
        entry_services.entry_register(
            tournament=tournament, player=make_player(), actor=td, now=NOW
        )
        for _ in range(3)
    ]
    table = regs[0].table
    here = {r.entry.number: 25000 for r in regs if r.table == table}
    chip_services.chips_count_table(
        tournament=tournament, table=table, counts=here, actor=td, now=NOW
    )
    assert Event.objects.filter(action="chips.count").exists()
    assert ChipCount.objects.filter(table=table).count() == len(here)
    assert len(day_services.bag_check(tournament).missing) == 3  # nobody bagged yet
    elsewhere = next((r for r in regs if r.table != table), None)
    if elsewhere is not None:
        with pytest.raises(DomainError):
            chip_services.chips_count_table(
                tournament=tournament,
                table=table,
                counts={elsewhere.entry.number: 1},
                actor=td,
                now=NOW,
            )


def test_a_merged_duplicate_is_not_registered(tournament, td):
    kept, twin = make_player("Rita", "Nord"), make_player("nord", "rita")
    people_services.players_merge(source=twin, target=kept, actor=td, now=NOW)
    twin.refresh_from_db()
    with pytest.raises(DomainError, match="merged into another player"):
        entry_services.entry_register(tournament=tournament, player=twin, actor=td, now=NOW)
    assert not twin.entries.exists()


def test_a_multi_day_event_counts_once_with_its_flights_field(td):
    import datetime as dt

    from room.models import League
    from room.selectors import people as room_people
    from tournaments.models import Entry
    from tournaments.services import layout as layout_services

    main = make_tournament(td, name="Main", tables=0)
    flight = day_services.flight_create(
        event=main, actor=td, name="Day 1A", date=NOW.date() + dt.timedelta(days=1), now=NOW
    )
    layout_services.tables_add(
        tournament=flight, actor=td, first=1, last=2, max_seats=9,
        accessible_seats=[], reserved_seats=[], now=NOW,
    )  # fmt: skip
    players = [make_player() for _ in range(4)]
    for p in players:
        entry_services.entry_register(tournament=flight, player=p, actor=td, now=NOW)
    # Two survive into the main event (carried entries), where the places are.
    for number, (p, place) in enumerate(((players[0], 1), (players[1], 2)), start=1):
        Entry.objects.create(
            tournament=main, player=p, number=number, kind=Entry.Kind.CARRIED, chips=1,
            status=Entry.Status.ELIMINATED, place=place, created_at=NOW,
        )  # fmt: skip
    league = League.objects.create(
        name="Series", slug="series", formula="field_size", base=10, created_at=NOW
    )
    league.events.set([main])
    results = {r.player: r for r in room_people.league_results(league) if r.place}
    assert {r.event for r in room_people.league_results(league)} == {main.pk}
    assert results[players[0].pk].entries == 4  # the flight's four entries
    rows = room_people.league_standings(league)
    assert rows[0].player == players[0].pk and rows[0].points == 2000  # 10 x sqrt(4 / 1)
