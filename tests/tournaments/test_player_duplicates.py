"""Which known players the desk flags before adding a new one: the same document number,
or the same two names in either order, whatever the case, accents, spacing or nickname,
of a player the desk may reach (its events' players, playing or out, and the event's
league); no longer or shorter names, and no stranger by name alone."""

from __future__ import annotations

import pytest

from room.models import League
from tests.conftest import NOW, make_player, make_tournament, make_user
from tournaments import selectors
from tournaments.models import Role, StaffAssignment
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db


def _flagged(tournament, user, first, last, document="") -> set[str]:
    return {
        str(p)
        for p in selectors.player_duplicates(
            tournament, user=user, first_name=first, last_name=last, document_number=document
        )
    }


def _playing(tournament, td, first, last, **fields):
    player = make_player(first, last, **fields)
    entry_services.entry_register(tournament=tournament, player=player, actor=td, now=NOW)
    return player


def test_the_same_names_are_flagged_in_either_order_and_any_spelling(tournament, td):
    _playing(tournament, td, "Niccolò", "De  Luca", nickname="Nick the Quick")
    _playing(tournament, td, "Anna", "Bianchi")
    assert _flagged(tournament, td, "niccolo", "de luca") == {"De  Luca Niccolò"}
    assert _flagged(tournament, td, "DE LUCA", "Niccolò") == {"De  Luca Niccolò"}
    assert _flagged(tournament, td, "Anna", "Bianchi") == {"Bianchi Anna"}


def test_longer_or_shorter_names_are_not_flagged(td, tournament):
    _playing(tournament, td, "Niccolò Maria", "Bianchi")
    _playing(tournament, td, "Anna", "Bianchi Rossi")
    assert _flagged(tournament, td, "Niccolò", "Bianchi") == set()
    assert _flagged(tournament, td, "Anna", "Bianchi") == set()
    assert _flagged(tournament, td, "Maria", "Niccolò Bianchi") == set()


def test_a_player_out_here_is_flagged_and_a_rename_is_followed(tournament, td):
    out = _playing(tournament, td, "Ugo", "Neri")
    entry_services.entry_eliminate(
        tournament=tournament, entry=out.entries.get(), actor=td, now=NOW
    )
    assert _flagged(tournament, td, "Neri", "Ugo") == {"Neri Ugo"}
    playing = _playing(tournament, td, "Eva", "Gialli")
    playing.last_name = "Galli"
    playing.save()
    assert _flagged(tournament, td, "Eva", "Gialli") == set()
    assert _flagged(tournament, td, "Eva", "Galli") == {"Galli Eva"}


def test_players_of_the_users_other_events_and_of_the_league_are_flagged(td, tournament):
    clerk = make_user("clerk")
    StaffAssignment.objects.create(tournament=tournament, user=clerk, role=Role.DESK)
    last_week = make_tournament(td, name="Last week")
    StaffAssignment.objects.create(tournament=last_week, user=clerk, role=Role.DESK)
    _playing(last_week, td, "Sara", "Colombo")
    league_night = make_tournament(td, name="League night 1")
    _playing(league_night, td, "Marta", "Russo")
    league = League.objects.create(name="Winter", slug="winter", created_at=NOW)
    league.events.add(league_night, tournament)
    elsewhere = make_tournament(td, name="Someone else's night")
    _playing(elsewhere, td, "Carla", "Verdi", document_number="CA998877")
    assert _flagged(tournament, clerk, "Sara", "Colombo") == {"Colombo Sara"}
    assert _flagged(tournament, clerk, "russo", "marta") == {"Russo Marta"}
    # A stranger to the clerk by name alone stays unknown to him; his document is not.
    assert _flagged(tournament, clerk, "Carla", "Verdi") == set()
    assert _flagged(tournament, clerk, "Carla", "Verdi", "ca998877") == {"Verdi Carla"}
