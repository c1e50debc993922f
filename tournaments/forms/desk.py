"""The desk's forms: a new player, and a purchase (rebuy, add-on) at the desk."""

from __future__ import annotations

import unicodedata

from django import forms
from django.utils.translation import gettext_lazy

from tournaments.forms.fields import WholeNumberField


def person_name(value: str) -> str:
    """A name as people read it: NFC, no invisible or bidi-control characters, spaces
    collapsed, and at least one letter."""
    text = unicodedata.normalize("NFC", value)
    text = "".join(ch for ch in text if unicodedata.category(ch) not in {"Cf", "Cc", "Co", "Cs"})
    text = " ".join(text.split())
    if not any(ch.isalpha() for ch in text):
        raise forms.ValidationError(gettext_lazy("A name needs at least one letter."))
    return text


class PlayerForm(forms.Form):
    first_name = forms.CharField(label=gettext_lazy("First name"), max_length=60)
    last_name = forms.CharField(label=gettext_lazy("Last name"), max_length=60)

    def clean_first_name(self) -> str:
        return person_name(self.cleaned_data["first_name"])

    def clean_last_name(self) -> str:
        return person_name(self.cleaned_data["last_name"])

    document_number = forms.CharField(
        label=gettext_lazy("Document number"), max_length=40, required=False
    )
    nationality = forms.CharField(label=gettext_lazy("Nationality"), max_length=60, required=False)
    needs_accessible_seat = forms.BooleanField(
        label=gettext_lazy("Needs an accessible seat"), required=False
    )


class PurchaseForm(forms.Form):
    stack = WholeNumberField(label=gettext_lazy("Current stack"), min_value=0, required=False)
    declared_before_hand = forms.BooleanField(
        label=gettext_lazy("Declared before the hand"), required=False
    )
    # A fresh one-time key each time the desk opens the form: sent twice, it sells once.
    key = forms.CharField(widget=forms.HiddenInput, max_length=64, required=False)
