"""The one integer parser every form and control reads numbers through."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments.forms.fields import whole_number
from tournaments.models import DisplayScreen


@pytest.mark.parametrize(
    ("typed", "low", "high", "read"),
    [
        ("12", 0, 100, 12),
        (" 7 ", 1, 10, 7),
        ("0", 1, 10, None),
        ("11", 1, 10, None),
        ("-5", -10, 10, -5),
        ("-5", 0, 10, None),
        ("²", 0, 10, None),  # str.isdigit() says yes, int() says no: a 500 once
        ("٣", 0, 10, None),  # int() reads Arabic-Indic digits: not what staff typed
        ("1_000", 0, 10_000, None),  # int() reads underscores
        ("+3", 0, 10, None),
        ("3.0", 0, 10, None),
        ("", 0, 10, None),
        (None, 0, 10, None),
        ("9" * 13, 0, 10**14, None),
    ],
)
def test_whole_numbers_are_ascii_digits_in_range(typed, low, high, read):
    assert whole_number(typed, low=low, high=high) == read


@pytest.mark.django_db
def test_a_superscript_table_number_on_the_screens_form_is_a_refusal_not_a_500(
    client, tournament, td
):
    client.force_login(td)
    response = client.post(
        reverse("screens", args=[tournament.slug]),
        {"name": "T2", "kind": "table", "table_number": "²"},
        follow=True,
    )
    assert response.status_code == 200
    assert not DisplayScreen.objects.filter(name="T2").exists()


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("Ana\u0301", "Aná"),  # NFC
        ("Ma\u200brio", "Mario"),  # zero-width space
        ("\u202eoiraM", "oiraM"),  # right-to-left override
        ("  Van   der  Berg ", "Van der Berg"),
    ],
)
def test_names_are_normalised(typed, read):
    from tournaments.forms.desk import PlayerForm

    form = PlayerForm({"first_name": typed, "last_name": "Rossi"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["first_name"] == read


@pytest.mark.parametrize("typed", ["123", "\u200b\u200b", "--", "\u202e"])
def test_a_name_without_a_letter_is_refused(typed):
    from tournaments.forms.desk import PlayerForm

    form = PlayerForm({"first_name": typed, "last_name": "Rossi"})
    assert not form.is_valid()
    assert "first_name" in form.errors


@pytest.mark.parametrize("typed", ["٣", "²", "1_000", "3.0", "+3"])
def test_every_form_number_goes_through_the_one_parser(typed):
    """Django's IntegerField takes "٣" (int() does); the forms' fields do not."""
    from tournaments.forms.chips import LeftoversForm
    from tournaments.forms.floor import PenaltyForm

    form = PenaltyForm({"kind": "warning", "entry": "3", "hands": typed})
    assert not form.is_valid() and "hands" in form.errors
    assert not LeftoversForm({"entry": typed, "removed": "25"}).is_valid()


@pytest.mark.django_db
def test_a_penalty_with_arabic_digits_is_refused_with_the_field_named(client, tournament, floor):
    from tests.conftest import NOW, make_player
    from tournaments.models import Entry, Penalty

    entry = Entry.objects.create(
        tournament=tournament, player=make_player(), number=1, chips=20000, created_at=NOW
    )
    client.force_login(floor)
    response = client.post(
        reverse("penalty_give", args=[tournament.slug]),
        {"kind": "rounds", "entry": str(entry.number), "rounds": "١"},
        follow=True,
    )
    assert response.status_code == 200
    assert "Rounds" in response.content.decode()
    assert not Penalty.objects.exists()
