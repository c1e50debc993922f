"""The days page's forms: the end of day's bags and a new flight."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.forms.fields import KeyedCountsForm


class BagForm(KeyedCountsForm):
    """End of day: each player's bagged chips (a blank line is not counted)."""

    prefix_of_counts = "chips"
    label_of_counts = gettext_lazy("Chips of entry %(n)s")


class FlightForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    date = forms.DateField(label=gettext_lazy("Date"))

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(_("Give the flight a name and a date."))
        return name
