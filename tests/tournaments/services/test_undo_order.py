"""Undo never leaves ghosts.

An undo puts back the state its action found. When a later action has since changed the
same players or seats, that state is gone: the undo refuses and names the later action to
undo first, and nothing changes. Undone in the right order, everything comes back.
"""

from __future__ import annotations

import pytest

from tests.conftest import NOW, make_player
from tournaments import errors
from tournaments.events import event_undo
from tournaments.models import Entry, Event, Seat, Table
from tournaments.services import entries as entry_services
from tournaments.services import moves as room
from tournaments.services import seats as seat_services
from tournaments.services import setup

pytestmark = pytest.mark.django_db


def _where(entry) -> tuple[int, int] | None:
    seat = Seat.objects.select_related("table").filter(entry=entry).first()
    return (seat.table.number, seat.number) if seat else None


def _undo(tournament, td, action: str):
    event = Event.objects.filter(tournament=tournament, action=action, undone_at=None).latest("pk")
    return event_undo(event_id=event.pk, tournament=tournament, actor=td, now=NOW)


def _register(tournament, td, last="Riva"):
    return entry_services.entry_register(
        tournament=tournament, player=make_player("Ada", last), actor=td, now=NOW
    ).entry


def _move_elsewhere(tournament, td, entry, seat=4) -> tuple[int, int]:
    table = 2 if _where(entry)[0] == 1 else 1
    seat_services.seat_move(
        tournament=tournament, entry=entry, table_number=table, seat=seat, actor=td, now=NOW
    )
    return table, seat


def _no_seat_held_by_a_player_out():
    ghosts = Seat.objects.exclude(entry__status=Entry.Status.ACTIVE).filter(entry__isnull=False)
    assert not ghosts.exists(), list(ghosts.values_list("entry__status", "number"))


def test_a_move_is_not_undone_after_the_player_was_eliminated(tournament, td):
    entry = _register(tournament, td)
    _move_elsewhere(tournament, td, entry)
    entry_services.entry_eliminate(tournament=tournament, entry=entry, actor=td, now=NOW)
    with pytest.raises(errors.CannotUndo) as refused:
        _undo(tournament, td, "seat.move")
    assert "undo “Eliminated”" in str(refused.value)
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ELIMINATED and _where(entry) is None
    _no_seat_held_by_a_player_out()
    # In the right order: the elimination, then the move.
    _undo(tournament, td, "entry.eliminate")
    _undo(tournament, td, "seat.move")
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ACTIVE and _where(entry) is not None


def test_a_registration_is_not_undone_while_its_move_stands(tournament, td):
    entry = _register(tournament, td)
    _move_elsewhere(tournament, td, entry)
    with pytest.raises(errors.CannotUndo) as refused:
        _undo(tournament, td, "entry.register")
    assert "undo “Seat changed”" in str(refused.value)
    _undo(tournament, td, "seat.move")
    _undo(tournament, td, "entry.register")
    entry.refresh_from_db()
    assert entry.status == Entry.Status.VOIDED and _where(entry) is None
    _no_seat_held_by_a_player_out()


def test_a_move_is_not_undone_into_a_seat_someone_took_since(tournament, td):
    first = _register(tournament, td, "Prima")
    origin = _where(first)
    _move_elsewhere(tournament, td, first)
    second = _register(tournament, td, "Seconda")
    seat_services.seat_move(
        tournament=tournament,
        entry=second,
        table_number=origin[0],
        seat=origin[1],
        actor=td,
        now=NOW,
    )
    first_move = Event.objects.filter(action="seat.move").earliest("pk")
    with pytest.raises(errors.CannotUndo, match="undo “Seat changed”"):
        event_undo(event_id=first_move.pk, tournament=tournament, actor=td, now=NOW)
    assert _where(second) == origin


def test_independent_actions_still_undo_in_any_order(tournament, td):
    first, second = _register(tournament, td, "Prima"), _register(tournament, td, "Seconda")
    registration = Event.objects.filter(action="entry.register").earliest("pk")
    event_undo(event_id=registration.pk, tournament=tournament, actor=td, now=NOW)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == Entry.Status.VOIDED and second.status == Entry.Status.ACTIVE


def _lock(tournament, td, table, seat, locked=True):
    room.seat_lock(
        tournament=tournament, table_number=table, seat=seat, locked=locked, actor=td, now=NOW
    )


def _locked(tournament, number) -> list[int]:
    return Table.objects.get(tournament=tournament, number=number).locked_seats


def test_undoing_a_seat_lock_leaves_the_other_locks_set_since(tournament, td):
    _lock(tournament, td, 3, 5)
    _lock(tournament, td, 3, 6)
    first = Event.objects.filter(action="seat.lock").earliest("pk")
    event_undo(event_id=first.pk, tournament=tournament, actor=td, now=NOW)
    assert _locked(tournament, 3) == [6]


def test_an_unlock_is_not_undone_under_a_player_seated_there_since(tournament, td):
    entry = _register(tournament, td)
    _lock(tournament, td, 3, 5)
    _lock(tournament, td, 3, 5, locked=False)
    seat_services.seat_move(
        tournament=tournament, entry=entry, table_number=3, seat=5, actor=td, now=NOW
    )
    with pytest.raises(errors.CannotUndo, match="undo “Seat changed”"):
        _undo(tournament, td, "seat.lock")
    assert _locked(tournament, 3) == [] and _where(entry) == (3, 5)


def test_a_setting_changed_again_since_is_not_put_back_under_it(tournament, td):
    setup.tournament_update(tournament=tournament, actor=td, fields={"name": "One"}, now=NOW)
    setup.tournament_update(tournament=tournament, actor=td, fields={"name": "Two"}, now=NOW)
    first = Event.objects.filter(action="tournament.update").earliest("pk")
    with pytest.raises(errors.CannotUndo, match="undo “Settings changed”"):
        event_undo(event_id=first.pk, tournament=tournament, actor=td, now=NOW)
    tournament.refresh_from_db()
    assert tournament.name == "Two"
