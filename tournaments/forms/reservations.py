"""What a player types to reserve a seat, and the desk's reservation finder."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.forms.fields import WholeNumberField


class ReservationForm(forms.Form):
    first_name = forms.CharField(label=_("First name"), max_length=60)
    last_name = forms.CharField(label=_("Last name"), max_length=60)
    phone = forms.CharField(label=_("Phone"), max_length=40, required=False)
    email = forms.EmailField(label=_("E-mail"), max_length=120, required=False)
    accepted_terms = forms.BooleanField(
        label=_(
            "I accept the terms: the seat is held until the level shown, then released; my "
            "phone or e-mail is kept only to reach me about my reservations and is erased "
            "on request; repeated no-shows are noted on my record."
        ),
        required=False,
    )

    def clean(self) -> dict:
        data = super().clean()
        if not (data.get("phone") or data.get("email")):
            raise forms.ValidationError(
                _("Write a phone number or an e-mail address to reach you.")
            )
        return data


class ReservationRulesForm(forms.Form):
    no_show_limit = WholeNumberField(
        label=_("No-shows that flag a player"), min_value=1, max_value=50
    )
    no_show_days = WholeNumberField(label=_("Within this many days"), min_value=1, max_value=730)
