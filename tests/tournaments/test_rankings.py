"""The pure rules of the rankings' exports (tournaments/rules/rankings.py) and the names
as a results file lists them (tournaments/rules/names.py)."""

from __future__ import annotations

import pytest

from tournaments.rules.names import clean_name, name_parts
from tournaments.rules.rankings import GPI_MIN_ENTRANTS, field_size, gpi_qualifies


def test_the_field_counts_reentries_but_not_stacks_carried_from_a_flight():
    sold = [(1, "entry"), (2, "entry"), (1, "reentry"), (3, "entry"), (2, "carried")]
    field = field_size(sold)
    assert (field.entries, field.players, field.reentries) == (4, 3, 1)
    assert field_size([]).entries == 0


def _qualifies(**changes):
    facts = {"entries": 21, "buy_in_cents": 12000, "open_to_public": True, "category": "open"}
    return gpi_qualifies(**{**facts, **changes})


def test_an_open_public_event_of_21_entries_counts_for_the_gpi():
    assert GPI_MIN_ENTRANTS == 21
    assert _qualifies()
    assert not _qualifies(entries=20)
    assert not _qualifies(open_to_public=False)
    assert not _qualifies(buy_in_cents=0)  # a freeroll has no buy-in to weigh


@pytest.mark.parametrize("category", ["ladies", "seniors", "satellite", "charity", "team", "staff"])
def test_an_event_for_a_selected_audience_never_counts(category):
    assert not _qualifies(category=category, entries=500)


def test_a_satellite_awarding_seats_never_counts_whatever_its_category():
    assert not _qualifies(awards_seats=True)


@pytest.mark.parametrize(
    ("typed", "listed"),
    [
        ("ROSSI", "Rossi"),
        ("de luca", "De Luca"),
        ("D'ANGELO", "D'Angelo"),
        ("NÚÑEZ", "Núñez"),
        ("anne-marie", "Anne-Marie"),
        ("McDonald", "McDonald"),  # mixed case: as typed
        ("van der Berg", "van der Berg"),
        ("  Maria   Grazia ", "Maria Grazia"),
        ("#12", "#12"),  # an erased player's placeholder
    ],
)
def test_a_name_is_listed_in_the_usual_case_with_its_accents(typed, listed):
    assert clean_name(typed) == listed


def test_first_and_last_name_are_kept_apart():
    assert name_parts(" zoë ", "MÜLLER") == ("Zoë", "Müller")
