"""The event formats' forms: a bounty award, a forfeit and re-entry, a mystery bounty's
envelopes."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.forms.fields import MAX_NUMBER, WholeNumberField, whole_number


class AwardForm(forms.Form):
    eliminated = WholeNumberField(
        label=gettext_lazy("Eliminated player (entry number)"), min_value=1, max_value=MAX_NUMBER
    )
    winners = forms.CharField(
        label=gettext_lazy("Who won his last pot (entry numbers)"), max_length=200
    )
    low_winners = forms.CharField(
        label=gettext_lazy("Who won the low half of that pot (hi/lo only)"),
        max_length=200,
        required=False,
    )
    envelope = forms.CharField(label=gettext_lazy("Envelope drawn"), max_length=20, required=False)
    confirm = forms.BooleanField(required=False)

    def clean_winners(self) -> list[int]:
        return _numbers(self.cleaned_data["winners"], required=True)

    def clean_low_winners(self) -> list[int]:
        return _numbers(self.cleaned_data.get("low_winners", ""), required=False)


def _numbers(text: str, *, required: bool) -> list[int]:
    parts = [p for p in re.split(r"[\s,;]+", text.strip()) if p]
    if not parts and required:
        raise forms.ValidationError(_("Write at least one entry number."))
    numbers = [whole_number(p, low=1, high=MAX_NUMBER) for p in parts]
    if None in numbers:
        raise forms.ValidationError(_("Write entry numbers separated by commas."))
    return [n for n in dict.fromkeys(numbers) if n is not None]


class ForfeitForm(forms.Form):
    entry = WholeNumberField(min_value=1, max_value=MAX_NUMBER)


class EnvelopesForm(forms.Form):
    envelopes = forms.CharField(
        label=gettext_lazy("Envelopes, one a line: code = value"),
        widget=forms.Textarea(attrs={"rows": 8}),
        max_length=20000,
    )

    def clean_envelopes(self) -> dict[str, int]:
        result: dict[str, int] = {}
        for line in self.cleaned_data["envelopes"].splitlines():
            if not line.strip():
                continue
            match = re.fullmatch(
                r"\s*([A-Za-z0-9_-]{1,20})\s*[=:]\s*([0-9]+(?:[.,][0-9]{1,2})?)\s*", line
            )
            if match is None:
                raise forms.ValidationError(
                    _("Write each envelope as code = value, like E01 = 1500.00.")
                )
            try:
                cents = int(Decimal(match[2].replace(",", ".")) * 100)
            except InvalidOperation as exc:  # pragma: no cover - the pattern rules it out
                raise forms.ValidationError(_("Write each envelope as code = value.")) from exc
            if match[1] in result:
                raise forms.ValidationError(
                    _("Envelope %(code)s is listed twice.") % {"code": match[1]}
                )
            result[match[1]] = cents
        if not result:
            raise forms.ValidationError(_("Write at least one envelope."))
        return result
