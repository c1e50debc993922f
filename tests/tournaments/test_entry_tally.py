"""The entries' tally the database keeps (tournaments/migrations/0017) and the figures
the clock screen reads from it: right after every kind of write, undo included, and
after writes that go round the services (a bulk update, a delete)."""

from __future__ import annotations

import pytest
from django.db.models import F

from tests.conftest import NOW, make_player, make_tournament
from tests.tally import tally_mismatches
from tournaments import selectors
from tournaments.events import event_undo
from tournaments.models import Entry, EntryTally, Event, Tournament
from tournaments.services import entries as entry_services
from tournaments.services import results

pytestmark = pytest.mark.django_db


def _screen(tournament: Tournament) -> dict[str, int]:
    figures = selectors.screen_figures(tournament)
    return {key: figures[key] for key in ("entries", "players_left", "chips_in_play")}


def test_the_clock_screen_counts_registrations_busts_and_their_undos(td):
    tournament = make_tournament(td, starting_stack=30_000)
    entries = [
        entry_services.entry_register(
            tournament=tournament, player=make_player("P", f"Tally{i}"), actor=td, now=NOW
        ).entry
        for i in range(5)
    ]
    assert _screen(tournament) == {"entries": 5, "players_left": 5, "chips_in_play": 150_000}

    entry_services.entry_eliminate(tournament=tournament, entry=entries[0], actor=td, now=NOW)
    # A disqualified player's chips leave play (§12.4).
    results.eliminations_record(
        tournament=tournament,
        busts=[results.Bust(entry=entries[1], start_stack=12_000, reason="disqualification")],
        actor=td,
        now=NOW,
    )
    assert _screen(tournament) == {"entries": 5, "players_left": 3, "chips_in_play": 138_000}

    last = Event.objects.filter(tournament=tournament, action="entry.eliminate").latest("pk")
    event_undo(event_id=last.pk, tournament=tournament, actor=td, now=NOW)
    assert _screen(tournament) == {"entries": 5, "players_left": 4, "chips_in_play": 150_000}

    # An entry cancelled (its registration undone) counts nowhere.
    registered = Event.objects.filter(
        tournament=tournament, action="entry.register", data__entry=entries[4].pk
    ).get()
    event_undo(event_id=registered.pk, tournament=tournament, actor=td, now=NOW)
    assert _screen(tournament) == {"entries": 4, "players_left": 3, "chips_in_play": 120_000}
    assert tally_mismatches() == []


def test_writes_round_the_services_keep_the_tally_right(td):
    tournament = make_tournament(td, starting_stack=10_000)
    other = make_tournament(td, name="Other", starting_stack=10_000)
    for t in (tournament, other):
        for i in range(4):
            entry_services.entry_register(
                tournament=t, player=make_player("B", f"Bulk{t.pk}-{i}"), actor=td, now=NOW
            )
    # A bulk update of several rows, a change of a column the tally does not count, a
    # delete, and an entry moved to another tournament.
    Entry.objects.filter(tournament=tournament, number__lte=2).update(
        status=Entry.Status.ELIMINATED, chips_removed=5_000
    )
    Entry.objects.filter(tournament=tournament).update(prize=5)
    Entry.objects.filter(tournament=tournament, number=3).delete()
    Entry.objects.filter(tournament=tournament, number=4).update(tournament=other, number=99)
    assert tally_mismatches() == []
    kept = EntryTally.objects.get(tournament=tournament)
    assert (kept.entries, kept.active, kept.chips, kept.removed) == (2, 0, 20_000, 10_000)
    assert EntryTally.objects.get(tournament=other).active == 5

    # A tournament deleted takes its entries and its tally with it.
    tournament.delete()
    assert not EntryTally.objects.filter(tournament_id=tournament.pk).exists()
    assert tally_mismatches() == []


def test_the_suites_check_notices_a_tally_gone_wrong(td):
    tournament = make_tournament(td, starting_stack=30_000)
    entry_services.entry_register(tournament=tournament, player=make_player(), actor=td, now=NOW)
    assert tally_mismatches() == []
    EntryTally.objects.filter(tournament=tournament).update(active=F("active") + 1)
    assert tally_mismatches() == [
        f"tournament {tournament.pk}: tally (1, 2, 30000, 0, 1), entries (1, 1, 30000, 0, 1)"
    ]
    # Put right, or the suite's own check after this test would fail it.
    EntryTally.objects.filter(tournament=tournament).update(active=F("active") - 1)
