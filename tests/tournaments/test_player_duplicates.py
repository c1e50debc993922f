"""Which known players the desk flags before adding a new one (issue 13, item 8): the
same two names in either order, whatever the case, accents, spacing or nickname, of a
player playing here now; no one else."""

from __future__ import annotations

import pytest

from tests.conftest import NOW, make_player
from tournaments import selectors
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db


def _flagged(tournament, first, last) -> set[str]:
    return {
        str(p) for p in selectors.player_duplicates(tournament, first_name=first, last_name=last)
    }


def _playing(tournament, td, first, last, **fields):
    player = make_player(first, last, **fields)
    entry_services.entry_register(tournament=tournament, player=player, actor=td, now=NOW)
    return player


def test_the_same_names_are_flagged_in_either_order_and_any_spelling(tournament, td):
    _playing(tournament, td, "Niccolò", "De  Luca", nickname="Nick the Quick")
    _playing(tournament, td, "Anna", "Bianchi")
    assert _flagged(tournament, "niccolo", "de luca") == {"De  Luca Niccolò"}
    assert _flagged(tournament, "DE LUCA", "Niccolò") == {"De  Luca Niccolò"}
    assert _flagged(tournament, "Anna", "Bianchi") == {"Bianchi Anna"}


def test_longer_or_shorter_names_and_other_events_are_not_flagged(td, tournament):
    from tests.conftest import make_tournament

    _playing(tournament, td, "Niccolò Maria", "Bianchi")
    _playing(tournament, td, "Anna", "Bianchi Rossi")
    assert _flagged(tournament, "Niccolò", "Bianchi") == set()
    assert _flagged(tournament, "Anna", "Bianchi") == set()
    assert _flagged(tournament, "Maria", "Niccolò Bianchi") == set()
    other = make_tournament(td, name="Other night")
    _playing(other, td, "Carla", "Verdi")
    assert _flagged(tournament, "Carla", "Verdi") == set()


def test_a_player_out_is_not_flagged_and_a_rename_is_followed(tournament, td):
    out = _playing(tournament, td, "Ugo", "Neri")
    entry_services.entry_eliminate(
        tournament=tournament, entry=out.entries.get(), actor=td, now=NOW
    )
    assert _flagged(tournament, "Ugo", "Neri") == set()
    playing = _playing(tournament, td, "Eva", "Gialli")
    playing.last_name = "Galli"
    playing.save()
    assert _flagged(tournament, "Eva", "Gialli") == set()
    assert _flagged(tournament, "Eva", "Galli") == {"Galli Eva"}
