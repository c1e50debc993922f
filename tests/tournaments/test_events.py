"""An undo reaches only its own tournament: a log row whose payload
names another tournament's rows, ids of the wrong type or fields its service never logs
(as a crafted backup can) is refused, and nothing anywhere changes."""

from __future__ import annotations

import pytest

from tests.conftest import NOW, make_player, make_tournament
from tournaments import events
from tournaments.errors import CannotUndo
from tournaments.models import Entry, Event, Tournament
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def victim(td):
    tournament = make_tournament(td, name="Victim Cup")
    entry = entry_services.entry_register(
        tournament=tournament, player=make_player("Vera"), actor=td, now=NOW
    ).entry
    return tournament, entry


def _crafted(tournament, action, data):
    return Event.objects.create(tournament=tournament, at=NOW, action=action, data=data)


def _state(victim):
    tournament, entry = victim
    tournament.refresh_from_db()
    entry.refresh_from_db()
    return (
        tournament.parent_id,
        tournament.status,
        entry.status,
        entry.place,
        entry.prize,
        hasattr(entry, "seat") and entry.seat.pk,
    )


def _payloads(victim, attacker):
    tournament, entry = victim
    return [
        ("entry.register", {"entry": entry.pk}),
        ("entry.register", {"entry": str(entry.pk)}),
        ("entry.register", {"entry": float(entry.pk)}),
        ("entry.eliminate", {"entry": entry.pk}),
        (
            "entry.eliminate",
            {"entries": [entry.pk], "winner": {"entry": entry.pk, "place": 1, "prize": 999}},
        ),
        ("seat.move", {"entry": entry.pk, "from": None}),
        ("seat.arrive", {"entry": entry.pk}),
        ("tournament.update", {"before": {"parent": tournament.pk}}),
        ("tournament.update", {"before": {"slug": tournament.slug}}),
        ("flights.merge", {"flights": [tournament.slug]}),
        ("clock.pause", {"before": {"name": "hijacked"}}),
        ("table.update", {"table": 1, "before": {"tournament_id": tournament.pk}}),
        (
            "room.balance",
            {"moves": [{"entry": entry.pk, "name": "V", "from": [1, 1], "to": [1, 2]}]},
        ),
    ]


def test_a_crafted_payload_never_reaches_another_tournament(td, victim):
    attacker = make_tournament(td, name="Attacker Open")
    for action, data in _payloads(victim, attacker):
        before = _state(victim)
        event = _crafted(attacker, action, data)
        with pytest.raises(CannotUndo):
            events.event_undo(event_id=event.pk, tournament=attacker, actor=td, now=NOW)
        assert _state(victim) == before, (action, data)
        event.refresh_from_db()
        assert event.undone_at is None, (action, data)
    assert Tournament.objects.get(pk=attacker.pk).parent_id is None


def test_an_ordinary_undo_still_works(td, victim):
    tournament, entry = victim
    event = Event.objects.filter(tournament=tournament, action="entry.register").first()
    events.event_undo(event_id=event.pk, tournament=tournament, actor=td, now=NOW)
    entry.refresh_from_db()
    assert (
        entry.status == Entry.Status.VOIDED
        or not Entry.objects.filter(pk=entry.pk, status=Entry.Status.ACTIVE).exists()
    )
