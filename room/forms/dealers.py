"""The dealers' forms: what the floor, the manager and a dealer type, read and checked
before any service runs (a refusal is a message in the user's language)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from room.models import GAME_CHOICES, DealerRoom, PitTable
from tournaments.forms import books as books_forms
from tournaments.forms.fields import DecimalNumberField, NightField, WholeNumberField


class ProfileForm(forms.Form):
    dealer = WholeNumberField(widget=forms.HiddenInput)
    games = forms.MultipleChoiceField(
        label=_("Games he deals"),
        choices=GAME_CHOICES,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Tick at least one game he deals.")},
    )
    shift_start = forms.TimeField(
        label=_("Shift starts"), error_messages={"invalid": _("Write the times as 20:00.")}
    )
    shift_end = forms.TimeField(
        label=_("Shift ends"), error_messages={"invalid": _("Write the times as 20:00.")}
    )


class SettingsForm(forms.Form):
    down_minutes = WholeNumberField(label=_("Minutes of a down"), min_value=10, max_value=120)
    break_minutes = WholeNumberField(label=_("Minutes of a break"), min_value=5, max_value=60)
    max_minutes_without_break = WholeNumberField(
        label=_("Most minutes on the box without a break"), min_value=30, max_value=480
    )
    tips_split = forms.ChoiceField(label=_("Tips split"), choices=DealerRoom.TipsSplit.choices)


class OverrideForm(forms.Form):
    dealer = WholeNumberField(
        min_value=1,
        max_value=2**31 - 1,
        error_messages={
            key: _("Choose a dealer.") for key in ("required", "invalid", "min_value", "max_value")
        },
    )
    table = forms.CharField(required=False, max_length=40)


class KeepForm(forms.Form):
    table = forms.CharField(max_length=40)
    keep = forms.BooleanField(required=False)


class ClockForm(books_forms.PinForm):
    """Username and PIN, and whether he comes or goes."""

    direction = forms.ChoiceField(choices=[("in", _("Clock in")), ("out", _("Clock out"))])


class NightForm(forms.Form):
    night = NightField(required=False)
    format = forms.ChoiceField(
        required=False, choices=[("", ""), ("csv", "CSV"), ("xlsx", "XLSX"), ("pdf", "PDF")]
    )


class TipsForm(forms.Form):
    night = NightField(error_messages={"required": _("Choose the night.")})
    amount = DecimalNumberField(
        label=_("Tips pool (€)"),
        min_value=0,
        max_value=1_000_000,
        decimal_places=2,
        # Typed as the user's language writes it: 100,01 in Italian, 100.01 in English.
        localize=True,
        widget=forms.TextInput(attrs={"id": "id_tips_amount", "inputmode": "decimal"}),
        error_messages={
            "required": _("Write the tips as an amount from 0 to 1,000,000."),
            "invalid": _("Write the tips as an amount from 0 to 1,000,000."),
            "min_value": _("Write the tips as an amount from 0 to 1,000,000."),
            "max_value": _("Write the tips as an amount from 0 to 1,000,000."),
            "max_decimal_places": _("Write the tips with at most two decimals."),
            "max_digits": _("Write the tips as an amount from 0 to 1,000,000."),
        },
    )


class PitTableForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=40)
    game = forms.ChoiceField(label=_("Game"), choices=PitTable.Game.choices)


class PitStatusForm(forms.Form):
    status = forms.ChoiceField(choices=PitTable.Status.choices)
