"""The money page's forms: the places paid, the prizes typed, the deal calculator, and
which page of a results list is shown."""

from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.forms.fields import (
    MAX_CHIPS,
    MAX_NUMBER,
    KeyedCountsForm,
    WholeNumberField,
    whole_number,
)


class PaidPlacesForm(forms.Form):
    paid_places = WholeNumberField(
        label=gettext_lazy("Paid places"), min_value=1, max_value=MAX_NUMBER, required=False
    )


class PayoutAmountsForm(forms.Form):
    amounts = forms.CharField(label=gettext_lazy("Prizes"), max_length=20000)

    def clean_amounts(self) -> list[int]:
        words = [w for w in re.split(r"[\s,;]+", self.cleaned_data["amounts"].strip()) if w]
        amounts = [whole_number(w, high=MAX_CHIPS) for w in words]
        if not amounts or None in amounts:
            raise forms.ValidationError(_("Write the prizes as whole numbers, first place first."))
        return [a for a in amounts if a is not None]


class DealForm(KeyedCountsForm):
    """The deal calculator: each player's stack, the method, what is left to play for."""

    prefix_of_counts = "stack"
    label_of_counts = gettext_lazy("Stack of entry %(n)s")

    method = forms.CharField(max_length=20, required=False)
    left_to_play_for = WholeNumberField(
        label=gettext_lazy("Left to play for"), min_value=0, max_value=MAX_CHIPS, required=False
    )
    action = forms.CharField(max_length=20, required=False)


class ResultsPageForm(forms.Form):
    """Which page of a results list (100 rows a page), or all of it."""

    page = WholeNumberField(min_value=1, max_value=100_000, required=False)
    all = forms.BooleanField(required=False)
