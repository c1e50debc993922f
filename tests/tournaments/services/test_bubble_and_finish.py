"""The clock after the bubble and at the end: hand-for-hand started on the bubble ends by
itself once the bubble bursts (the clock runs again, and the screens get a banner), and
the clock says finished once the winner is decided."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.conftest import NOW, make_player, make_tournament
from tests.tournaments.services.test_clock import Listener
from tournaments import events, selectors
from tournaments.models import Event, Seat, Table, Tournament
from tournaments.services import clock as svc
from tournaments.services import entries as entry_services
from tournaments.services import handforhand as handforhand_services
from tournaments.services import results
from tournaments.services import seats as seat_services

pytestmark = pytest.mark.django_db(transaction=True)

MIN = dt.timedelta(minutes=1)


def _field(td, players, *, paid):
    """`players` seated at two open tables, `paid` places paid, the clock running."""
    tournament = make_tournament(td, tables=2)
    entries = [
        entry_services.entry_register(
            tournament=tournament, player=make_player("Gino", f"Bolla{i}"), actor=td, now=NOW
        ).entry
        for i in range(players)
    ]
    Table.objects.filter(tournament=tournament).update(status="open")
    svc.clock_start(tournament=tournament, actor=td, now=NOW)
    for seat, entry in enumerate(entries[players // 2 :], start=1):
        seat_services.seat_move(
            tournament=tournament, entry=entry, table_number=2, seat=seat, actor=td, now=NOW
        )
    Tournament.objects.filter(pk=tournament.pk).update(
        late_registration_level=None, payouts=[1000 * (paid - i) for i in range(paid)]
    )
    tournament.refresh_from_db()
    return tournament, entries


def _at_table(tournament, entries, number):
    seated = set(
        Seat.objects.filter(table__tournament=tournament, table__number=number).values_list(
            "entry_id", flat=True
        )
    )
    return [e for e in entries if e.pk in seated]


def _bust(tournament, entry, td, now):
    results.eliminations_record(
        tournament=tournament, busts=[results.Bust(entry=entry)], actor=td, now=now
    )
    tournament.refresh_from_db()


def _status(tournament, now):
    tournament.refresh_from_db()
    return selectors.clock_view_for(tournament, now).status


def test_hand_for_hand_ends_by_itself_when_the_bubble_bursts_with_a_banner(td):
    tournament, entries = _field(td, 6, paid=5)  # one off the money
    handforhand_services.h4h_start(tournament=tournament, actor=td, now=NOW + 5 * MIN)
    assert _status(tournament, NOW + 6 * MIN) == "paused"
    handforhand_services.h4h_table_done(
        tournament=tournament, actor=td, table_number=2, now=NOW + 7 * MIN
    )
    listener = Listener(tournament)

    _bust(tournament, _at_table(tournament, entries, 1)[0], td, NOW + 8 * MIN)

    assert not tournament.h4h_active
    assert _status(tournament, NOW + 9 * MIN) == "running"
    clocks = [m for m in listener.messages() if m["type"] == "clock"]
    assert clocks[-1]["status"] == "running" and clocks[-1]["hand_for_hand"] is None
    assert clocks[-1]["notice"] == "bubble_burst"
    # The end is logged, and undone from the log like the TD's own stop.
    stop = Event.objects.filter(tournament=tournament, action="h4h.stop").get()
    events.event_undo(event_id=stop.pk, tournament=tournament, actor=td, now=NOW + 10 * MIN)
    tournament.refresh_from_db()
    assert tournament.h4h_active


def test_a_table_still_playing_the_bubble_hand_ends_hand_for_hand_when_it_is_done(td):
    tournament, entries = _field(td, 6, paid=5)
    handforhand_services.h4h_start(tournament=tournament, actor=td, now=NOW + 5 * MIN)
    _bust(tournament, _at_table(tournament, entries, 1)[0], td, NOW + 6 * MIN)
    # Table 2 still plays the hand: a player out there shares the bubble, so it goes on.
    assert tournament.h4h_active
    handforhand_services.h4h_table_done(
        tournament=tournament, actor=td, table_number=1, now=NOW + 7 * MIN
    )
    handforhand_services.h4h_table_done(
        tournament=tournament, actor=td, table_number=2, now=NOW + 8 * MIN
    )
    tournament.refresh_from_db()
    assert not tournament.h4h_active and tournament.h4h_hands == 0  # no hand dealt
    assert _status(tournament, NOW + 9 * MIN) == "running"


def test_hand_for_hand_started_in_the_money_runs_until_the_td_stops_it(td):
    tournament, entries = _field(td, 6, paid=6)
    handforhand_services.h4h_start(tournament=tournament, actor=td, now=NOW + 5 * MIN)
    handforhand_services.h4h_table_done(
        tournament=tournament, actor=td, table_number=2, now=NOW + 6 * MIN
    )
    _bust(tournament, _at_table(tournament, entries, 1)[0], td, NOW + 7 * MIN)
    assert tournament.h4h_active
    handforhand_services.h4h_table_done(
        tournament=tournament, actor=td, table_number=1, now=NOW + 8 * MIN
    )
    tournament.refresh_from_db()
    assert tournament.h4h_active and tournament.h4h_hands == 1


def test_the_clock_says_finished_when_the_winner_is_decided(td):
    tournament, entries = _field(td, 3, paid=2)
    listener = Listener(tournament)
    _bust(tournament, entries[0], td, NOW + 5 * MIN)
    assert _status(tournament, NOW + 6 * MIN) == "running"
    _bust(tournament, entries[1], td, NOW + 7 * MIN)

    assert tournament.status == "finished"
    assert _status(tournament, NOW + 8 * MIN) == "finished"
    assert selectors.clock_payload(tournament, NOW + 8 * MIN)["status"] == "finished"
    clocks = [m for m in listener.messages() if m["type"] == "clock"]
    assert clocks and clocks[-1]["status"] == "finished"

    # Undoing the last bust brings the clock back where it runs.
    last = (
        Event.objects.filter(tournament=tournament, action="entry.eliminate").order_by("pk").last()
    )
    events.event_undo(event_id=last.pk, tournament=tournament, actor=td, now=NOW + 9 * MIN)
    assert _status(tournament, NOW + 10 * MIN) == "running"
