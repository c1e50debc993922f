"""The floor's forms: eliminations, penalties and hands dealt, which table or page of a
long list is shown, and the room page's tables, seats and moves."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.forms.fields import (
    MAX_NUMBER,
    MAX_TABLE_NUMBER,
    KeyedCountsForm,
    WholeNumberField,
    _count_field,
)


class EliminationsForm(KeyedCountsForm):
    """Who is out: ticked entry numbers and/or "table/seat" spots, each with his stack at
    the start of the hand."""

    prefix_of_counts = "stack"
    label_of_counts = gettext_lazy("Stack of entry %(n)s")

    out = forms.MultipleChoiceField(choices=(), required=False)
    seats = forms.CharField(label=gettext_lazy("Seats"), max_length=2000, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        out = self.fields["out"]
        assert isinstance(out, forms.MultipleChoiceField)
        out.choices = [(str(n), str(n)) for n in self.keys]
        out.error_messages["invalid_choice"] = _("Choose players who are still in.")

    def clean_seats(self) -> list[tuple[int, int]]:
        spots = []
        for spot in re.split(r"[\s,;]+", self.cleaned_data["seats"].strip()):
            if not spot:
                continue
            match = re.fullmatch(r"([0-9]{1,6})[/.-]([0-9]{1,2})", spot)
            if match is None:
                raise forms.ValidationError(
                    _("Write a seat as table/seat, like 4/7 (%(spot)s).") % {"spot": spot}
                )
            spots.append((int(match[1]), int(match[2])))
        return spots

    def out_numbers(self) -> list[int]:
        return [int(n) for n in self.cleaned_data.get("out") or []]


class PenaltyForm(forms.Form):
    kind = forms.CharField(label=gettext_lazy("Penalty"), max_length=30)
    entry = WholeNumberField(label=gettext_lazy("Player"), min_value=1, max_value=MAX_NUMBER)
    rounds = WholeNumberField(
        label=gettext_lazy("Rounds"), min_value=0, max_value=100, required=False
    )
    hands = WholeNumberField(
        label=gettext_lazy("Hands"), min_value=0, max_value=1000, required=False
    )
    offence = forms.CharField(label=gettext_lazy("Offence"), max_length=120, required=False)
    stack = _count_field(gettext_lazy("Stack"))


class TablesPageForm(forms.Form):
    """Which page of the room's tables list (100 tables a page), and whether to list every
    move waiting for its player."""

    page = WholeNumberField(min_value=1, max_value=1000, required=False)
    # Every move waiting for the player to sit, not only the first 50.
    all_waiting = forms.BooleanField(required=False)


class TableChoiceForm(forms.Form):
    """Which table's players a floor page lists (a big field is shown table by table)."""

    view_table = WholeNumberField(min_value=1, max_value=MAX_TABLE_NUMBER, required=False)


class HandDealtForm(forms.Form):
    table = WholeNumberField(label=gettext_lazy("Table"), min_value=1, max_value=MAX_TABLE_NUMBER)
    event = forms.CharField(max_length=20, required=False)


# --- The room: tables, seats, moves (tournaments/views/room.py) -------------------------

MAX_SEAT = 22  # tournament.md §3: a table has at most 22 seats


class ButtonForm(forms.Form):
    button = WholeNumberField(label=gettext_lazy("Button"), min_value=1, max_value=MAX_SEAT)


class TableStatusForm(forms.Form):
    status = forms.ChoiceField(choices=[("open", "open"), ("closed", "closed")])


class TableRenumberForm(forms.Form):
    number = WholeNumberField(
        label=gettext_lazy("Table number"), min_value=1, max_value=MAX_TABLE_NUMBER
    )


class SeatLockForm(forms.Form):
    locked = forms.CharField(max_length=1, required=False)

    def is_locked(self) -> bool:
        return self.cleaned_data.get("locked") != "0"


class PlayerMoveForm(forms.Form):
    entry = WholeNumberField(label=gettext_lazy("Entry"), min_value=1, max_value=10**9)
    table = WholeNumberField(label=gettext_lazy("Table"), min_value=1, max_value=MAX_TABLE_NUMBER)
    seat = WholeNumberField(label=gettext_lazy("Seat"), min_value=1, max_value=MAX_SEAT)
    back_table = WholeNumberField(min_value=1, max_value=MAX_TABLE_NUMBER, required=False)


class MoveConfirmForm(forms.Form):
    carried_by = forms.CharField(max_length=120, required=False)
